import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Store } from '../server/store/store.js';
import { createChannel } from './helpers/channels.js';
import { sendDirect, sendStream } from './helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from './helpers/server.js';
import { uploadOne } from './helpers/uploads.js';
import { drain, verifyAction } from './helpers/verify-action.js';

/** Register sections a client can keep current from deletion events (see applyDeleteEvent). */
const REGISTER = { fetch_event_types: ['update_message_flags', 'starred_messages', 'subscription', 'stream'] };

describe('DELETE /messages/{id}', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 5, 1);
  let admin: Client;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let porch: number;
  const id = (name: string) => ts.store.groups.data.groups.find((g) => g.name === name)!.id;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    admin = ts.client(await ts.addUser('Adam', 200));
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    porch = await createChannel(ts, sam, 'porch', { principals: [] });
    for (const c of [mel, sam, admin]) await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }] });
  });
  after(() => ts.stop());

  it('the sender deletes their message: gone from the store and disk, both event forms (verifyAction)', async () => {
    const msg = await sendStream(mel, 'porch', 'oops', 'wrong channel');
    const legacy = await sam.post('/register', { event_types: ['delete_message'] });
    const events = await verifyAction(sam, async () => {
      const res = await mel.delete(`/messages/${msg}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, { ...REGISTER, client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });
    assert.deepEqual(events.filter((e) => e.type === 'delete_message').map(({ id: _i, ...e }) => e), [
      { type: 'delete_message', message_ids: [msg], message_type: 'stream', stream_id: porch, topic: 'oops' },
    ]);
    assert.deepEqual((await drain(sam, legacy.body.queue_id, legacy.body.last_event_id)).map(({ id: _i, ...e }) => e), [
      { type: 'delete_message', message_id: msg, message_type: 'stream', stream_id: porch, topic: 'oops' },
    ]);
    assert.equal(ts.store.messages.get(msg), undefined);
    const gone = await mel.get(`/messages/${msg}`);
    assert.equal(gone.body.msg, 'Invalid message(s)');
    await ts.app.store.settled();
    const copy = await Store.open(ts.dataDir, { lock: false });
    try {
      assert.equal(copy.messages.get(msg), undefined, 'deleted on disk');
    } finally {
      await copy.close();
    }
  });

  it('an unread direct message leaves the unread counts (verifyAction without the bulk capability)', async () => {
    const dm = await sendDirect(sam, [melAcc.id], 'typo');
    const before = (await mel.post('/register', REGISTER)).body.unread_msgs.count;
    const events = await verifyAction(mel, () => sam.delete(`/messages/${dm}`), REGISTER);
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [{ type: 'delete_message', message_id: dm, message_type: 'private' }]);
    assert.equal((await mel.post('/register', REGISTER)).body.unread_msgs.count, before - 1);
  });

  it('others\' messages: members may not, administrators may', async () => {
    const msg = await sendStream(sam, 'porch', 'keep', 'mine');
    const res = await mel.delete(`/messages/${msg}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, "You don't have permission to delete this message");
    assert.ok(ts.store.messages.get(msg));
    assert.equal((await admin.delete(`/messages/${msg}`)).status, 200);
    assert.equal(ts.store.messages.get(msg), undefined);
  });

  it('the organization\'s time limit, own-message group and the channel\'s own settings', async () => {
    const old = await sendStream(mel, 'porch', 'old', 'from long ago');
    now += 601_000;
    const late = await mel.delete(`/messages/${old}`);
    assert.equal(late.status, 400);
    assert.equal(late.body.msg, 'The time limit for deleting this message has passed');
    assert.equal((await admin.patch('/realm', { message_content_delete_limit_seconds: 'unlimited' })).status, 200);
    assert.equal((await mel.delete(`/messages/${old}`)).status, 200);

    assert.equal((await admin.patch('/realm', { can_delete_own_message_group: { new: id('role:administrators') } })).status, 200);
    const mine = await sendStream(mel, 'porch', 'x', 'y');
    assert.equal((await mel.delete(`/messages/${mine}`)).status, 400);
    // The channel grants it for its own messages.
    const ch = await admin.patch(`/streams/${porch}`, { can_delete_own_message_group: { new: id('role:members') } });
    assert.equal(ch.status, 200, JSON.stringify(ch.body));
    assert.equal((await mel.delete(`/messages/${mine}`)).status, 200);
  });

  it('a file linked only by the deleted message is deleted with it', async () => {
    const url = await uploadOne(mel, 'note.txt', 'hello file');
    const msg = await sendStream(mel, 'porch', 'files', `see [note](${url})`);
    const attachment = ts.store.attachments.linkedTo(msg)[0];
    assert.ok(attachment, 'the upload is claimed by the message');
    const file = join(ts.dataDir, 'uploads', 'files', attachment.storage);
    assert.ok(existsSync(file));
    assert.equal((await mel.delete(`/messages/${msg}`)).status, 200);
    assert.equal(ts.store.attachments.ownedBy(melAcc.id).some((a) => a.id === attachment.id), false);
    await ts.app.store.settled();
    for (let i = 0; i < 50 && existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(existsSync(file), false);
  });

  it('deleting a channel\'s first message moves first_message_id (stream update)', async () => {
    const fresh = await createChannel(ts, sam, 'fresh', { principals: [] });
    await mel.post('/users/me/subscriptions', { subscriptions: [{ name: 'fresh' }] });
    const first = await sendStream(mel, 'fresh', 't', 'one');
    const second = await sendStream(mel, 'fresh', 't', 'two');
    const events = await verifyAction(mel, async () => {
      const res = await admin.delete(`/messages/${first}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, REGISTER);
    assert.ok(events.some((e) => e.type === 'stream' && e.stream_id === fresh && e.property === 'first_message_id' && e.value === second), JSON.stringify(events));
  });

  it('answers unknown and unreadable messages like Zulip', async () => {
    const res = await mel.delete('/messages/987654');
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Invalid message(s)');
  });
});
