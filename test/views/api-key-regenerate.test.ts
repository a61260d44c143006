/**
 * POST /users/me/api_key/regenerate (Zulip's regenerate_api_key): a person cuts off a leaked key.
 * The answer has the new key; the old one is refused from then on, the new one works and is what is
 * stored; a browser session stays signed in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('regenerating one own API key', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('the old key stops working at once, the new one works and is stored', async () => {
    const mel = await ts.addUser('Mel');
    const old = ts.client(mel);
    const signIn = await fetch(`${ts.url}/json/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: mel.email, password: mel.password }).toString(),
    });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    assert.ok(cookie);
    const res = await old.post('/users/me/api_key/regenerate');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const key = res.body.api_key as string;
    assert.ok(key && key !== mel.apiKey);
    assert.equal((await old.get('/users/me')).status, 401);
    assert.equal((await ts.client({ ...mel, apiKey: key }).get('/users/me')).body.user_id, mel.id);
    assert.equal(ts.store.users.get(mel.id)!.api_key, key);
    // What fetch_api_key hands out (the mobile app's sign-in) is the new key too.
    const fetched = await ts.anonymous.post('/fetch_api_key', { username: mel.email, password: mel.password });
    assert.equal(fetched.body.api_key, key);
    const session = await fetch(`${ts.url}/json/users/me`, { headers: { cookie } });
    assert.equal(session.status, 200, 'the browser session stays signed in');
  });
});
