/**
 * The help center (/help/, server/views/help.ts) through real HTTP: every page of renderer/help/
 * is served as HTML with its title, without signing in and before setup; an unknown page is a
 * friendly 404 for a browser and JSON otherwise; no path reaches outside renderer/help/.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { renderHelp } from '../../server/lib/runtime/help-pages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const HELP = new URL('../../renderer/help/', import.meta.url);
const pages = readdirSync(HELP).filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3));
const titleOf = (name: string) => /^# (.+)$/m.exec(readFileSync(new URL(`${name}.md`, HELP), 'utf8'))![1]!;
const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

/** A GET with the path sent exactly as written (fetch would normalise `..`). */
function rawGet(url: string, path: string, accept = '*/*'): Promise<{ status: number; type: string; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET', headers: { accept } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('help center', () => {
  let ts: TestServer;
  let fresh: TestServer;
  before(async () => {
    ts = await startTestServer();
    fresh = await startTestServer({ withRealm: false });
  });
  after(async () => {
    await ts.stop();
    await fresh.stop();
  });

  it('has the pages the manual needs', () => {
    for (const p of ['index', 'getting-started', 'admin-guide', 'https-and-trust', 'connecting-apps', 'moving-to-zulip']) assert.ok(pages.includes(p), p);
  });

  it('serves every page as HTML with its title and the list of pages, without signing in, before setup too', async () => {
    for (const server of [ts, fresh]) {
      for (const name of pages) {
        const path = name === 'index' ? '/help/' : `/help/${name}`;
        const res = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8', path);
        assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
        const html = await res.text();
        assert.ok(html.includes(`<title>${escaped(titleOf(name))} · Hearth help</title>`), `${path}: ${html.slice(0, 400)}`);
        assert.match(html, /<nav class="help-nav" aria-label="Help pages">/);
        assert.match(html, /<link rel="stylesheet" href="\/help\/help.css">/);
        assert.doesNotMatch(html, /<script|style=/, path);
      }
    }
  });

  it('rewrites links between pages to their addresses, and gives headings anchors', async () => {
    const html = await (await fetch(`${ts.url}/help/`)).text();
    assert.match(html, /<a href="\/help\/admin-guide">Admin guide<\/a>/);
    const guide = await (await fetch(`${ts.url}/help/admin-guide`)).text();
    assert.match(guide, /<h2 id="data-and-backups">Data and backups<\/h2>/);
    assert.match(guide, /<a href="\/help\/moving-to-zulip">/);
    assert.match(guide, /<a href="\/help\/admin-guide" aria-current="page">Admin guide<\/a>/);
  });

  it('writes a link with & in its address once escaped (the browser follows the address as written)', () => {
    const page = renderHelp('x', '# X\n\n[search](https://example.com/?a=1&b=2) and <https://example.com/?c=3&d=4>');
    assert.match(page.html, /href="https:\/\/example\.com\/\?a=1&amp;b=2"/);
    assert.match(page.html, /href="https:\/\/example\.com\/\?c=3&amp;d=4"/);
    assert.doesNotMatch(page.html, /&amp;amp;/);
  });

  it('serves the stylesheet, with dark mode and a phone layout', async () => {
    const res = await fetch(`${ts.url}/help/help.css`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/css; charset=utf-8');
    const css = await res.text();
    assert.match(css, /prefers-color-scheme: dark/);
    assert.match(css, /max-width: 760px/);
  });

  it('/help and /help/index lead to /help/', async () => {
    for (const path of ['/help', '/help/index']) {
      const res = await fetch(`${ts.url}${path}`, { redirect: 'manual' });
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get('location'), '/help/', path);
    }
  });

  it('an unknown page is a friendly page for a browser, JSON for anything else', async () => {
    const page = await rawGet(ts.url, '/help/no-such-page', 'text/html,application/xhtml+xml');
    assert.equal(page.status, 404);
    assert.equal(page.type, 'text/html; charset=utf-8');
    assert.match(page.body, /<h1>No such help page<\/h1>/);
    assert.match(page.body, /<a href="\/help\/getting-started">Getting started<\/a>/);
    const json = await rawGet(ts.url, '/help/no-such-page');
    assert.equal(json.status, 404);
    assert.match(json.type, /application\/json/);
    assert.equal(JSON.parse(json.body).result, 'error');
  });

  it('refuses paths out of renderer/help/ and names that are not pages', async () => {
    for (const path of [
      '/help/../package.json',
      '/help/..%2F..%2Fpackage.json',
      '/help/%2e%2e/package.json',
      '/help/getting-started.md',
      '/help/getting-started%2F..%2Findex',
      '/help/admin-guide/..',
      '/help/a/b',
      '/help/README',
      '/help/.hidden',
      '/help/Admin-Guide',
      '/help/help',
    ]) {
      for (const accept of ['text/html', '*/*']) {
        const res = await rawGet(ts.url, path, accept);
        assert.ok(res.status === 404 || res.status === 400, `${path}: ${res.status}`);
        assert.doesNotMatch(res.body, /"name": "hearth"|"dependencies"/, path);
      }
    }
  });
});
