import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Store } from '../../server/store/store.js';
import { FLAG } from '../../server/store/message-records.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

const REGISTER = { fetch_event_types: ['message', 'update_message_flags', 'starred_messages', 'subscription'] };

describe('message flags', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let outsider: Client;
  let outsiderAcc: Account;
  before(async () => {
    ts = await startTestServer();
    melAcc = await ts.addUser('Mel');
    mel = ts.client(melAcc);
    sam = ts.client(await ts.addUser('Sam'));
    outsiderAcc = await ts.addUser('Otto');
    outsider = ts.client(outsiderAcc);
    await createChannel(ts, sam, 'kitchen', { principals: [] });
    await createChannel(ts, sam, 'vault', { invite_only: true, principals: [] });
    for (const c of [mel, sam]) await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'kitchen' }] });
    await sam.post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }] });
  });
  after(() => ts.stop());

  const flagsOf = (id: number, userId: number) => ts.store.messages.rowFlags(ts.store.messages.get(id)!, userId);
  const unreadCount = async (c: Client) => (await c.post('/register', { fetch_event_types: ['update_message_flags', 'message'] })).body.unread_msgs.count as number;

  it('marks messages read and unread (verifyAction both ways); message_details on remove', async () => {
    const a = await sendStream(sam, 'kitchen', 'lunch', 'soup? @**Mel**');
    const b = await sendDirect(sam, [melAcc.id], 'psst');
    const before = await unreadCount(mel);
    let res: Awaited<ReturnType<Client['post']>> | undefined;
    const added = await verifyAction(mel, async () => {
      res = await mel.post('/messages/flags', { messages: JSON.stringify([b, a]), op: 'add', flag: 'read' });
    }, REGISTER);
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    assert.deepEqual(res!.body.messages, [b, a]);
    assert.deepEqual(added.map(({ id: _i, ...e }) => e), [
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [a, b], all: false },
    ]);
    assert.equal(await unreadCount(mel), before - 2);
    assert.ok(flagsOf(a, melAcc.id)! & FLAG.read);

    const removed = await verifyAction(mel, () => mel.post('/messages/flags', { messages: JSON.stringify([a, b]), op: 'remove', flag: 'read' }), REGISTER);
    assert.equal(removed.length, 1);
    assert.deepEqual(removed[0]!.message_details, {
      [a]: { type: 'stream', stream_id: ts.store.messages.get(a)!.stream_id, topic: 'lunch', unmuted_stream_msg: true, mentioned: true },
      [b]: { type: 'private', user_ids: [ts.store.messages.get(b)!.sender_id] },
    });
    assert.equal(await unreadCount(mel), before);

    // Nothing to change: no event.
    const none = await verifyAction(mel, () => mel.post('/messages/flags', { messages: JSON.stringify([a]), op: 'remove', flag: 'read' }), REGISTER);
    assert.deepEqual(none, []);
  });

  it('stars a public message the user never received (a historical row) and unstars it', async () => {
    const id = await sendStream(sam, 'kitchen', 'news', 'old news');
    assert.equal(flagsOf(id, outsiderAcc.id), null);
    // (Not verifyAction: the new row also moves the user's max_message_id, which no event carries, as in Zulip.)
    const reg = await outsider.post('/register', { event_types: ['update_message_flags'] });
    const res = await outsider.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const events = await drain(outsider, reg.body.queue_id, reg.body.last_event_id);
    assert.deepEqual(events.map((e) => [e.flag, e.op, e.messages]), [['starred', 'add', [id]]]);
    const after = await outsider.post('/register', { fetch_event_types: ['starred_messages'] });
    assert.ok(after.body.starred_messages.includes(id));
    assert.equal(flagsOf(id, outsiderAcc.id), FLAG.read | FLAG.historical | FLAG.starred);
    const fetched = await outsider.get(`/messages/${id}`);
    assert.deepEqual(fetched.body.message.flags, ['read', 'starred', 'historical']);
    await verifyAction(outsider, () => outsider.post('/messages/flags', { messages: JSON.stringify([id]), op: 'remove', flag: 'starred' }), REGISTER);
    assert.equal(flagsOf(id, outsiderAcc.id), FLAG.read | FLAG.historical);
  });

  it('refuses bad flags, operations and messages the user cannot read, changing nothing', async () => {
    const secret = await sendStream(sam, 'vault', 'plans', 'secret');
    const mine = await sendStream(sam, 'kitchen', 'x', 'y');
    const cases: [Record<string, string>, string][] = [
      [{ messages: JSON.stringify([mine]), op: 'add', flag: 'bogus' }, "Invalid flag: 'bogus'"],
      [{ messages: JSON.stringify([mine]), op: 'add', flag: 'mentioned' }, "Flag not editable: 'mentioned'"],
      [{ messages: JSON.stringify([mine]), op: 'toggle', flag: 'read' }, "Invalid message flag operation: 'toggle'"],
      [{ messages: JSON.stringify([mine, secret]), op: 'add', flag: 'starred' }, 'Invalid message(s)'],
      [{ messages: JSON.stringify([999999]), op: 'add', flag: 'read' }, 'Invalid message(s)'],
      [{ messages: 'nope', op: 'add', flag: 'read' }, 'Argument "messages" is not valid JSON.'],
    ];
    for (const [params, msg] of cases) {
      const res = await mel.post('/messages/flags', params);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.result, 'error');
      if (!msg.startsWith('Argument')) assert.equal(res.body.msg, msg);
    }
    assert.equal(flagsOf(mine, melAcc.id)! & FLAG.starred, 0);
    assert.equal(flagsOf(secret, melAcc.id), null);
  });

  it('marking unread skips channels the user is not subscribed to and says which', async () => {
    const id = await sendStream(sam, 'kitchen', 'bye', 'leaving soon');
    await mel.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
    await mel.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['kitchen']) });
    const kitchen = ts.store.messages.get(id)!.stream_id;
    const res = await mel.post('/messages/flags', { messages: JSON.stringify([id]), op: 'remove', flag: 'read' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { result: 'success', msg: '', messages: [], ignored_because_not_subscribed_channels: [kitchen] });
    assert.ok(flagsOf(id, melAcc.id)! & FLAG.read);
    await mel.post('/users/me/subscriptions', { subscriptions: [{ name: 'kitchen' }] });
  });

  it('POST /messages/flags/narrow processes a range and reports where it stopped', async () => {
    await createChannel(ts, sam, 'range', { principals: [] });
    await mel.post('/users/me/subscriptions', { subscriptions: [{ name: 'range' }] });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await sendStream(sam, 'range', 't', `m${i}`));
    const narrow = JSON.stringify([{ operator: 'channel', operand: 'range' }]);
    let res = await mel.post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 3, narrow, op: 'add', flag: 'read' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      result: 'success',
      msg: '',
      processed_count: 3,
      updated_count: 3,
      first_processed_id: ids[0],
      last_processed_id: ids[2],
      found_oldest: true,
      found_newest: false,
    });
    const events = await verifyAction(mel, async () => {
      res = await mel.post('/messages/flags/narrow', {
        anchor: String(ids[2]),
        include_anchor: false,
        num_before: 0,
        num_after: 10,
        narrow,
        op: 'add',
        flag: 'read',
      });
    }, REGISTER);
    assert.equal(res.body.processed_count, 2);
    assert.equal(res.body.updated_count, 2);
    assert.equal(res.body.found_newest, true);
    assert.deepEqual(events[0]!.messages, ids.slice(3));
    for (const id of ids) assert.ok(flagsOf(id, melAcc.id)! & FLAG.read);
    const bad = await mel.post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 3, narrow, op: 'add', flag: 'read', extra: 1 });
    assert.deepEqual(bad.body.ignored_parameters_unsupported, ['extra']);
    const missing = await mel.post('/messages/flags/narrow', { anchor: 'oldest', num_after: 3, narrow, op: 'add', flag: 'read' });
    assert.equal(missing.status, 400);
  });

  it('mark_topic_as_read, mark_stream_as_read and mark_all_as_read (verifyAction); stored across a restart', async () => {
    await sendStream(sam, 'kitchen', 'Dinner', 'a');
    await sendStream(sam, 'kitchen', 'dinner', 'b');
    const other = await sendStream(sam, 'kitchen', 'breakfast', 'c');
    const dm = await sendDirect(sam, [melAcc.id], 'hey');
    const kitchen = ts.store.messages.get(other)!.stream_id!;

    const topic = await verifyAction(mel, () => mel.post('/mark_topic_as_read', { stream_id: kitchen, topic_name: 'DINNER' }), REGISTER);
    assert.equal((topic[0]!.messages as number[]).length, 2, 'topics match case-insensitively');
    assert.equal(flagsOf(other, melAcc.id)! & FLAG.read, 0);
    const noTopic = await mel.post('/mark_topic_as_read', { stream_id: kitchen, topic_name: 'nope' });
    assert.equal(noTopic.status, 400);
    assert.equal(noTopic.body.msg, "No such topic 'nope'");

    await verifyAction(mel, () => mel.post('/mark_stream_as_read', { stream_id: kitchen }), REGISTER);
    assert.ok(flagsOf(other, melAcc.id)! & FLAG.read);
    assert.equal(flagsOf(dm, melAcc.id)! & FLAG.read, 0);
    const vault = ts.store.channels.data.channels.find((c) => c.name === 'vault')!.id;
    for (const streamId of [vault, 424242]) {
      const res = await mel.post('/mark_stream_as_read', { stream_id: streamId });
      assert.equal(res.status, 400);
      assert.equal(res.body.msg, 'Invalid channel ID');
    }

    await sendStream(sam, 'kitchen', 'late', 'one more');
    let all: Awaited<ReturnType<Client['post']>> | undefined;
    const events = await verifyAction(mel, async () => {
      all = await mel.post('/mark_all_as_read');
    }, REGISTER);
    assert.deepEqual(all!.body, { result: 'success', msg: '', complete: true });
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true },
    ]);
    assert.equal(await unreadCount(mel), 0);

    await ts.app.store.settled();
    const copy = await Store.open(ts.dataDir, { lock: false });
    try {
      const m = copy.messages.get(dm)!;
      assert.ok(copy.messages.rowFlags(m, melAcc.id)! & FLAG.read, 'the read flag is on disk');
      assert.equal(copy.messages.unread(melAcc.id).length, 0);
    } finally {
      await copy.close?.();
    }
  });

  it('an update_message_flags event reaches only the user\'s own queues', async () => {
    const id = await sendStream(sam, 'kitchen', 'private-ish', 'x');
    const samReg = await sam.post('/register', { event_types: ['update_message_flags'] });
    await mel.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' });
    assert.deepEqual(await drain(sam, samReg.body.queue_id, samReg.body.last_event_id), []);
  });
});
