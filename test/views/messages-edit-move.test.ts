import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

const REGISTER = { fetch_event_types: ['update_message_flags', 'message', 'subscription', 'stream'] };

describe('PATCH /messages/{id}: moving between channels', () => {
  let ts: TestServer;
  let admin: Client;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let gus: Client;
  let porch: number;
  let garden: number;
  let vault: number;
  const id = (name: string) => ts.store.groups.data.groups.find((g) => g.name === name)!.id;
  before(async () => {
    ts = await startTestServer();
    admin = ts.client(await ts.addUser('Adam', 200));
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    const g = await ts.addUser('Gus', 600);
    gus = ts.client(g);
    porch = await createChannel(ts, sam, 'porch', { principals: [] });
    garden = await createChannel(ts, sam, 'garden', { principals: [] });
    vault = await createChannel(ts, admin, 'vault', { invite_only: true, principals: [] });
    for (const c of [mel, sam]) await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }] });
    // Guests cannot join channels themselves.
    assert.equal((await admin.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }], principals: JSON.stringify([g.id]) })).status, 200);
    await sam.post('/users/me/subscriptions', { subscriptions: [{ name: 'garden' }] });
    await admin.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }, { name: 'garden' }] });
    await admin.post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: JSON.stringify([samAcc.id]) });
  });
  after(() => ts.stop());

  it('a member moves a topic to another public channel; unread messages move with it (verifyAction)', async () => {
    const a = await sendStream(mel, 'porch', 'plants', 'tomatoes');
    const b = await sendStream(mel, 'porch', 'plants', 'basil');
    const events = await verifyAction(sam, async () => {
      const res = await mel.patch(`/messages/${a}`, { stream_id: garden, propagate_mode: 'change_all' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, REGISTER);
    const e = events.find((x) => x.type === 'update_message')!;
    assert.deepEqual(e.message_ids, [a, b]);
    assert.equal(e.stream_id, porch);
    assert.equal(e.new_stream_id, garden);
    assert.equal(e.propagate_mode, 'change_all');
    for (const m of [a, b]) assert.equal(ts.store.messages.get(m)!.stream_id, garden);
    const inGarden = await sam.get('/messages', {
      anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: garden }]),
    });
    // The moved messages, then the Notification Bot's notice (moves post one in the new place by default).
    assert.deepEqual(inGarden.body.messages.slice(0, 2).map((m: { id: number }) => m.id), [a, b]);
    assert.equal(inGarden.body.messages.length, 3);
    assert.equal(inGarden.body.messages[2].sender_email, 'notification-bot@zulip.com');
    assert.match(inGarden.body.messages[2].content, /This topic was moved here from/);
    const history = (await sam.get(`/messages/${a}/history`)).body.message_history;
    assert.equal(history.at(-1).prev_stream, porch);
  });

  it('moving into a private channel: readers who cannot follow get delete_message; its subscribers get read history', async () => {
    const msg = await sendStream(mel, 'porch', 'secret-ish', 'should be private');
    const gusReg = await gus.post('/register', { event_types: JSON.stringify(['delete_message', 'update_message']), client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });
    const events = await verifyAction(mel, async () => {
      const res = await admin.patch(`/messages/${msg}`, { stream_id: vault, topic: 'moved' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, REGISTER);
    assert.ok(events.some((x) => x.type === 'delete_message' && (x.message_id === msg || (x.message_ids as number[] | undefined)?.includes(msg))), JSON.stringify(events));
    assert.deepEqual((await drain(gus, gusReg.body.queue_id, gusReg.body.last_event_id)).map(({ id: _i, ...x }) => x), [
      { type: 'delete_message', message_ids: [msg], message_type: 'stream', stream_id: porch, topic: 'secret-ish' },
    ]);
    const m = ts.store.messages.get(msg)!;
    assert.equal(ts.store.messages.rowFlags(m, melAcc.id), null, 'the sender, not subscribed, loses it too');
    assert.notEqual(ts.store.messages.rowFlags(m, samAcc.id), null, 'a subscriber of the vault keeps it');
    assert.equal((await mel.get(`/messages/${msg}`)).body.msg, 'Invalid message(s)');
  });

  it('follows the move permissions and the destination\'s rules', async () => {
    const msg = await sendStream(gus, 'porch', 'guest', 'hello');
    const guest = await gus.patch(`/messages/${msg}`, { stream_id: garden });
    assert.equal(guest.body.msg, "You don't have permission to move this message");
    const both = await mel.patch(`/messages/${msg}`, { stream_id: garden, content: 'changed' });
    assert.equal(both.body.msg, 'Cannot change message content while changing channel');
    const nowhere = await mel.patch(`/messages/${msg}`, { stream_id: 424242 });
    assert.equal(nowhere.body.msg, 'Invalid channel ID');
    const notMine = await mel.patch(`/messages/${msg}`, { stream_id: vault });
    assert.equal(notMine.status, 400, 'a private channel the mover cannot post to');
    assert.equal((await admin.patch('/realm', { can_move_messages_between_channels_group: { new: id('role:administrators') } })).status, 200);
    assert.equal((await mel.patch(`/messages/${msg}`, { stream_id: garden })).body.msg, "You don't have permission to move this message");
    // The source channel's own setting grants it.
    assert.equal((await admin.patch(`/streams/${porch}`, { can_move_messages_out_of_channel_group: { new: id('role:members') } })).status, 200);
    assert.equal((await mel.patch(`/messages/${msg}`, { stream_id: garden })).status, 200);
    assert.equal(ts.store.messages.get(msg)!.stream_id, garden);
  });
});
