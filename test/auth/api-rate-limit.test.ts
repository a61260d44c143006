/**
 * Zulip's API rate limit (200 a minute by default): per user when signed in (Basic or the
 * browser session), per address for anonymous API calls; the next call gets 429
 * RATE_LIMIT_HIT with Retry-After; pages, files and long polls are not counted; the window
 * slides; an owner changes or turns it off (never announced); `hearth serve --rate-limit`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('the API rate limit', () => {
  let ts: TestServer;
  const clock = { t: Date.UTC(2026, 10, 25, 9), now: () => clock.t };
  before(async () => {
    ts = await startTestServer({ clock, config: { apiRateLimitPerMinute: 5 } });
  });
  after(() => ts.stop());

  it('answers the sixth call in a minute with 429 RATE_LIMIT_HIT and Retry-After; other people are not affected', async () => {
    const mel = await ts.addUser('Mel');
    for (let i = 0; i < 5; i++) assert.equal((await ts.ownerClient.get('/users/me')).status, 200, `call ${i + 1}`);
    clock.t += 20_000;
    const over = await ts.ownerClient.get('/users/me');
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'RATE_LIMIT_HIT');
    assert.equal(over.body.msg, 'API usage exceeded rate limit');
    assert.equal(over.body['retry-after'], 40);
    assert.equal(over.headers.get('retry-after'), '40');
    assert.equal((await ts.client(mel).get('/users/me')).status, 200, 'per user');
    // Pages and long polls do not count.
    for (let i = 0; i < 8; i++) assert.equal((await fetch(`${ts.url}/admin/`)).status, 200);
    // The window slides: a minute after the first calls, calls go through again.
    clock.t += 40_001;
    assert.equal((await ts.ownerClient.get('/users/me')).status, 200);
  });

  it('anonymous API calls count per address', async () => {
    clock.t += 120_000;
    for (let i = 0; i < 5; i++) assert.equal((await ts.anonymous.get('/server_settings')).status, 200);
    const over = await ts.anonymous.get('/server_settings');
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'RATE_LIMIT_HIT');
  });

  it('an owner sets it (0: off) with PATCH /realm; administrators cannot; it is never announced', async () => {
    clock.t += 120_000;
    const admin = ts.client(await ts.addUser('Ada', 200));
    const refused = await admin.patch('/realm', { hearth_api_rate_limit: 0 });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'Must be an organization owner');
    const reg = (await ts.ownerClient.post('/register', { event_types: '["realm"]', fetch_event_types: '["realm"]' })).body;
    assert.equal('realm_hearth_api_rate_limit' in reg, false);
    assert.equal((await ts.ownerClient.patch('/realm', { hearth_api_rate_limit: 0 })).status, 200);
    for (let i = 0; i < 12; i++) assert.equal((await ts.ownerClient.get('/users/me')).status, 200, 'off');
    const events = await ts.ownerClient.get('/events', { queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: 'true' });
    assert.deepEqual(events.body.events.filter((e: { type: string }) => e.type === 'realm'), []);
    assert.equal((await ts.ownerClient.patch('/realm', { hearth_api_rate_limit: -1 })).status, 400);
    assert.equal((await ts.ownerClient.patch('/realm', { hearth_api_rate_limit: 2 })).status, 200);
    clock.t += 120_000;
    assert.equal((await ts.ownerClient.get('/users/me')).status, 200);
    assert.equal((await ts.ownerClient.get('/users/me')).status, 200);
    assert.equal((await ts.ownerClient.get('/users/me')).status, 429);
    assert.equal(ts.store.realm.data.realm!.settings.hearth_api_rate_limit, 2);
  });
});
