import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FLAG } from '../../server/store/message-records.js';
import { createChannel, stored } from '../helpers/channels.js';
import { groupId, castOf, type Cast } from '../helpers/people.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type TestServer, assertError } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

describe('POST /messages', () => {
  let ts: TestServer;
  let cast: Cast;
  let owner: Client;
  let member: Client;
  let guest: Client;
  let general: number;

  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    owner = ts.ownerClient;
    member = ts.client(cast.member);
    guest = ts.client(cast.guest);
    general = await createChannel(ts, owner, 'general', {
      principals: JSON.stringify([cast.owner.id, cast.member.id, cast.admin.id]),
    });
  });
  after(() => ts.stop());

  it('sends to a channel by name, by ID, as a JSON name and as a JSON list of one', async () => {
    const ids = [
      await sendStream(member, 'general', 'greetings', 'by name'),
      await sendStream(member, general, 'greetings', 'by id'),
      await sendStream(member, JSON.stringify('general'), 'greetings', 'json name'),
      await sendStream(member, JSON.stringify([general]), 'greetings', 'json list'),
    ];
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    for (const id of ids) {
      const m = ts.store.messages.get(id)!;
      assert.equal(m.stream_id, general);
      assert.equal(m.topic, 'greetings');
      assert.equal(m.sender_id, cast.member.id);
    }
    // type=channel is the modern name
    const res = await member.post('/messages', { type: 'channel', to: 'general', topic: 't', content: 'x' });
    assert.equal(res.status, 200);
  });

  it('refuses more than one channel, bad types and unknown channels', async () => {
    assertError(await member.post('/messages', { type: 'stream', to: '[1,2]', topic: 't', content: 'x' }), 'Expected exactly one channel');
    assertError(await member.post('/messages', { type: 'mail', to: 'general', topic: 't', content: 'x' }), 'Invalid type');
    assertError(
      await member.post('/messages', { type: 'stream', to: 'nowhere', topic: 't', content: 'x' }),
      "Channel 'nowhere' does not exist",
      'STREAM_DOES_NOT_EXIST',
    );
    const res = await member.post('/messages', { type: 'stream', to: '9999', topic: 't', content: 'x' });
    assertError(res, "Channel with ID '9999' does not exist", 'STREAM_DOES_NOT_EXIST');
    assert.equal(res.body.stream_id, 9999);
    const missing = await member.post('/messages', { type: 'stream', topic: 't', content: 'x' });
    assertError(missing, "Missing 'to' argument", 'REQUEST_VARIABLE_MISSING');
  });

  it('takes topic or the legacy subject, never both', async () => {
    const id = await member.post('/messages', { type: 'stream', to: 'general', subject: 'legacy', content: 'x' });
    assert.equal(ts.store.messages.get(id.body.id)!.topic, 'legacy');
    const both = await member.post('/messages', { type: 'stream', to: 'general', topic: 'a', subject: 'b', content: 'x' });
    assertError(both, "Can't decide between 'topic' and 'subject' arguments", 'REQUEST_CONFUSING_VAR');
    assertError(await member.post('/messages', { type: 'stream', to: 'general', content: 'x' }), 'Missing topic');
    const long = await sendStream(member, 'general', 'x'.repeat(80), 'long topic');
    assert.equal([...ts.store.messages.get(long)!.topic].length, 60);
  });

  it('refuses empty content and truncates content over 10,000 characters', async () => {
    assertError(await member.post('/messages', { type: 'stream', to: 'general', topic: 't', content: '  ' }), 'Message must not be empty');
    const id = await sendStream(member, 'general', 't', 'a'.repeat(12_000));
    const m = ts.store.messages.get(id)!;
    assert.equal(m.content.length, 10_000);
    assert.ok(m.content.endsWith('\n[message truncated]'));
    const exact = await sendStream(member, 'general', 't', 'b'.repeat(10_000));
    assert.equal(ts.store.messages.get(exact)!.content, 'b'.repeat(10_000));
  });

  it('sends direct messages by user IDs and by emails; unknown recipients are refused', async () => {
    const a = await sendDirect(member, [cast.admin.id], 'hi');
    assert.deepEqual(ts.store.messages.get(a)!.dm, [cast.admin.id, cast.member.id].sort((x, y) => x - y));
    const b = await member.post('/messages', { type: 'private', to: cast.admin.email, content: 'by email' });
    assert.equal(b.status, 200);
    const c = await member.post('/messages', { type: 'direct', to: JSON.stringify([cast.admin.email, cast.owner.email]), content: 'group' });
    assert.equal(ts.store.messages.get(c.body.id)!.dm!.length, 3);
    assertError(await member.post('/messages', { type: 'direct', to: '[99999]', content: 'x' }), 'Invalid user ID 99999');
    assertError(await member.post('/messages', { type: 'direct', to: 'nobody@example.com', content: 'x' }), "Invalid email 'nobody@example.com'");
    assertError(
      await member.post('/messages', { type: 'direct', to: JSON.stringify([cast.admin.id, cast.owner.email]), content: 'x' }),
      'Recipient lists may contain emails or user IDs, but not both.',
    );
    const self = await sendDirect(member, [cast.member.id], 'note to self');
    assert.deepEqual(ts.store.messages.get(self)!.dm, [cast.member.id]);
  });

  it('gives every recipient a row; read_by_sender marks the sender read', async () => {
    const id = await sendStream(member, 'general', 'rows', 'hello');
    const m = ts.store.messages.get(id)!;
    assert.deepEqual(ts.store.messages.rowUserIds(m), [cast.owner.id, cast.admin.id, cast.member.id].sort((a, b) => a - b));
    assert.equal(ts.store.messages.rowFlags(m, cast.member.id)! & FLAG.read, FLAG.read);
    assert.equal(ts.store.messages.rowFlags(m, cast.owner.id)! & FLAG.read, 0);
    assert.equal(ts.store.messages.rowFlags(m, cast.guest.id), null);
    const unread = await sendStream(member, 'general', 'rows', 'hello', { read_by_sender: false });
    assert.equal(ts.store.messages.rowFlags(ts.store.messages.get(unread)!, cast.member.id)! & FLAG.read, 0);
  });

  it('echoes local_id to the sending queue only', async () => {
    const regA = await member.post('/register', { event_types: ['message'] });
    const regB = await member.post('/register', { event_types: ['message'] });
    await sendStream(member, 'general', 'echo', 'x', { queue_id: regA.body.queue_id, local_id: '100.01' });
    const a = await drain(member, regA.body.queue_id, -1);
    const b = await drain(member, regB.body.queue_id, -1);
    assert.equal(a[0]!.local_message_id, '100.01');
    assert.equal(b[0]!.local_message_id, undefined);
    assert.equal((a[0]!.message as Record<string, unknown>).content, 'x');
  });

  it('applies can_send_message_group and can_create_topic_group', async () => {
    const c = stored(ts, general);
    const before = c.settings.can_send_message_group!;
    c.settings.can_send_message_group = groupId(ts, 'role:administrators');
    assertError(
      await member.post('/messages', { type: 'stream', to: 'general', topic: 'x', content: 'x' }),
      'You do not have permission to post in this channel.',
    );
    assert.equal((await ts.client(cast.admin).post('/messages', { type: 'stream', to: 'general', topic: 'x', content: 'x' })).status, 200);
    c.settings.can_send_message_group = before;
    const create = c.settings.can_create_topic_group!;
    c.settings.can_create_topic_group = groupId(ts, 'role:administrators');
    assertError(
      await member.post('/messages', { type: 'stream', to: 'general', topic: 'brand new', content: 'x' }),
      'You do not have permission to create new topics in this channel.',
    );
    // An existing topic (any case) is fine.
    assert.equal((await member.post('/messages', { type: 'stream', to: 'general', topic: 'X', content: 'x' })).status, 200);
    c.settings.can_create_topic_group = create;
  });

  it('applies the topics policy with the organization default and the empty topic', async () => {
    const c = stored(ts, general);
    const realm = ts.store.realm.data.realm!.settings;
    const empty = () => member.post('/messages', { type: 'stream', to: 'general', topic: '', content: 'x' });
    const res = await empty();
    assert.equal(res.status, 200);
    assert.equal(ts.store.messages.get(res.body.id)!.topic, '');
    const legacy = await member.post('/messages', { type: 'stream', to: 'general', topic: '(no topic)', content: 'x' });
    assert.equal(ts.store.messages.get(legacy.body.id)!.topic, '');
    realm.topics_policy = 'disable_empty_topic';
    assertError(await empty(), 'Sending messages to the general chat is not allowed in this channel.');
    c.topics_policy = 'allow_empty_topic';
    assert.equal((await empty()).status, 200);
    c.topics_policy = 'empty_topic_only';
    assertError(
      await member.post('/messages', { type: 'stream', to: 'general', topic: 'named', content: 'x' }),
      'Only the general chat topic is allowed in this channel.',
      'TOPICS_NOT_ALLOWED',
    );
    c.topics_policy = 'inherit';
    delete realm.topics_policy;
  });

  it('refuses archived channels, private channels of others and guests outside their channels', async () => {
    await createChannel(ts, owner, 'secret', { invite_only: true });
    assertError(
      await member.post('/messages', { type: 'stream', to: 'secret', topic: 't', content: 'x' }),
      "Not authorized to send to channel 'secret'",
    );
    assertError(
      await guest.post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'x' }),
      "Not authorized to send to channel 'general'",
    );
    const old = await createChannel(ts, owner, 'old');
    assert.equal((await owner.delete(`/streams/${old}`)).status, 200);
    assertError(await owner.post('/messages', { type: 'stream', to: 'old', topic: 't', content: 'x' }), "Not authorized to send to channel 'old'");
    // A guest subscribed to a channel may post there.
    const guests = await createChannel(ts, owner, 'guests', { principals: JSON.stringify([cast.owner.id, cast.guest.id]) });
    assert.equal((await guest.post('/messages', { type: 'stream', to: guests, topic: 't', content: 'x' })).status, 200);
  });

  it('sends the message event to recipients only, with flags, and verifyAction holds', async () => {
    const events = await verifyAction(ts.client(cast.owner), () => sendStream(member, 'general', 'verify', 'hello all'));
    const e = events.find((x) => x.type === 'message')!;
    const msg = e.message as Record<string, unknown>;
    assert.equal(msg.subject, 'verify');
    assert.equal(msg.display_recipient, 'general');
    assert.equal(msg.type, 'stream');
    assert.deepEqual(e.flags, []);
    const dm = await verifyAction(ts.client(cast.admin), () => sendDirect(member, [cast.admin.id, cast.owner.id], 'group dm'));
    assert.equal(dm.length, 1);
    await verifyAction(member, () => sendDirect(member, [cast.admin.id], 'from me'));
    await verifyAction(ts.client(cast.guest), () => sendStream(member, 'general', 'verify', 'guest sees nothing'));
  });

  it('keeps messages on disk in segment files, with rows and no reused IDs', async () => {
    const id = await sendStream(member, 'general', 'disk', 'persisted');
    await ts.store.settled();
    const dir = join(ts.dataDir, 'messages');
    const files = (await readdir(dir)).filter((f) => /^seg-\d+\.json$/.test(f));
    assert.ok(files.length >= 1);
    const items = JSON.parse(await readFile(join(dir, files[files.length - 1]!), 'utf8')) as Record<string, unknown>[];
    const rec = items.find((x) => x.id === id)!;
    assert.equal(rec.content, 'persisted');
    assert.equal(rec.topic, 'disk');
    // One number per row: user ID * 1024 + flags.
    assert.ok(Array.isArray(rec.um) && (rec.um as number[]).map((r) => Math.floor(r / 1024)).includes(cast.member.id), JSON.stringify(rec.um));
    // Removing the newest message never lets its ID be assigned again, even after a reopen.
    ts.store.messages.remove(id);
    await ts.store.messages.save(id);
    const { MessageStore } = await import('../../server/store/messages.js');
    const reopened = await MessageStore.open(dir);
    assert.equal(reopened.maxId, id);
    assert.equal(reopened.get(id), undefined);
  });
});
