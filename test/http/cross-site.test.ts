/**
 * Another web site cannot make a visitor's browser change anything here: a POST naming another
 * origin (or, without Origin, flagged cross-site by Sec-Fetch-Site) is refused before any view,
 * including sign-in (login CSRF) and joining by invitation; the same request from Hearth's own
 * origin, or from a program that names no origin, goes through.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('cross-site requests', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  const login = (headers: Record<string, string>) =>
    fetch(`${ts.url}/json/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ username: ts.owner.email, password: ts.owner.password }).toString(),
      redirect: 'manual',
    });

  it('sign-in posted from another site is refused, and no session cookie is set', async () => {
    const tries: Record<string, string>[] = [{ origin: 'http://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { origin: ts.url.replace('http:', 'https:') }];
    for (const headers of tries) {
      const res = await login(headers);
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal(((await res.json()) as { code: string }).code, 'CSRF_FAILED');
      assert.equal(res.headers.get('set-cookie'), null);
    }
  });

  it('from the server own origin, or from a program (no Origin), it works; reading is never refused', async () => {
    assert.equal((await login({ origin: ts.url, 'sec-fetch-site': 'same-origin' })).status, 200);
    assert.equal((await login({})).status, 200);
    const api = await ts.ownerClient.call('POST', '/users/me/status', { status_text: 'here' }, { headers: { origin: 'http://evil.example' } });
    assert.equal(api.status, 403, 'Basic auth from a browser on another site (credentials the browser remembered) too');
    assert.equal((await ts.ownerClient.post('/users/me/status', { status_text: 'here' })).status, 200);
    const read = await ts.ownerClient.call('GET', '/users/me', {}, { headers: { origin: 'http://evil.example' } });
    assert.equal(read.status, 200);
  });
});
