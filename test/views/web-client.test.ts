/**
 * The web app as the server hands it out (no browser): `/` is the chat page once an organization
 * exists, under the strict CSP, naming content-hashed files that are cached for a year; other names
 * under /static/web/ are 404s. Its pages: `/` and `/admin/` (the chat, its organization settings
 * at /admin/), first-run setup at /admin/ while there is no organization (`/` and `/admin` go there,
 * keeping the setup token's query), the join page at `/join/<key>/`; each page's files and every
 * chunk they import (the organization settings' too) are served, and nothing else under /admin/.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildWeb } from '../../build-resources/scripts/build-web.js';
import { readPrebuilt } from '../../server/lib/runtime/web-bundle.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A GET with the path sent exactly as written (fetch would normalise `..`). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Fetches a page and checks it as every page of the web app must be: HTML under the strict CSP (no
 * inline script, style or handler), not cached; answers its script and stylesheet names.
 */
async function fetchPage(url: string, page: 'chat' | 'setup' | 'join'): Promise<{ script: string; style: string; title: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  assert.equal(res.status, 200, url);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  const csp = res.headers.get('content-security-policy') ?? '';
  const directives = new Map(csp.split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1).join(' ')]));
  for (const [name, value] of [['default-src', "'none'"], ['script-src', "'self'"], ['style-src', "'self'"], ['connect-src', "'self'"], ['frame-ancestors', "'none'"], ['object-src', "'none'"]] as const) {
    assert.equal(directives.get(name), value, `${url}: ${name}`);
  }
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  const html = await res.text();
  for (const [, attrs, inner] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    assert.match(attrs!, /\ssrc="[^"]+"/, 'every script is a file');
    assert.equal(inner!.trim(), '', 'no inline script');
  }
  assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or handler attributes');
  const script = new RegExp(`src="/static/web/(${page}-[0-9a-f]{12}\\.js)"`).exec(html)?.[1];
  const style = new RegExp(`href="/static/web/(${page}-[0-9a-f]{12}\\.css)"`).exec(html)?.[1];
  assert.ok(script && style, `${url} is the ${page} page: ${html}`);
  return { script, style, title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '' };
}

/** Fetches a script of the bundle and every chunk it imports (statically or when a view opens), recursively; answers the names. */
async function fetchScripts(url: string, first: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(first)) return seen;
  seen.add(first);
  const res = await fetch(`${url}/static/web/${first}`);
  assert.equal(res.status, 200, first);
  assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8', first);
  assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', first);
  assert.ok(res.headers.get('content-security-policy'), first);
  for (const [, chunk] of (await res.text()).matchAll(/["']\.\/(chunk-[A-Z0-9]{8}\.js)["']/g)) await fetchScripts(url, chunk!, seen);
  return seen;
}

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

describe('the web app before an organization exists', () => {
  let ts: TestServer;
  before(async () => (ts = await startTestServer({ withRealm: false })));
  after(() => ts.stop());

  it('`/` and `/admin` go to /admin/, keeping the query (the setup token)', async () => {
    for (const [path, location] of [
      ['/', '/admin/'],
      ['/admin', '/admin/'],
      ['/?setup_token=abc-123', '/admin/?setup_token=abc-123'],
      ['/admin?setup_token=abc-123', '/admin/?setup_token=abc-123'],
    ] as const) {
      const res = await fetch(`${ts.url}${path}`, { redirect: 'manual' });
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get('location'), location, path);
    }
  });

  it('/admin/ is the first-run setup page, its script and chunks served', async () => {
    const page = await fetchPage(`${ts.url}/admin/`, 'setup');
    assert.equal(page.title, 'Set up Hearth');
    await fetchScripts(ts.url, page.script);
    const css = await fetch(`${ts.url}/static/web/${page.style}`);
    assert.equal(css.status, 200);
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  });
});

describe("the web app's pages", () => {
  let ts: TestServer;
  before(async () => (ts = await startTestServer()));
  after(() => ts.stop());

  it('`/` and `/admin/` are the chat page (its organization settings at /admin/); `/admin` goes there', async () => {
    const root = await fetchPage(`${ts.url}/`, 'chat');
    const admin = await fetchPage(`${ts.url}/admin/`, 'chat');
    assert.deepEqual(admin, root);
    const res = await fetch(`${ts.url}/admin`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/admin/');
  });

  it("every page's files are served, with every chunk they import (the organization settings' too)", async () => {
    const pages = [await fetchPage(`${ts.url}/`, 'chat'), await fetchPage(`${ts.url}/join/abc123/`, 'join')];
    const chat = await fetchScripts(ts.url, pages[0]!.script);
    assert.ok([...chat].filter((n) => n.startsWith('chunk-')).length >= 1, 'the chat imports chunks (the organization settings when opened)');
    await fetchScripts(ts.url, pages[1]!.script);
    for (const { style } of pages) assert.equal((await fetch(`${ts.url}/static/web/${style}`)).status, 200, style);
  });

  it('nothing else is served under /admin/: the old admin files, traversal attempts, other methods', async () => {
    const paths = [
      '/admin/anything.js',
      '/admin/app.js',
      '/admin/app.ts',
      '/admin/index.html',
      '/admin/style.css',
      '/admin/join.html',
      '/admin/vendor/purify.min.js',
      '/admin/vendor/uqr.mjs',
      '/admin/README.md',
      '/admin/../package.json',
      '/admin/..%2Fpackage.json',
      '/admin/%2e%2e%2fpackage.json',
      '/admin/vendor/../../package.json',
      '/admin//etc/passwd',
      '/admin/%2Fetc%2Fpasswd',
      '/static/web/..%2Fpackage.json',
      '/static/web/chunk-..%2F..%2Fpackage.json',
    ];
    for (const path of paths) {
      const res = await rawGet(ts.url, path);
      assert.equal(res.status, 404, `${path}: ${res.status} ${res.body.slice(0, 80)}`);
      assert.doesNotMatch(res.body, /"name":\s*"hearth"|root:/, path);
    }
    assert.equal((await fetch(`${ts.url}/admin/`, { method: 'POST' })).status, 405);
  });
});
