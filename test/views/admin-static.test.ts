/**
 * The admin UI's files as the server serves them (no browser): redirects, content types, the
 * Content-Security-Policy, compiled renderer modules, vendor files, and no way out of renderer/.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A GET with the path sent exactly as written (fetch would normalise `..`). */
function rawGet(url: string, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const RENDERER = new URL('../../renderer/', import.meta.url);
const rendererTs = readdirSync(RENDERER).filter((n) => n.endsWith('.ts') && !n.endsWith('.d.ts'));

describe('admin UI files', () => {
  let ts: TestServer;
  // No organization yet: the admin UI must load for first-run setup.
  before(async () => (ts = await startTestServer({ withRealm: false })));
  after(() => ts.stop());

  it('`/` and `/admin` redirect to `/admin/`, keeping the query (setup token)', async () => {
    for (const [path, location] of [
      ['/', '/admin/'],
      ['/admin', '/admin/'],
      ['/?setup_token=abc-123', '/admin/?setup_token=abc-123'],
    ] as const) {
      const res = await fetch(`${ts.url}${path}`, { redirect: 'manual' });
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get('location'), location, path);
    }
  });

  it('serves the page with a strict Content-Security-Policy and no inline script or style', async () => {
    const res = await fetch(`${ts.url}/admin/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = new Map(csp.split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1).join(' ')]));
    assert.equal(directives.get('default-src'), "'none'");
    assert.equal(directives.get('script-src'), "'self'");
    assert.equal(directives.get('style-src'), "'self'");
    assert.equal(directives.get('connect-src'), "'self'");
    assert.equal(directives.get('frame-ancestors'), "'none'");
    assert.equal(directives.get('object-src'), "'none'");
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');

    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length >= 2);
    for (const [, attrs, inner] of scripts) {
      assert.match(attrs!, /\ssrc="[^"]+"/, 'every script is a file');
      assert.equal(inner!.trim(), '', 'no inline script');
    }
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or handler attributes');
    assert.match(html, /src="vendor\/purify\.min\.js"/);
  });

  it('serves every renderer module compiled to JavaScript, importing only files it serves', async () => {
    assert.ok(rendererTs.includes('app.ts'));
    let imports = 0;
    for (const name of rendererTs) {
      const js = name.replace(/\.ts$/, '.js');
      const res = await fetch(`${ts.url}/admin/${js}`);
      assert.equal(res.status, 200, js);
      assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8', js);
      assert.ok(res.headers.get('content-security-policy'), js);
      const code = await res.text();
      assert.doesNotMatch(code, /^import type|: HTMLElement\b|interface \w+ \{/m, `${js} still has TypeScript`);
      for (const [, spec] of code.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
        imports++;
        assert.match(spec!, /^\.\/[a-z-]+\.js$/, `${js} imports ${spec}`);
        assert.ok(rendererTs.includes(spec!.slice(2).replace(/\.js$/, '.ts')), `${js} imports a missing ${spec}`);
      }
    }
    assert.ok(imports >= rendererTs.length, `only ${imports} imports seen`);
    const css = await fetch(`${ts.url}/admin/style.css`);
    assert.equal(css.status, 200);
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  });

  it('serves DOMPurify and the QR encoder from node_modules', async () => {
    const purify = await fetch(`${ts.url}/admin/vendor/purify.min.js`);
    assert.equal(purify.status, 200);
    assert.equal(purify.headers.get('content-type'), 'text/javascript; charset=utf-8');
    const purifyText = await purify.text();
    assert.equal(purifyText, readFileSync(new URL('../../node_modules/dompurify/dist/purify.min.js', import.meta.url), 'utf8'));
    const uqr = await fetch(`${ts.url}/admin/vendor/uqr.mjs`);
    assert.equal(uqr.status, 200);
    assert.match(await uqr.text(), /export \{[^}]*\bencode\b/);
  });

  it('serves nothing outside renderer/ and the allow-listed vendor files', async () => {
    const paths = [
      '/admin/../package.json',
      '/admin/..%2Fpackage.json',
      '/admin/%2e%2e%2fpackage.json',
      '/admin/%2e%2e/package.json',
      '/admin/..%5cpackage.json',
      '/admin/vendor/..%2F..%2Fpackage.json',
      '/admin/vendor/../../package.json',
      '/admin/vendor/purify.js',
      '/admin/vendor/constructor',
      '/admin/vendor/__proto__',
      '/admin/vendor/hasOwnProperty',
      '/admin/app.ts',
      '/admin/README.md',
      '/admin/.env',
      '/admin/missing.js',
      '/admin/index.html%00.js',
      '/admin//etc/passwd',
      '/admin/%2Fetc%2Fpasswd',
      '/admin/renderer/app.js',
    ];
    for (const path of paths) {
      const res = await rawGet(ts.url, path);
      assert.equal(res.status, 404, `${path}: ${res.status} ${res.body.slice(0, 80)}`);
      assert.equal(JSON.parse(res.body).result, 'error', path);
      assert.doesNotMatch(res.body, /"name":\s*"hearth"|root:/, path);
    }
    // Other methods are refused (the UI is read-only files).
    const post = await fetch(`${ts.url}/admin/app.js`, { method: 'POST' });
    assert.equal(post.status, 405);
  });
});
