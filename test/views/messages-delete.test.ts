import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Store } from '../../server/store/store.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { castOf, type Cast, type Caller, groupId } from '../helpers/people.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { restart, uploadOne } from '../helpers/uploads.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

/** Register sections a client can keep current from deletion events (see applyDeleteEvent). */
const REGISTER = { fetch_event_types: ['update_message_flags', 'message', 'starred_messages', 'subscription', 'stream'] };

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

describe('DELETE /messages/{id}: who may delete what, and until when', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 6, 1);
  let cast: Cast;
  let hall: number;
  let side: number;
  const c = (who: Caller) => cast.client(who);
  const send = (who: Caller, channel = 'hall') => sendStream(c(who), channel, 'matrix', `from ${who}`);
  const del = (who: Caller, id: number) => c(who).delete(`/messages/${id}`);
  async function refused(who: Caller, id: number, msg = "You don't have permission to delete this message") {
    const res = await del(who, id);
    assert.equal(res.status, 400, `${who}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.msg, msg, who);
    assert.ok(ts.store.messages.get(id), `${who}: the message stays`);
  }
  async function allowed(who: Caller, id: number) {
    const res = await del(who, id);
    assert.equal(res.status, 200, `${who}: ${JSON.stringify(res.body)}`);
    assert.equal(ts.store.messages.get(id), undefined, `${who}: the message is gone`);
  }
  const realm = async (params: Record<string, unknown>) => {
    const res = await ts.ownerClient.patch('/realm', params as never);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const channel = async (id: number, params: Record<string, unknown>) => {
    const res = await ts.ownerClient.patch(`/streams/${id}`, params as never);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    cast = await castOf(ts);
    const everyone = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const;
    const principals = JSON.stringify(everyone.map((w) => cast[w].id));
    hall = await createChannel(ts, ts.ownerClient, 'hall', { principals });
    side = await createChannel(ts, ts.ownerClient, 'side', { principals });
  });
  after(() => ts.stop());

  it('by default: everyone their own messages (bots\' owners theirs too), administrators and owners anyone\'s', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) await allowed(who, await send(who));
    const mod = await send('moderator');
    for (const who of ['member', 'guest', 'bot'] as const) await refused(who, mod);
    const admins = await send('admin');
    await refused('moderator', admins);
    await allowed('owner', admins);
    await allowed('admin', mod);
    // The member owns the bot: its messages count as the member's own; not the other way round.
    await allowed('member', await send('bot'));
    await refused('bot', await send('member'));
    // A bot's direct message: its owner deletes it only as a participant (no row, no access).
    const unseen = await sendDirect(c('bot'), [cast.moderator.id], 'beep');
    await refused('member', unseen, 'Invalid message(s)');
    await refused('moderator', unseen);
    const seen = await sendDirect(c('bot'), [cast.moderator.id, cast.member.id], 'beep beep');
    await refused('moderator', seen);
    await allowed('member', seen);
  });

  it('deactivated users and anonymous callers are refused', async () => {
    const id = await send('member');
    const gone = await del('deactivated', id);
    assert.equal(gone.status, 401, JSON.stringify(gone.body));
    const anon = await del('anonymous', id);
    assert.equal(anon.status, 401, JSON.stringify(anon.body));
    assert.ok(ts.store.messages.get(id));
  });

  it('message_content_delete_limit_seconds (default 600) binds own-message deletion only', async () => {
    const a = await send('member');
    const b = await send('member');
    const owners = await send('owner');
    now += 600_000;
    await allowed('member', a); // exactly at the limit
    now += 1_000;
    await refused('member', b, 'The time limit for deleting this message has passed');
    await allowed('admin', b); // can_delete_any_message_group has no time limit
    await allowed('owner', owners);
    await realm({ message_content_delete_limit_seconds: 60 });
    const d = await send('member');
    now += 61_000;
    await refused('member', d, 'The time limit for deleting this message has passed');
    await realm({ message_content_delete_limit_seconds: 'unlimited' });
    await allowed('member', d);
    await realm({ message_content_delete_limit_seconds: 600 });
  });

  it('the organization\'s can_delete_any_message_group and can_delete_own_message_group', async () => {
    await realm({ can_delete_any_message_group: { new: groupId(ts, 'role:moderators') } });
    await allowed('moderator', await send('member'));
    await allowed('moderator', await sendDirect(c('member'), [cast.moderator.id], 'hi'));
    await refused('member', await send('guest'));
    await realm({ can_delete_any_message_group: { new: groupId(ts, 'role:administrators') } });
    await refused('moderator', await send('member'));

    await realm({ can_delete_own_message_group: { new: groupId(ts, 'role:moderators') } });
    await refused('member', await send('member'));
    await refused('guest', await send('guest'));
    await allowed('moderator', await send('moderator'));
    await realm({ can_delete_own_message_group: { new: groupId(ts, 'role:everyone') } });
  });

  it('a channel\'s own settings grant deletion in that channel only (own messages still time-limited)', async () => {
    await realm({ can_delete_own_message_group: { new: groupId(ts, 'role:nobody') } });
    await channel(hall, { can_delete_own_message_group: { new: groupId(ts, 'role:members') } });
    await allowed('member', await send('member'));
    await refused('member', await send('member', 'side'));
    await refused('guest', await send('guest')); // guests are not in role:members
    await refused('member', await sendDirect(c('member'), [cast.admin.id], 'dm'));
    const old = await send('member');
    now += 601_000;
    await refused('member', old, 'The time limit for deleting this message has passed');
    await channel(hall, { can_delete_own_message_group: { new: groupId(ts, 'role:nobody') } });
    await realm({ can_delete_own_message_group: { new: groupId(ts, 'role:everyone') } });

    await channel(side, { can_delete_any_message_group: { new: groupId(ts, 'role:members') } });
    const mods = await send('moderator', 'side');
    now += 10_000_000;
    await allowed('member', mods); // any-message permission: no time limit
    await refused('member', await send('moderator'));
    await refused('guest', await send('moderator', 'side'));
    await channel(side, { can_delete_any_message_group: { new: groupId(ts, 'role:nobody') } });
    await refused('member', await send('moderator', 'side'));
  });

  it('messages of an archived channel cannot be deleted; a deleted message is gone for a second try', async () => {
    const arch = await createChannel(ts, ts.ownerClient, 'attic-archive', { principals: JSON.stringify([cast.member.id]) });
    const id = await send('member', 'attic-archive');
    assert.equal((await ts.ownerClient.delete(`/streams/${arch}`)).status, 200);
    await refused('member', id, 'Invalid message(s)');
    await refused('owner', id, 'Invalid message(s)');
    const once = await send('member');
    await allowed('member', once);
    const twice = await del('member', once);
    assert.deepEqual([twice.status, twice.body.msg], [400, 'Invalid message(s)']);
  });
});

describe('DELETE /messages/{id}: who hears of it', () => {
  let ts: TestServer;
  let cast: Cast;
  const BULK = { client_capabilities: JSON.stringify({ bulk_message_deletion: true, empty_topic_name: true }) };
  const acc = (who: Caller) => cast[who as Exclude<Caller, 'anonymous'>];
  /** Opens a bulk-capable queue for each caller; returns a reader of each one's delete_message events. */
  async function listen(who: Caller[], params: Record<string, string> = BULK) {
    const regs = new Map<Caller, { queue_id: string; last_event_id: number }>();
    for (const w of who) {
      const res = await cast.client(w).post('/register', { event_types: JSON.stringify(['delete_message']), ...params });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      regs.set(w, res.body);
    }
    return async (w: Caller) => {
      const r = regs.get(w)!;
      return (await drain(cast.client(w), r.queue_id, r.last_event_id)).map(({ id: _i, ...e }) => e);
    };
  }
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
  });
  after(() => ts.stop());

  it('a public channel: subscribers, readers with a row who left, and the deleting administrator; not others', async () => {
    const id = await createChannel(ts, cast.client('member'), 'plaza', {
      principals: JSON.stringify([acc('member').id, acc('moderator').id, acc('guest').id]),
    });
    const msg = await sendStream(cast.client('member'), 'plaza', 'Mixed Case', 'hello');
    // The guest leaves: their row stays and they can still read the message.
    assert.equal((await cast.client('guest').delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['plaza']) })).status, 200);
    const read = await listen(['member', 'moderator', 'guest', 'admin', 'owner', 'bot']);
    assert.equal((await cast.client('admin').delete(`/messages/${msg}`)).status, 200);
    // Zulip groups by case-insensitive topic and sends the lower-cased topic.
    const want = [{ type: 'delete_message', message_ids: [msg], message_type: 'stream', stream_id: id, topic: 'mixed case' }];
    for (const w of ['member', 'moderator', 'guest', 'admin'] as const) assert.deepEqual(await read(w), want, w);
    for (const w of ['owner', 'bot'] as const) assert.deepEqual(await read(w), [], w);
  });

  it('private channels: shared history reaches every subscriber, protected history only those who received it', async () => {
    const shared = await createChannel(ts, cast.client('member'), 'den', { invite_only: true, history_public_to_subscribers: true });
    const guarded = await createChannel(ts, cast.client('member'), 'vault', { invite_only: true, history_public_to_subscribers: false });
    const a = await sendStream(cast.client('member'), 'den', 't', 'old news');
    const b = await sendStream(cast.client('member'), 'vault', 't', 'old secret');
    for (const name of ['den', 'vault']) {
      const res = await cast.client('member').post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name }]),
        principals: JSON.stringify([acc('moderator').id]),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const read = await listen(['member', 'moderator', 'owner']);
    assert.equal((await cast.client('member').delete(`/messages/${a}`)).status, 200);
    assert.equal((await cast.client('member').delete(`/messages/${b}`)).status, 200);
    assert.deepEqual((await read('moderator')).map((e) => [e.stream_id, e.message_ids]), [[shared, [a]]]);
    assert.deepEqual((await read('member')).map((e) => [e.stream_id, e.message_ids]), [[shared, [a]], [guarded, [b]]]);
    assert.deepEqual(await read('owner'), []);
  });

  it('direct messages: only the participants; each form goes to the queues that asked for it', async () => {
    const dm = await sendDirect(cast.client('member'), [acc('moderator').id], 'psst');
    const bulk = await listen(['member', 'admin']);
    const legacy = await listen(['moderator'], {});
    assert.equal((await cast.client('member').delete(`/messages/${dm}`)).status, 200);
    assert.deepEqual(await bulk('member'), [{ type: 'delete_message', message_ids: [dm], message_type: 'private' }]);
    assert.deepEqual(await legacy('moderator'), [{ type: 'delete_message', message_id: dm, message_type: 'private' }]);
    assert.deepEqual(await bulk('admin'), []);
  });

  it('the empty topic reads as realm_empty_topic_display_name without the empty_topic_name capability', async () => {
    await createChannel(ts, cast.client('member'), 'void');
    const msg = await sendStream(cast.client('member'), 'void', '', 'no topic');
    const modern = await listen(['member']);
    const old = await listen(['member'], { client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });
    assert.equal((await cast.client('member').delete(`/messages/${msg}`)).status, 200);
    assert.equal((await modern('member'))[0]!.topic, '');
    assert.equal((await old('member'))[0]!.topic, 'general chat');
  });
});

describe('DELETE /messages/{id}: what stays right afterwards', () => {
  let ts: TestServer;
  let mel: Account;
  let sam: Account;
  let shelf: number;
  const REG = { fetch_event_types: JSON.stringify(['update_message_flags', 'message', 'starred_messages', 'subscription', 'stream']) };
  const topics = async (as: Account) => {
    const res = await ts.client(as).get(`/users/me/${shelf}/topics`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.topics as { name: string; max_id: number }[]).map((t) => [t.name, t.max_id]);
  };
  before(async () => {
    ts = await startTestServer();
    mel = await ts.addUser('Mel');
    sam = await ts.addUser('Sam');
    shelf = await createChannel(ts, ts.client(sam), 'shelf', { principals: JSON.stringify([mel.id, sam.id]) });
  });
  after(() => ts.stop());

  it('unread counts, unread mentions and starred messages lose the message (verifyAction)', async () => {
    const mention = await sendStream(ts.client(sam), 'shelf', 'books', '@**Mel** look');
    const starred = await sendStream(ts.client(sam), 'shelf', 'books', 'keep this');
    assert.equal((await ts.client(mel).post('/messages/flags', { messages: JSON.stringify([starred]), op: 'add', flag: 'starred' })).status, 200);
    const before = (await ts.client(mel).post('/register', REG)).body;
    assert.ok(before.unread_msgs.mentions.includes(mention));
    assert.ok(before.starred_messages.includes(starred));
    for (const id of [mention, starred]) {
      await verifyAction(ts.client(mel), async () => assert.equal((await ts.client(sam).delete(`/messages/${id}`)).status, 200), REG);
    }
    const after = (await ts.client(mel).post('/register', REG)).body;
    assert.equal(after.unread_msgs.count, before.unread_msgs.count - 2);
    assert.equal(after.unread_msgs.mentions.includes(mention), false);
    assert.equal(after.starred_messages.includes(starred), false);
  });

  it('the topics list and first_message_id follow, also after a restart', async () => {
    const first = await sendStream(ts.client(sam), 'shelf', 'alpha', 'a1');
    const a2 = await sendStream(ts.client(sam), 'shelf', 'alpha', 'a2');
    const lone = await sendStream(ts.client(sam), 'shelf', 'beta', 'b1');
    const start = ts.store.channels.data.channels.find((c) => c.id === shelf)!.first_message_id!;
    assert.ok(start <= first);
    assert.deepEqual(await topics(mel), [['beta', lone], ['alpha', a2]]);
    assert.equal((await ts.client(sam).delete(`/messages/${lone}`)).status, 200);
    assert.equal((await ts.client(sam).delete(`/messages/${a2}`)).status, 200);
    assert.deepEqual(await topics(mel), [['alpha', first]]);
    // Deleting everything before `first` moves first_message_id to it.
    for (const id of ts.store.messages.channel(shelf).toArray().filter((x) => x < first)) {
      assert.equal((await ts.ownerClient.delete(`/messages/${id}`)).status, 200);
    }
    const sub = async (t: TestServer) =>
      ((await t.client(mel).get('/users/me/subscriptions')).body.subscriptions as { stream_id: number; first_message_id: number }[]).find(
        (s) => s.stream_id === shelf,
      )!;
    assert.equal((await sub(ts)).first_message_id, first);
    await ts.app.store.settled();
    ts = await restart(ts);
    assert.equal((await sub(ts)).first_message_id, first);
    assert.deepEqual(await topics(mel), [['alpha', first]]);
    for (const id of [lone, a2]) assert.equal((await ts.client(mel).get(`/messages/${id}`)).body.msg, 'Invalid message(s)');
  });
});
