/**
 * The chat web client as the server hands it out (no browser): `/` is the chat page once an
 * organization exists, under the strict CSP, naming content-hashed files that are cached for
 * a year; other names under /static/web/ are 404s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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

  it('other names under /static/web/ are not served', async () => {
    for (const name of ['chat-000000000000.js', 'chat.js', '..%2Fpackage.json', 'main.tsx']) {
      assert.equal((await fetch(`${ts.url}/static/web/${name}`)).status, 404, name);
    }
  });
});
