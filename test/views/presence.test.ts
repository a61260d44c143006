import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

describe('presence', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 6, 1);
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
  });
  after(() => ts.stop());

  const SLIM = { fetch_event_types: ['presence'], slim_presence: true, client_capabilities: JSON.stringify({ simplified_presence_events: true }) };

  it('register: intervals (with the organization, as Zulip), and presences keyed by user-ID strings with slim_presence', async () => {
    const reg = (await sam.post('/register', { ...SLIM, fetch_event_types: ['presence', 'realm'] })).body;
    assert.equal(reg.server_presence_ping_interval_seconds, 60);
    assert.equal(reg.server_presence_offline_threshold_seconds, 140);
    assert.equal(reg.realm_presence_disabled, false);
    assert.deepEqual(reg.presences, {});
  });

  it('coming online is announced (modern events with the capability, legacy without; verifyAction)', async () => {
    const legacyReg = await sam.post('/register', { event_types: JSON.stringify(['presence']) });
    const t = Math.floor(now / 1000);
    const events = await verifyAction(sam, async () => {
      const res = await mel.post('/users/me/presence', { status: 'active', slim_presence: true, last_update_id: -1 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.presences[String(melAcc.id)], { active_timestamp: t, idle_timestamp: t });
      assert.equal(typeof res.body.presence_last_update_id, 'number');
    }, SLIM);
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [{ type: 'presence', presences: { [String(melAcc.id)]: { active_timestamp: t, idle_timestamp: t } } }]);
    const legacy = await drain(sam, legacyReg.body.queue_id, legacyReg.body.last_event_id);
    assert.equal(legacy.length, 1);
    assert.equal(legacy[0]!.user_id, melAcc.id);
    assert.deepEqual(legacy[0]!.presence, { website: { client: 'website', status: 'active', timestamp: t, pushable: false } });
    // A ping a minute later moves the timestamps but announces nothing (clients poll for those).
    now += 60_000;
    const q = await sam.post('/register', SLIM);
    assert.deepEqual((await mel.post('/users/me/presence', { status: 'active', ping_only: true })).body, { result: 'success', msg: '' });
    assert.deepEqual(await drain(sam, q.body.queue_id, q.body.last_event_id), []);
    // After being away past the offline threshold, coming back is announced again.
    now += 300_000;
    await mel.post('/users/me/presence', { status: 'idle' });
    assert.equal((await drain(sam, q.body.queue_id, q.body.last_event_id)).length, 1);
  });

  it('legacy reads: GET /realm/presence and GET /users/{id}/presence; invisible users are left out', async () => {
    const realm = (await sam.get('/realm/presence')).body.presences;
    assert.equal(realm[melAcc.email].aggregated.status, 'idle', 'last reported idle');
    const one = await sam.get(`/users/${melAcc.id}/presence`);
    assert.equal(one.body.presence.website.status, 'idle');
    const none = await mel.get(`/users/${samAcc.id}/presence`);
    assert.equal(none.status, 400);
    assert.equal(none.body.msg, `No presence data for ${samAcc.email}`);
    assert.equal((await mel.patch('/settings', { presence_enabled: false })).status, 200);
    assert.deepEqual((await sam.get('/realm/presence')).body.presences, {});
    assert.equal((await mel.post('/users/me/presence', { status: 'away' })).body.msg, 'Invalid status: away');
  });
});

describe('presence events in a large organization (Zulip: USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS)', () => {
  let ts: TestServer;
  after(() => ts?.stop());

  it('past the limit, coming online is not pushed; a ping still tells everyone', async () => {
    // The owner, Mel and Sam may all see each other: three viewers, one over a limit of 2.
    ts = await startTestServer({ config: { presenceEventUserLimit: 2 } });
    const melAcc = await ts.addUser('Mel');
    const samAcc = await ts.addUser('Sam');
    const mel = ts.client(melAcc);
    const sam = ts.client(samAcc);
    const q = await sam.post('/register', { event_types: JSON.stringify(['presence']) });
    const res = await mel.post('/users/me/presence', { status: 'active', slim_presence: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await drain(sam, q.body.queue_id, q.body.last_event_id), []);
    const ping = await sam.post('/users/me/presence', { status: 'active', slim_presence: true });
    assert.ok(ping.body.presences[String(melAcc.id)], 'Sam learns of Mel from the ping');
    // At the limit (3 viewers, limit 3) the event is pushed again.
    ts.app.config.presenceEventUserLimit = 3;
    const owner = ts.client(ts.owner);
    await owner.post('/users/me/presence', { status: 'active' });
    const events = await drain(sam, q.body.queue_id, q.body.last_event_id);
    assert.deepEqual(events.map((e) => [e.type, e.user_id]), [['presence', ts.owner.id]]);
  });
});
