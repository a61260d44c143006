/**
 * Errors as pages for people (server/http/error-page.ts): a browser opening a dead link or a
 * page it may not see gets HTML with the page headers; API paths, /json/ paths and clients
 * that did not ask for HTML keep Zulip's JSON error, with the same status either way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('error pages for browsers', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('a dead link opened in a browser is a 404 page with a way back, under the page headers', async () => {
    const res = await fetch(`${ts.url}/no/such/page?x=<script>`, { headers: { Accept: BROWSER } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const html = await res.text();
    assert.match(html, /<title>Page not found · Hearth<\/title>/);
    assert.match(html, /<a href="\/">Go to Hearth<\/a>/);
    assert.doesNotMatch(html, /<script/);
  });

  it('a gone upload and a bad invite key read as pages, with the server message escaped', async () => {
    const file = await fetch(`${ts.url}/user_uploads/1/ab/missing.png`, { headers: { Accept: BROWSER } });
    assert.equal(file.status, 404);
    assert.match(await file.text(), /<h1>/);
    const invite = await fetch(`${ts.url}/join/not-a-key/`, { headers: { Accept: BROWSER } });
    assert.ok(invite.status >= 400, `status ${invite.status}`);
    assert.match(invite.headers.get('content-type') ?? '', /^text\/html/);
  });

  it('API and /json/ paths, other methods and clients that did not ask for HTML keep the JSON error', async () => {
    for (const [path, init] of [
      ['/api/v1/users/me', { headers: { Accept: BROWSER } }],
      ['/json/users/me', { headers: { Accept: BROWSER } }],
      ['/no/such/page', {}],
      ['/no/such/page', { method: 'POST', headers: { Accept: BROWSER } }],
    ] as const) {
      const res = await fetch(`${ts.url}${path}`, init);
      assert.ok(res.status >= 400, `${path}: ${res.status}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, path);
      const body = (await res.json()) as { result: string };
      assert.equal(body.result, 'error');
    }
  });
});
