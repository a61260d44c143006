/**
 * The real zulip-js client (node_modules/zulip-js) against Hearth, through its own API functions:
 * password login, server settings, register, callOnEachEvent, send, fetch with narrows, flags,
 * reactions, typing, edit, delete and deregister. zulip-js encodes POST parameters as multipart
 * form data (arrays as JSON) and GET/PATCH/DELETE parameters in the query string (values through
 * String()), so these tests also check that Hearth reads parameters where this client puts them.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { EventQueue } from '../../server/events/queue.js';
import { FLAG } from '../../server/store/message-records.js';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { startTestServer, type Account, type TestServer } from '../helpers/server.js';

const require = createRequire(import.meta.url);
// zulip-js has no type declarations; its answers are the server's JSON bodies.
// biome-ignore lint/suspicious/noExplicitAny: zulip-js ships no type declarations
type ZulipClient = any;
// biome-ignore lint/suspicious/noExplicitAny: the server's JSON bodies as zulip-js hands them back
type Json = any;
const zulip = require('zulip-js') as (config: Record<string, string>) => Promise<ZulipClient>;

/** A queue registered through `queues.register`, read without blocking through `events.retrieve`. */
interface Queue {
  client: ZulipClient;
  queue_id: string;
  last_event_id: number;
}

async function register(client: ZulipClient, eventTypes: string[]): Promise<Queue> {
  const reg = await client.queues.register({ event_types: eventTypes });
  assert.equal(reg.result, 'success', JSON.stringify(reg));
  assert.equal(typeof reg.queue_id, 'string');
  assert.equal(reg.last_event_id, -1);
  return { client, queue_id: reg.queue_id, last_event_id: reg.last_event_id };
}

/** The events that arrived since the last call (heartbeats left out), acknowledging them. */
async function drain(q: Queue): Promise<Json[]> {
  const res = await q.client.events.retrieve({ queue_id: q.queue_id, last_event_id: q.last_event_id, dont_block: true });
  assert.equal(res.result, 'success', JSON.stringify(res));
  for (const e of res.events) q.last_event_id = Math.max(q.last_event_id, e.id);
  return res.events.filter((e: Json) => e.type !== 'heartbeat');
}


/**
 * zulip-js's callOnEachEvent is an endless `while (true)` loop (register, long-poll, sleep 1 s,
 * long-poll again, retrying forever on errors) with no way to stop it. It runs here in a worker
 * thread, which is terminated at the end: that stops the loop and drops its pending long-poll.
 */
const CALL_ON_EACH_EVENT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const zulip = require(workerData.zulipJs);
zulip(workerData.config).then((client) => client.callOnEachEvent((event) => parentPort.postMessage(event)));
`;

describe('zulip-js', () => {
  let ts: TestServer;
  let bob: Account;
  let olive: ZulipClient; // the organization owner, Olive
  let bobZ: ZulipClient;
  let oliveQueue: Queue;
  let bobQueue: Queue;
  let channelId: number;
  let channelMsg: number;
  let directMsg: number;

  const stored = (id: number) => ts.store.messages.get(id);
  const oliveAndBob = () => [ts.owner.id, bob.id].sort((a, b) => a - b);
  const userIds = (people: Json[]) => people.map((p) => p.id ?? p.user_id).sort((a: number, b: number) => a - b);
  const flagsOf = (id: number, userId: number) => ts.store.messages.rowFlags(stored(id)!, userId)!;
  /** The server's live queues of a user (EventQueues keeps them private; read-only here). */
  const queuesOf = (userId: number): EventQueue[] =>
    // biome-ignore lint/complexity/useLiteralKeys: EventQueues keeps queues private; the bracket reads it from a test
    [...(ts.app.events['queues'] as Map<string, EventQueue>).values()].filter((q) => q.userId === userId);

  before(async () => {
    ts = await startTestServer();
    bob = await ts.addUser('Bob');
    channelId = await createChannel(ts, ts.ownerClient, 'Denmark', { principals: [ts.owner.id, bob.id] });
  });
  after(() => ts.stop());

  it('logs in with a password, reads the server settings and registers queues', async () => {
    olive = await zulip({ username: ts.owner.email, password: ts.owner.password, realm: ts.url });
    assert.equal(olive.config.apiKey, ts.owner.apiKey);
    bobZ = await zulip({ username: bob.email, password: bob.password, realm: ts.url });
    assert.equal(bobZ.config.apiKey, bob.apiKey);
    // A wrong password: zulip-js does not throw, it keeps no key (the error must be JSON, or res.json() would reject).
    const wrong = await zulip({ username: bob.email, password: 'not the password', realm: ts.url });
    assert.equal(wrong.config.apiKey, undefined);
    const direct = await wrong.accounts.retrieve();
    assert.equal(direct.result, 'error', JSON.stringify(direct));

    const settings = await olive.server.settings();
    assert.equal(settings.result, 'success', JSON.stringify(settings));
    assert.equal(settings.authentication_methods.password, true);
    assert.equal(typeof settings.zulip_version, 'string');
    assert.equal(typeof settings.zulip_feature_level, 'number');
    assert.equal(settings.realm_name, 'Test Org');
    assert.equal(settings.realm_url, ts.url);

    const types = ['message', 'update_message_flags', 'reaction', 'typing', 'update_message', 'delete_message'];
    oliveQueue = await register(olive, types);
    bobQueue = await register(bobZ, types);
    assert.equal(ts.app.events.get(oliveQueue.queue_id)?.userId, ts.owner.id);
    assert.equal(ts.app.events.get(bobQueue.queue_id)?.userId, bob.id);
    assert.deepEqual([...ts.app.events.get(bobQueue.queue_id)!.opts.eventTypes!].sort(), [...types].sort());
  });

  it('sends channel and direct messages and fetches them with narrows', async () => {
    const sent = await olive.messages.send({ type: 'stream', to: 'Denmark', topic: 'Castle', content: 'Hello **Bob**' });
    assert.equal(sent.result, 'success', JSON.stringify(sent));
    channelMsg = sent.id;
    // zulip-js JSON-encodes arrays in POST bodies: `to` arrives as "[id]".
    const dm = await olive.messages.send({ type: 'direct', to: [bob.id], content: 'Just between us' });
    assert.equal(dm.result, 'success', JSON.stringify(dm));
    directMsg = dm.id;
    assert.deepEqual(
      [stored(channelMsg)!.stream_id, stored(channelMsg)!.topic, stored(channelMsg)!.content],
      [channelId, 'Castle', 'Hello **Bob**'],
    );
    assert.deepEqual(stored(directMsg)!.dm, oliveAndBob());

    const inTopic = await bobZ.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'Denmark' },
        { operator: 'topic', operand: 'Castle' },
      ],
    });
    assert.equal(inTopic.result, 'success', JSON.stringify(inTopic));
    assert.deepEqual(
      inTopic.messages.map((m: Json) => [m.id, m.content, m.flags]),
      [[channelMsg, '<p>Hello <strong>Bob</strong></p>', []]],
    );
    const dms = await bobZ.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: [ts.owner.id] }],
    });
    assert.equal(dms.result, 'success', JSON.stringify(dms));
    // A direct message has no topic: its subject is "" (not the empty topic's display name).
    assert.deepEqual(
      dms.messages.map((m: Json) => [m.id, m.type, m.subject, m.content]),
      [[directMsg, 'private', '', '<p>Just between us</p>']],
    );
    // getById puts message_id in the query string too (an unused parameter).
    const one = await bobZ.messages.getById({ message_id: directMsg });
    assert.equal(one.result, 'success', JSON.stringify(one));
    assert.equal(one.message.id, directMsg);
    assert.equal(one.raw_content, 'Just between us');
    assert.equal(one.message.subject, '');

    // Both reached Bob's queue (registered without apply_markdown: the content is Markdown).
    const events = await drain(bobQueue);
    assert.deepEqual(
      events.map((e) => [e.type, e.message.id, e.message.sender_id, e.message.subject, e.message.content, e.flags]),
      [
        ['message', channelMsg, ts.owner.id, 'Castle', 'Hello **Bob**', []],
        ['message', directMsg, ts.owner.id, '', 'Just between us', []],
      ],
    );
  });

  it('callOnEachEvent receives a channel message and a direct message from another user', async () => {
    const earlier = new Set(queuesOf(bob.id).map((q) => q.id));
    const worker = new Worker(CALL_ON_EACH_EVENT_WORKER, {
      eval: true,
      execArgv: [],
      workerData: { zulipJs: require.resolve('zulip-js'), config: { username: bob.email, apiKey: bob.apiKey, realm: ts.url } },
    });
    const received: Json[] = [];
    worker.on('message', (e) => received.push(e));
    const failure = new Promise<never>((_, reject) => worker.once('error', reject));
    failure.catch(() => {}); // raced below; an error outside a race must not be an unhandled rejection
    try {
      // Its own queue (registered with event_types sent as "null": all types), with a long-poll parked on it.
      let loopQueue: EventQueue | undefined;
      await Promise.race([
        failure,
        eventually(
          () => {
            loopQueue = queuesOf(bob.id).find((q) => !earlier.has(q.id));
            return loopQueue?.isParked === true;
          },
          'the callOnEachEvent long-poll',
          5_000,
        ),
      ]);
      assert.equal(loopQueue!.opts.eventTypes, null);

      const messages = () => received.filter((e) => e.type === 'message');
      const c = await olive.messages.send({ type: 'stream', to: 'Denmark', topic: 'Loop', content: 'Are you polling?' });
      assert.equal(c.result, 'success', JSON.stringify(c));
      await Promise.race([failure, eventually(() => messages().length >= 1, 'the channel message event', 5_000)]);
      // The next long-poll acknowledges the first with last_event_id: the channel message must not come again.
      // (The older send form: type "private", `to` an email.)
      const d = await olive.messages.send({ type: 'private', to: bob.email, content: 'Psst' });
      assert.equal(d.result, 'success', JSON.stringify(d));
      await Promise.race([failure, eventually(() => messages().some((e) => e.message.id === d.id), 'the direct message event', 5_000)]);
      assert.deepEqual(
        messages().map((e) => [e.message.id, e.message.type, e.message.sender_id, e.message.content]),
        [
          [c.id, 'stream', ts.owner.id, 'Are you polling?'],
          [d.id, 'private', ts.owner.id, 'Psst'],
        ],
      );
      const [ce, de] = messages();
      assert.equal(ce.message.display_recipient, 'Denmark');
      assert.equal(ce.message.subject, 'Loop');
      assert.deepEqual(userIds(de.message.display_recipient), oliveAndBob());
      assert.equal(de.message.subject, '');
      assert.ok(ce.id < de.id);

      // After its 1 s pause the loop polls again; stopping the worker then drops that parked long-poll,
      // which the server must release at once (not at the next heartbeat, a minute later).
      await eventually(() => loopQueue!.isParked, 'the next long-poll', 5_000);
      await worker.terminate();
      await eventually(() => !loopQueue!.isParked, 'the long-poll to be released', 2_000);
      // The queue outlives its loop; it is deregistered through zulip-js.
      const gone = await bobZ.queues.deregister({ queue_id: loopQueue!.id });
      assert.equal(gone.result, 'success', JSON.stringify(gone));
      assert.equal(ts.app.events.get(loopQueue!.id), undefined);
    } finally {
      await worker.terminate();
      // The messages sent here also reached the other queues; later tests start from empty ones.
      await drain(oliveQueue);
      await drain(bobQueue);
    }
  });

  it('adds and removes message flags (read, starred)', async () => {
    const flag = async (op: 'add' | 'remove', name: string) => {
      const res = await bobZ.messages.flags[op]({ messages: [channelMsg], flag: name });
      assert.equal(res.result, 'success', JSON.stringify(res));
      assert.deepEqual(res.messages, [channelMsg]);
    };
    assert.equal(flagsOf(channelMsg, bob.id) & (FLAG.read | FLAG.starred), 0);

    await flag('add', 'read');
    assert.equal(flagsOf(channelMsg, bob.id) & FLAG.read, FLAG.read);
    await flag('add', 'starred');
    assert.equal(flagsOf(channelMsg, bob.id) & FLAG.starred, FLAG.starred);
    const added = await drain(bobQueue);
    assert.deepEqual(
      added.map((e) => [e.type, e.op, e.flag, e.messages, e.all]),
      [
        ['update_message_flags', 'add', 'read', [channelMsg], false],
        ['update_message_flags', 'add', 'starred', [channelMsg], false],
      ],
    );

    await flag('remove', 'starred');
    await flag('remove', 'read');
    assert.equal(flagsOf(channelMsg, bob.id) & (FLAG.read | FLAG.starred), 0);
    const removed = await drain(bobQueue);
    assert.deepEqual(
      removed.map((e) => [e.type, e.op, e.flag, e.messages]),
      [
        ['update_message_flags', 'remove', 'starred', [channelMsg]],
        ['update_message_flags', 'remove', 'read', [channelMsg]],
      ],
    );
    // Marking unread tells the client where the message is (Zulip's message_details).
    assert.deepEqual(
      { type: removed[1].message_details[channelMsg].type, stream_id: removed[1].message_details[channelMsg].stream_id },
      { type: 'stream', stream_id: channelId },
    );
    // Olive's own flags were not touched, and her queue saw none of Bob's flag changes.
    assert.equal(flagsOf(channelMsg, ts.owner.id) & FLAG.starred, 0);
    assert.deepEqual(await drain(oliveQueue), []);
  });

  it('adds and removes reactions', async () => {
    const react = async (op: 'add' | 'remove', emoji: string) => {
      const res = await bobZ.reactions[op]({ message_id: channelMsg, emoji_name: emoji });
      assert.equal(res.result, 'success', JSON.stringify(res));
    };
    const storedReactions = () =>
      (stored(channelMsg)!.reactions ?? []).map((r) => [r.emoji_name, r.emoji_code, r.reaction_type, r.user_id]);

    await react('add', 'thumbs_up');
    await react('add', 'octopus');
    assert.deepEqual(storedReactions(), [
      ['thumbs_up', '1f44d', 'unicode_emoji', bob.id],
      ['octopus', '1f419', 'unicode_emoji', bob.id],
    ]);
    // A second vote with the same emoji is refused, in JSON zulip-js can read.
    const again = await bobZ.reactions.add({ message_id: channelMsg, emoji_name: 'octopus' });
    assert.deepEqual([again.result, again.code, again.msg], ['error', 'REACTION_ALREADY_EXISTS', 'Reaction already exists.']);

    // reactions.remove is a DELETE: emoji_name travels in the query string.
    await react('remove', 'thumbs_up');
    assert.deepEqual(storedReactions(), [['octopus', '1f419', 'unicode_emoji', bob.id]]);

    const events = await drain(oliveQueue);
    assert.deepEqual(
      events.map((e) => [e.type, e.op, e.message_id, e.user_id, e.emoji_name, e.emoji_code, e.reaction_type]),
      [
        ['reaction', 'add', channelMsg, bob.id, 'thumbs_up', '1f44d', 'unicode_emoji'],
        ['reaction', 'add', channelMsg, bob.id, 'octopus', '1f419', 'unicode_emoji'],
        ['reaction', 'remove', channelMsg, bob.id, 'thumbs_up', '1f44d', 'unicode_emoji'],
      ],
    );
    await drain(bobQueue);
  });

  it('sends typing notifications to a direct recipient', async () => {
    for (const op of ['start', 'stop']) {
      const res = await olive.typing.send({ to: [bob.id], op });
      assert.equal(res.result, 'success', JSON.stringify(res));
    }
    const events = await drain(bobQueue);
    assert.deepEqual(
      events.map((e) => [e.type, e.op, e.message_type, e.sender.user_id, userIds(e.recipients)]),
      ['start', 'stop'].map((op) => ['typing', op, 'direct', ts.owner.id, oliveAndBob()]),
    );
  });

  it('edits a message (PATCH) and deletes one (DELETE), parameters in the query string', async () => {
    const edit = await olive.messages.update({ message_id: channelMsg, content: 'Hello **Bob** & friends?' });
    assert.equal(edit.result, 'success', JSON.stringify(edit));
    assert.equal(stored(channelMsg)!.content, 'Hello **Bob** & friends?');
    const move = await olive.messages.update({ message_id: channelMsg, topic: 'Palace', propagate_mode: 'change_one' });
    assert.equal(move.result, 'success', JSON.stringify(move));
    assert.equal(stored(channelMsg)!.topic, 'Palace');
    const history = await olive.messages.getHistoryById({ message_id: channelMsg });
    assert.equal(history.result, 'success', JSON.stringify(history));
    assert.deepEqual(
      history.message_history.map((h: Json) => [h.content, h.topic]),
      [
        ['Hello **Bob**', 'Castle'],
        ['Hello **Bob** & friends?', 'Castle'],
        ['Hello **Bob** & friends?', 'Palace'],
      ],
    );
    const edits = await drain(bobQueue);
    assert.deepEqual(
      edits.map((e) => [e.type, e.message_id, e.content, e.orig_content, e.subject, e.orig_subject]),
      [
        ['update_message', channelMsg, 'Hello **Bob** & friends?', 'Hello **Bob**', undefined, undefined],
        ['update_message', channelMsg, undefined, undefined, 'Palace', 'Castle'],
        // The Notification Bot's "[A message](…) was moved here from #**Denmark>Castle** by …" in Palace.
        ['message', undefined, undefined, undefined, undefined, undefined],
      ],
    );
    const notice = edits[2]!.message as Json;
    assert.equal(notice.sender_email, 'notification-bot@zulip.com');
    assert.equal(notice.subject, 'Palace');

    const del = await olive.messages.deleteById({ message_id: directMsg });
    assert.equal(del.result, 'success', JSON.stringify(del));
    assert.equal(stored(directMsg), undefined);
    const deletes = await drain(bobQueue);
    assert.deepEqual(
      deletes.map((e) => [e.type, e.message_id, e.message_type]),
      [['delete_message', directMsg, 'private']],
    );
    const fetched = await bobZ.messages.getById({ message_id: directMsg });
    assert.equal(fetched.result, 'error', JSON.stringify(fetched));
  });

  it('deregisters a queue, which is then gone', async () => {
    const res = await olive.queues.deregister({ queue_id: oliveQueue.queue_id });
    assert.equal(res.result, 'success', JSON.stringify(res));
    assert.equal(ts.app.events.get(oliveQueue.queue_id), undefined);

    const { queue_id, last_event_id } = oliveQueue;
    const poll = await olive.events.retrieve({ queue_id, last_event_id, dont_block: true });
    assert.deepEqual([poll.result, poll.code, poll.queue_id], ['error', 'BAD_EVENT_QUEUE_ID', queue_id]);
    // zulip-js hides the HTTP status; the same poll through fetch shows it.
    const raw = await ts.client(ts.owner).get('/events', { queue_id, last_event_id });
    assert.equal(raw.status, 400);
    assert.equal(raw.body.code, 'BAD_EVENT_QUEUE_ID');
    const twice = await olive.queues.deregister({ queue_id });
    assert.deepEqual([twice.result, twice.code], ['error', 'BAD_EVENT_QUEUE_ID']);
    // Bob's queue is unaffected.
    assert.ok(ts.app.events.get(bobQueue.queue_id));
  });
});
