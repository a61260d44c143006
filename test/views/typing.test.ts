import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

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
    // Zulip sends them with the organization (want("realm")).
    const reg = await mel.post('/register', { fetch_event_types: ['realm'] });
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

  it('channel: subscribers (the typist too, as Zulip) whose client declared stream_typing_notifications', async () => {
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
    assert.deepEqual(await self(), [
      { type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: melAcc.id, email: melAcc.email }, stream_id: porch, topic: 'dinner' },
    ]);
    assert.deepEqual(await outsider(), []);
  });

  it('honours the typist\'s send_*_typing_notifications and the recipients\' receives_typing_notifications', async () => {
    const setting = async (c: Client, name: string, value: boolean) => {
      const res = await c.patch('/settings', { [name]: value });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const caps = { client_capabilities: JSON.stringify({ stream_typing_notifications: true }) };
    const [samQ, melQ, ottoQ] = [await watch(sam, caps), await watch(mel, caps), await watch(otto, caps)];
    await setting(mel, 'send_private_typing_notifications', false);
    assert.equal(ts.store.users.get(melAcc.id)?.user_settings?.send_private_typing_notifications, false);
    let res = await mel.post('/typing', { op: 'start', to: JSON.stringify([samAcc.id]) });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'User has disabled typing notifications for direct messages');
    await setting(mel, 'send_stream_typing_notifications', false);
    res = await mel.post('/typing', { type: 'stream', op: 'start', stream_id: porch, topic: 'dinner' });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'User has disabled typing notifications for channel messages');
    await setting(mel, 'send_private_typing_notifications', true);
    await setting(mel, 'send_stream_typing_notifications', true);
    assert.deepEqual([await samQ(), await melQ(), await ottoQ()], [[], [], []]);

    // Sam turns typing notifications off: the event still names Sam but reaches only the others.
    await setting(sam, 'receives_typing_notifications', false);
    assert.equal((await mel.post('/typing', { op: 'start', to: JSON.stringify([samAcc.id, melAcc.id]) })).status, 200);
    assert.equal((await mel.post('/typing', { type: 'stream', op: 'stop', stream_id: porch, topic: 'dinner' })).status, 200);
    assert.deepEqual(await samQ(), []);
    assert.deepEqual(
      (await melQ()).map((e) => [e.message_type, e.op, (e.recipients as { user_id: number }[] | undefined)?.map((r) => r.user_id)]),
      [['direct', 'start', [melAcc.id, samAcc.id].sort((a, b) => a - b)], ['stream', 'stop', undefined]],
    );
    assert.deepEqual(await ottoQ(), []);
    await setting(sam, 'receives_typing_notifications', true);
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

  it('refuses typing where the typist may not post (Zulip checks access_stream_for_send_message)', async () => {
    const admins = ts.store.groups.data.groups.find((g) => g.name === 'role:administrators')!.id;
    const notices = await createChannel(ts, ts.ownerClient, 'notices', { principals: JSON.stringify([melAcc.id, ts.owner.id]) });
    const upd = await ts.ownerClient.patch(`/streams/${notices}`, { can_send_message_group: JSON.stringify({ new: admins }) });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    const hear = await watch(ts.ownerClient, { client_capabilities: { stream_typing_notifications: true } });
    const refused = await mel.post('/typing', { op: 'start', type: 'stream', stream_id: notices, topic: 'x' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'You do not have permission to post in this channel.');
    assert.deepEqual(await hear(), []);
    // The owner may post there, so may say they are typing.
    assert.equal((await ts.ownerClient.post('/typing', { op: 'start', type: 'stream', stream_id: notices, topic: 'x' })).status, 200);
    const archived = await createChannel(ts, ts.ownerClient, 'old-notes', { principals: JSON.stringify([melAcc.id, ts.owner.id]) });
    assert.equal((await ts.ownerClient.delete(`/streams/${archived}`)).status, 200);
    const gone = await mel.post('/typing', { op: 'start', type: 'stream', stream_id: archived, topic: 'x' });
    assert.equal(gone.status, 400);
    assert.equal(gone.body.msg, "Not authorized to send to channel 'old-notes'");
  });
});

describe('POST /messages/{message_id}/typing', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let otto: Client;
  let ottoAcc: Account;
  let porch = 0;
  let channelMsg = 0;
  let dmMsg = 0;
  let groupMsg = 0;
  before(async () => {
    ts = await startTestServer();
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    ottoAcc = await ts.addUser('Otto');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    otto = ts.client(ottoAcc);
    porch = await createChannel(ts, sam, 'porch', { principals: JSON.stringify([melAcc.id, samAcc.id]) });
    await createChannel(ts, sam, 'attic', { invite_only: true, principals: JSON.stringify([melAcc.id, samAcc.id]) });
    channelMsg = await sendStream(mel, 'porch', 'dinner', 'soup tonight');
    dmMsg = await sendDirect(mel, [samAcc.id], 'psst');
    groupMsg = await sendDirect(mel, [samAcc.id, ottoAcc.id], 'all three');
  });
  after(() => ts.stop());

  const watch = async (c: Client, extra: Record<string, unknown> = {}) => {
    const reg = await c.post('/register', { event_types: ['typing_edit_message'], ...extra } as never);
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    return async () => (await drain(c, reg.body.queue_id, reg.body.last_event_id)).map(({ id: _i, ...e }) => e);
  };
  const editTyping = (c: Client, id: number, params: Record<string, unknown>) => c.post(`/messages/${id}/typing`, params as never);
  const setting = async (c: Client, name: string, value: boolean) => {
    const res = await c.patch('/settings', { [name]: value });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  it('channel message: every subscriber (the editor too, no capability needed) hears start and stop; nobody else', async () => {
    const [samQ, ottoQ] = [await watch(sam), await watch(otto)];
    const events = await verifyAction(mel, async () => {
      const res = await editTyping(mel, channelMsg, { op: 'start' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    const want = (op: string) => ({
      type: 'typing_edit_message',
      op,
      sender_id: melAcc.id,
      message_id: channelMsg,
      recipient: { type: 'channel', channel_id: porch, topic: 'dinner' },
    });
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [want('start')]);
    assert.deepEqual(await samQ(), [want('start')]);
    assert.deepEqual(await ottoQ(), []);
    assert.equal((await editTyping(mel, channelMsg, { op: 'stop' })).status, 200);
    assert.deepEqual(await samQ(), [want('start'), want('stop')]);
    // Nothing is stored: the message is as it was.
    const stored = ts.store.messages.get(channelMsg);
    assert.equal(stored?.content, 'soup tonight');
    assert.equal(stored?.topic, 'dinner');
  });

  it('direct messages: the participants (editor first one-to-one), naming only those who receive typing notifications', async () => {
    const [samQ, ottoQ] = [await watch(sam), await watch(otto)];
    const events = await verifyAction(mel, async () => {
      assert.equal((await editTyping(mel, dmMsg, { op: 'start' })).status, 200);
    });
    const dm = { type: 'typing_edit_message', op: 'start', sender_id: melAcc.id, message_id: dmMsg, recipient: { type: 'direct', user_ids: [melAcc.id, samAcc.id] } };
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [dm]);
    assert.deepEqual(await samQ(), [dm]);
    assert.deepEqual(await ottoQ(), []);

    await setting(otto, 'receives_typing_notifications', false);
    assert.equal(ts.store.users.get(ottoAcc.id)?.user_settings?.receives_typing_notifications, false);
    assert.equal((await editTyping(mel, groupMsg, { op: 'start' })).status, 200);
    const group = {
      type: 'typing_edit_message',
      op: 'start',
      sender_id: melAcc.id,
      message_id: groupMsg,
      recipient: { type: 'direct', user_ids: [melAcc.id, samAcc.id].sort((a, b) => a - b) },
    };
    // (The queues are read from registration on: everything so far.)
    assert.deepEqual(await samQ(), [dm, group]);
    assert.deepEqual(await ottoQ(), []);
    await setting(otto, 'receives_typing_notifications', true);
  });

  it('a subscriber who turned off receives_typing_notifications hears nothing of channel edits', async () => {
    await setting(sam, 'receives_typing_notifications', false);
    const samQ = await watch(sam);
    const melQ = await watch(mel);
    assert.equal((await editTyping(mel, channelMsg, { op: 'start' })).status, 200);
    assert.deepEqual(await samQ(), []);
    assert.equal((await melQ()).length, 1);
    await setting(sam, 'receives_typing_notifications', true);
  });

  it('refuses as Zulip does: op, access, editing rights, archived channels and the send_*_typing_notifications settings', async () => {
    const secret = await sendStream(sam, 'attic', 'plans', 'hidden');
    const samsOwn = await sendStream(sam, 'porch', 'dinner', 'not mel’s');
    const cases: [Client, number, Record<string, unknown>, string][] = [
      [mel, channelMsg, {}, "Missing 'op' argument"],
      [mel, channelMsg, { op: 'typing' }, 'Invalid op'],
      [mel, 999999, { op: 'start' }, 'Invalid message(s)'],
      [otto, secret, { op: 'start' }, 'Invalid message(s)'],
      [otto, dmMsg, { op: 'start' }, 'Invalid message(s)'],
      [mel, samsOwn, { op: 'start' }, "You don't have permission to edit this message"],
      [sam, dmMsg, { op: 'start' }, "You don't have permission to edit this message"],
    ];
    for (const [c, id, params, msg] of cases) {
      const res = await editTyping(c, id, params);
      assert.equal(res.status, 400, JSON.stringify([id, params, res.body]));
      assert.equal(res.body.msg, msg);
    }

    const samQ = await watch(sam);
    await setting(mel, 'send_stream_typing_notifications', false);
    assert.equal(ts.store.users.get(melAcc.id)?.user_settings?.send_stream_typing_notifications, false);
    let res = await editTyping(mel, channelMsg, { op: 'start' });
    assert.equal(res.body.msg, 'User has disabled typing notifications for channel messages');
    assert.equal((await editTyping(mel, dmMsg, { op: 'start' })).status, 200);
    await setting(mel, 'send_private_typing_notifications', false);
    res = await editTyping(mel, dmMsg, { op: 'stop' });
    assert.equal(res.body.msg, 'User has disabled typing notifications for direct messages');
    await setting(mel, 'send_stream_typing_notifications', true);
    await setting(mel, 'send_private_typing_notifications', true);
    const heard = [[dmMsg, 'start']];
    assert.deepEqual((await samQ()).map((e) => [e.message_id, e.op]), heard);

    const off = await ts.ownerClient.patch('/realm', { allow_message_editing: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal((await editTyping(mel, channelMsg, { op: 'start' })).body.msg, 'Your organization has turned off message editing');
    assert.equal((await ts.ownerClient.patch('/realm', { allow_message_editing: true })).status, 200);

    assert.equal((await ts.ownerClient.delete(`/streams/${porch}`)).status, 200);
    assert.equal((await editTyping(mel, channelMsg, { op: 'start' })).body.msg, 'Invalid message(s)');
    assert.deepEqual((await samQ()).map((e) => [e.message_id, e.op]), heard);
  });
});
