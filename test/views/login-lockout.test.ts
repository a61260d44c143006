/**
 * Issue 36 (6): wrong passwords from one computer hold that computer back, never the account
 * everywhere: a colleague cannot be locked out by someone guessing wrong on purpose. The
 * account's holder hears of the guessing from the Notification Bot.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { encodeParams, startTestServer, type Account, type TestServer } from '../helpers/server.js';

/** A form POST from another loopback address (127.0.0.2 …): another computer on the LAN, to the server. */
// biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read field by field
function postFrom(localAddress: string, url: string, params: Record<string, string>): Promise<{ status: number; body: any }> {
  const body = encodeParams(params).toString();
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      localAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('failed sign-ins cannot lock a colleague out', () => {
  let ts: TestServer;
  let bob: Account;
  const clock = { t: 1_800_000_000_000, now() { return this.t; } };
  const apiKeyUrl = () => `${ts.url}/api/v1/fetch_api_key`;
  const guess = (from: string, password = 'definitely wrong') => postFrom(from, apiKeyUrl(), { username: bob.email, password });
  const noticesTo = (userId: number) => {
    const botId = ts.store.users.collection.data.system_bots!.notification!;
    return [...ts.store.messages.directOf(userId)]
      .map((id) => ts.store.messages.get(id)!)
      .filter((m) => m.sender_id === botId && m.content.includes('wrong password'));
  };

  before(async () => {
    ts = await startTestServer({ clock });
    bob = await ts.addUser('Bob');
  });
  after(() => ts.stop());

  it('ten wrong passwords from one address hold that address back; Bob still signs in from his own', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await guess('127.0.0.2')).status, 401, `guess ${i}`);
    const held = await guess('127.0.0.2', bob.password);
    assert.equal(held.status, 429, 'even the right password, from the guessing address');
    assert.equal(held.body.code, 'RATE_LIMIT_HIT');
    // Bob, at his own computer: the API and the web sign-in both work.
    const own = await postFrom('127.0.0.1', apiKeyUrl(), { username: bob.email, password: bob.password });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.api_key, bob.apiKey);
    const web = await fetch(`${ts.url}/json/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeParams({ username: bob.email, password: bob.password }),
    });
    assert.equal(web.status, 200);
  });

  it('Bob hears of it once, with the address, from the Notification Bot', async () => {
    const notices = noticesTo(bob.id);
    assert.equal(notices.length, 1);
    assert.match(notices[0]!.content, /127\.0\.0\.2/);
    // More guesses from another address in the same window: held back too, no second notice.
    for (let i = 0; i < 10; i++) assert.equal((await guess('127.0.0.3')).status, 401);
    assert.equal((await guess('127.0.0.3', bob.password)).status, 429);
    assert.equal(noticesTo(bob.id).length, 1);
    assert.equal((await postFrom('127.0.0.4', apiKeyUrl(), { username: bob.email, password: bob.password })).status, 200);
  });

  it('one address guessing many accounts is held back for all of them (30 in ten minutes)', async () => {
    clock.t += 600_000;
    for (let i = 0; i < 30; i++) {
      const res = await postFrom('127.0.0.5', apiKeyUrl(), { username: `guess${i}@example.com`, password: 'nope' });
      assert.equal(res.status, 401, `guess ${i}`);
    }
    assert.equal((await postFrom('127.0.0.5', apiKeyUrl(), { username: bob.email, password: bob.password })).status, 429);
    assert.equal((await postFrom('127.0.0.6', apiKeyUrl(), { username: bob.email, password: bob.password })).status, 200);
  });

  it('wrong old passwords in PATCH /settings hold back that address only', async () => {
    clock.t += 600_000;
    const carl = await ts.addUser('Carl');
    const basic = `Basic ${Buffer.from(`${carl.email}:${carl.apiKey}`).toString('base64')}`;
    const patchFrom = (localAddress: string, old: string) =>
      new Promise<number>((resolve, reject) => {
        const body = encodeParams({ old_password: old, new_password: 'a new long password' }).toString();
        const req = request(`${ts.url}/api/v1/settings`, {
          method: 'PATCH',
          localAddress,
          headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      });
    for (let i = 0; i < 10; i++) assert.equal(await patchFrom('127.0.0.7', `wrong ${i}`), 400);
    assert.equal(await patchFrom('127.0.0.7', carl.password), 429);
    assert.equal((await postFrom('127.0.0.1', apiKeyUrl(), { username: carl.email, password: carl.password })).status, 200);
    assert.equal(noticesTo(carl.id).length, 1, 'Carl hears of it');
  });

  it('guesses sent all at once count against each other: no more than ten are checked', async () => {
    clock.t += 600_000;
    const dana = await ts.addUser('Dana');
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postFrom('127.0.0.8', apiKeyUrl(), { username: dana.email, password: `guess ${i}` })),
    );
    const statuses = burst.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 401).length, 10, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 429).length, 30);
    // A right password is counted only while it is checked: many sign-ins are never held against the address.
    clock.t += 600_000;
    for (let i = 0; i < 12; i++) {
      assert.equal((await postFrom('127.0.0.9', apiKeyUrl(), { username: dana.email, password: dana.password })).status, 200, `sign-in ${i}`);
    }
    assert.equal((await postFrom('127.0.0.9', apiKeyUrl(), { username: dana.email, password: 'wrong' })).status, 401);
  });
});
