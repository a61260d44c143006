import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from './helpers/channels.js';
import { startTestServer, type Account, type Client, type TestServer } from './helpers/server.js';
import { drain, verifyAction } from './helpers/verify-action.js';

describe('POST /typing', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let otto: Client;
  let porch: number;
  let attic: number;
  before(async () => {
    ts = await startTestServer();
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    const o = await ts.addUser('Otto');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    otto = ts.client(o);
    porch = await createChannel(ts, sam, 'porch', { principals: [] });
    attic = await createChannel(ts, sam, 'attic', { invite_only: true, principals: [] });
    await mel.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }] });
    await sam.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }] });
  });
  after(() => ts.stop());

  const watch = async (c: Client, extra: Record<string, unknown> = {}) => {
    const reg = await c.post('/register', { event_types: ['typing'], ...extra } as never);
    return async () => (await drain(c, reg.body.queue_id, reg.body.last_event_id)).map(({ id: _i, ...e }) => e);
  };

  it('register gives Zulip\'s typing timings', async () => {
    const reg = await mel.post('/register', { fetch_event_types: ['typing'] });
    assert.equal(reg.body.server_typing_started_expiry_period_milliseconds, 45000);
    assert.equal(reg.body.server_typing_stopped_wait_period_milliseconds, 5000);
    assert.equal(reg.body.server_typing_started_wait_period_milliseconds, 10000);
  });

  it('direct: everyone in the conversation (the sender too) hears start and stop; nobody else', async () => {
    const [samQ, ottoQ] = [await watch(sam), await watch(otto)];
    const events = await verifyAction(mel, async () => {
      const res = await mel.post('/typing', { op: 'start', to: JSON.stringify([samAcc.id]) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    const ids = [melAcc, samAcc].sort((a, b) => a.id - b.id);
    const want = {
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: melAcc.id, email: melAcc.email },
      recipients: ids.map((a) => ({ user_id: a.id, email: a.email })),
    };
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [want]);
    assert.deepEqual(await samQ(), [want]);
    assert.deepEqual(await ottoQ(), []);
    assert.equal((await mel.post('/typing', { op: 'stop', type: 'private', to: JSON.stringify([samAcc.id]) })).status, 200);
    assert.deepEqual((await samQ()).map((e) => e.op), ['start', 'stop']);
  });

  it('channel: subscribers whose client declared stream_typing_notifications, not the typist', async () => {
    const capable = await watch(sam, { client_capabilities: JSON.stringify({ stream_typing_notifications: true }) });
    const legacy = await watch(sam);
    const self = await watch(mel, { client_capabilities: JSON.stringify({ stream_typing_notifications: true }) });
    const outsider = await watch(otto, { client_capabilities: JSON.stringify({ stream_typing_notifications: true }) });
    const res = await mel.post('/typing', { type: 'channel', op: 'start', stream_id: porch, topic: 'dinner' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await capable(), [
      { type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: melAcc.id, email: melAcc.email }, stream_id: porch, topic: 'dinner' },
    ]);
    assert.deepEqual(await legacy(), []);
    assert.deepEqual(await self(), []);
    assert.deepEqual(await outsider(), []);
  });

  it('refuses bad requests with Zulip\'s errors', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ op: 'start' }, "Missing 'to' argument"],
      [{ op: 'start', to: '[]' }, "Empty 'to' list"],
      [{ op: 'start', to: '[424242]' }, 'Invalid user ID 424242'],
      [{ op: 'typing', to: JSON.stringify([samAcc.id]) }, 'Invalid op'],
      [{ op: 'start', type: 'carrier-pigeon', to: JSON.stringify([samAcc.id]) }, 'Invalid type'],
      [{ op: 'start', type: 'stream', topic: 'x' }, "Missing 'stream_id' argument"],
      [{ op: 'start', type: 'stream', stream_id: porch }, 'Missing topic'],
      [{ op: 'start', type: 'stream', stream_id: attic, topic: 'x' }, 'Invalid channel ID'],
      [{ to: JSON.stringify([samAcc.id]) }, "Missing 'op' argument"],
    ];
    for (const [params, msg] of cases) {
      const res = await mel.post('/typing', params as never);
      assert.equal(res.status, 400, JSON.stringify([params, res.body]));
      assert.equal(res.body.msg, msg);
    }
  });
});
