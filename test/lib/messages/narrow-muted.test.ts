/**
 * Views that leave muted conversations out, as Zulip does: the `first_unread`
 * anchor (find_first_unread_anchor with exclude_muting_conditions), `in:home`
 * (the same conditions) and `is:followed`, in fetches and in event queue narrows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../../helpers/channels.js';
import { fetchMessages, sendDirect, sendStream } from '../../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../../helpers/server.js';
import { drain } from '../../helpers/verify-action.js';

const NEWEST = 10_000_000_000_000_000;

describe('muted conversations in message views', () => {
  let ts: TestServer;
  let writer: Client;
  let reader: Client;
  let readerAcc: Account;
  let loud = 0;
  let quiet = 0;
  const m: Record<string, number> = {};

  const setTopic = async (stream_id: number, topic: string, visibility_policy: number) => {
    const res = await reader.post('/user_topics', { stream_id, topic, visibility_policy });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  before(async () => {
    ts = await startTestServer();
    const w = await ts.addUser('Writer');
    readerAcc = await ts.addUser('Reader');
    writer = ts.client(w);
    reader = ts.client(readerAcc);
    const both = JSON.stringify([w.id, readerAcc.id]);
    loud = await createChannel(ts, writer, 'loud', { principals: both });
    quiet = await createChannel(ts, writer, 'quiet', { principals: both });
    const mute = await reader.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([{ stream_id: quiet, property: 'is_muted', value: true }]),
    });
    assert.equal(mute.status, 200, JSON.stringify(mute.body));
    await setTopic(loud, 'noise', 1);
    await setTopic(quiet, 'kept', 2);
    await setTopic(quiet, 'tracked', 3);
    m.quietChatter = await sendStream(writer, 'quiet', 'chatter', 'in a muted channel');
    m.loudNoise = await sendStream(writer, 'loud', 'Noise', 'in a muted topic (other case)');
    m.dm = await sendDirect(writer, [readerAcc.id], 'a direct word');
    m.quietKept = await sendStream(writer, 'quiet', 'kept', 'unmuted topic in a muted channel');
    m.quietTracked = await sendStream(writer, 'quiet', 'tracked', 'followed topic in a muted channel');
    m.loudNews = await sendStream(writer, 'loud', 'news', 'plain');
  });
  after(() => ts.stop());

  const firstUnread = async (narrow: object) =>
    (await fetchMessages(reader, { narrow, anchor: 'first_unread', num_before: 0, num_after: 0 })).anchor as number;

  it('first_unread skips muted topics, and muted channels outside a narrow to them, unless the topic is unmuted or followed', async () => {
    // Everything is still unread for the reader (stored flags).
    const unread = [...ts.store.messages.unread(readerAcc.id)];
    for (const id of Object.values(m)) assert.ok(unread.includes(id), `message ${id} unread`);
    const subs = ts.store.subscriptions.data.subscriptions.find((s) => s.user_id === readerAcc.id && s.stream_id === quiet);
    assert.equal(subs?.is_muted, true);

    // Combined feed: the muted channel's message and the muted topic's are passed over; the DM is not.
    assert.equal(await firstUnread([]), m.dm);
    // Channel messages only: the first is the unmuted topic of the muted channel.
    assert.equal(await firstUnread([{ operator: 'is', operand: 'dm', negated: true }]), m.quietKept);
    // Narrowed to the muted channel, channel muting does not apply.
    assert.equal(await firstUnread([{ operator: 'channel', operand: quiet }]), m.quietChatter);
    // Narrowed to a channel, its muted topics still do not count, even in a narrow to that topic.
    assert.equal(await firstUnread([{ operator: 'channel', operand: 'loud' }]), m.loudNews);
    assert.equal(await firstUnread([['channel', 'loud'], ['topic', 'noise']]), NEWEST);
    // The with operator narrows to the message's conversation first.
    assert.equal(await firstUnread([{ operator: 'with', operand: m.quietChatter }]), m.quietChatter);
    const feed = await fetchMessages(reader, { narrow: [], anchor: 'first_unread', num_before: 0, num_after: 1 });
    assert.deepEqual(
      feed.messages.map((x: { id: number }) => x.id),
      [m.dm, m.quietKept],
    );
    // Fetching changes no flags.
    assert.equal(ts.store.messages.unread(readerAcc.id).length, unread.length);
  });

  it('in:home leaves out muted topics and muted channels (their unmuted and followed topics stay); is:followed finds followed topics', async () => {
    const ids = async (narrow: object, client = reader) =>
      (await fetchMessages(client, { narrow, anchor: 'oldest', num_before: 0, num_after: 100 })).messages.map((x: { id: number }) => x.id);
    assert.deepEqual(await ids([['in', 'home']]), [m.dm, m.quietKept, m.quietTracked, m.loudNews]);
    assert.deepEqual(await ids([{ operator: 'in', operand: 'home', negated: true }]), [m.quietChatter, m.loudNoise]);
    assert.deepEqual(await ids([['in', 'all']]), Object.values(m).sort((a, b) => a - b));
    // Someone else's policies change nothing: the writer mutes nothing.
    assert.deepEqual(await ids([['in', 'home']], writer), Object.values(m).sort((a, b) => a - b));

    const stored = ts.store.users.get(readerAcc.id)?.user_topics?.find((t) => t.stream_id === quiet && t.topic_name === 'tracked');
    assert.equal(stored?.visibility_policy, 3);
    assert.deepEqual(await ids([['is', 'followed']]), [m.quietTracked]);
    assert.deepEqual(await ids([['channel', 'quiet'], ['is', 'followed']]), [m.quietTracked]);
    assert.deepEqual(await ids([['channel', 'loud'], ['is', 'followed']]), []);
    assert.deepEqual(await ids([{ operator: 'is', operand: 'followed', negated: true }, ['channel', 'quiet']]), [m.quietChatter, m.quietKept]);
    // The writer follows the topics they started (Zulip's default 'topics I start'); the DM never matches.
    const started = [m.quietChatter, m.loudNoise, m.quietKept, m.quietTracked, m.loudNews];
    assert.deepEqual(await ids([['is', 'followed']], writer), started);
    // Unfollowing (any case) takes effect at once.
    const res = await writer.post('/user_topics', { stream_id: loud, topic: 'NEWS', visibility_policy: 0 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await ids([['is', 'followed']], writer), started.filter((id) => id !== m.loudNews));
  });

  it('event queues narrowed to in:home or is:followed follow later mutes and follows', async () => {
    const queue = async (narrow: string[][]) => {
      const reg = await reader.post('/register', { event_types: ['message'], narrow: JSON.stringify(narrow) });
      assert.equal(reg.status, 200, JSON.stringify(reg.body));
      return async () =>
        (await drain(reader, reg.body.queue_id, reg.body.last_event_id)).map((e) => (e.message as { id: number }).id);
    };
    const [home, followed] = [await queue([['in', 'home']]), await queue([['is', 'followed']])];
    const tracked1 = await sendStream(writer, 'quiet', 'tracked', 'followed, in a muted channel');
    await setTopic(quiet, 'tracked', 0);
    await setTopic(loud, 'news', 1);
    await setTopic(loud, 'fresh', 3);
    assert.deepEqual(
      ts.store.users.get(readerAcc.id)?.user_topics?.map((t) => [t.topic_name, t.visibility_policy]).sort(),
      [['fresh', 3], ['kept', 2], ['news', 1], ['noise', 1]],
    );
    const tracked2 = await sendStream(writer, 'quiet', 'tracked', 'no longer followed: muted with its channel');
    const news = await sendStream(writer, 'loud', 'news', 'now a muted topic');
    const fresh = await sendStream(writer, 'loud', 'fresh', 'newly followed');
    const dm = await sendDirect(writer, [readerAcc.id], 'direct');
    assert.ok(tracked2 && news);
    assert.deepEqual(await home(), [tracked1, fresh, dm]);
    assert.deepEqual(await followed(), [tracked1, fresh]);
  });
});
