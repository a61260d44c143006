/**
 * The chat web client as the server hands it out (no browser): `/` is the chat page once an
 * organization exists, under the strict CSP, naming content-hashed files that are cached for
 * a year; other names under /static/web/ are 404s.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildWeb } from '../../build-resources/scripts/build-web.js';
import { readPrebuilt } from '../../server/lib/runtime/web-bundle.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('chat web client files', () => {
  let ts: TestServer;
  before(async () => (ts = await startTestServer()));
  after(() => ts.stop());

  it('/ is the chat page, under the strict CSP, naming hashed files cached for a year', async () => {
    const res = await fetch(`${ts.url}/`, { redirect: 'manual' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.doesNotMatch(res.headers.get('content-security-policy') ?? '', /unsafe-inline|unsafe-eval/);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    const html = await res.text();
    assert.doesNotMatch(html, /<script>|<style>| on\w+=/, 'no inline script or style');
    const script = /src="\/static\/web\/(chat-[0-9a-f]{12}\.js)"/.exec(html)?.[1];
    const style = /href="\/static\/web\/(chat-[0-9a-f]{12}\.css)"/.exec(html)?.[1];
    assert.ok(script && style, html);
    for (const [name, type] of [[script, 'text/javascript'], [style, 'text/css']] as const) {
      const file = await fetch(`${ts.url}/static/web/${name}`);
      assert.equal(file.status, 200, name);
      assert.match(file.headers.get('content-type') ?? '', new RegExp(`^${type}`));
      assert.equal(file.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.ok((await file.arrayBuffer()).byteLength > 1000);
    }
  });

  it("KaTeX's stylesheet is in the bundle and its fonts are served from here, WOFF2 only, cached for a year", async () => {
    const html = await (await fetch(`${ts.url}/`)).text();
    const res = await fetch(`${ts.url}/static/web/${/href="\/static\/web\/(chat-[0-9a-f]{12}\.css)"/.exec(html)![1]}`);
    assert.match(res.headers.get('content-security-policy') ?? '', /font-src 'self'/);
    const css = await res.text();
    assert.match(css, /\.katex-display\{/);
    const fonts = [...css.matchAll(/url\("?\.\/(KaTeX_[^")]+)"?\)/g)].map((m) => m[1]!);
    assert.equal(fonts.length, 20, 'one WOFF2 per KaTeX font');
    assert.ok(fonts.every((f) => f.endsWith('.woff2')), 'no WOFF or TTF');
    for (const name of fonts) {
      const font = await fetch(`${ts.url}/static/web/${name}`);
      assert.equal(font.status, 200, name);
      assert.equal(font.headers.get('content-type'), 'font/woff2');
      assert.equal(font.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(new TextDecoder().decode((await font.arrayBuffer()).slice(0, 4)), 'wOF2');
    }
    assert.equal((await fetch(`${ts.url}/static/web/KaTeX_Main-Regular-AAAAAAAA.woff2`)).status, 404);
  });

  it('the prebuilt bundle of `npm run build` carries the fonts too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-web-'));
    try {
      const names = await buildWeb(dir);
      const bundle = readPrebuilt(dir)!;
      assert.deepEqual([...bundle.assets.keys()].sort(), names.sort());
      assert.equal(names.filter((n) => n.endsWith('.woff2')).length, 20);
      assert.equal(bundle.assets.get(names.find((n) => n.startsWith('KaTeX_Main-Regular'))!)!.type, 'font/woff2');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('other names under /static/web/ are not served', async () => {
    for (const name of ['chat-000000000000.js', 'chat.js', '..%2Fpackage.json', 'main.tsx']) {
      assert.equal((await fetch(`${ts.url}/static/web/${name}`)).status, 404, name);
    }
  });
});
