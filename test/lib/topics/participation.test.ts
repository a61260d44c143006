/**
 * Automatically following and unmuting topics (Zulip 8.0): the sender's
 * `automatically_follow_topics_policy` / `automatically_unmute_topics_in_muted_streams_policy`
 * on starting, sending to or reacting in a topic, and
 * `automatically_follow_topics_where_mentioned` for the people a message names.
 * Checked on the POST /messages answer (automatic_new_visibility_policy), the
 * user_topic events (verifyAction), the stored user record and the unread count.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../../helpers/channels.js';
import { sendStream } from '../../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../../helpers/server.js';
import { verifyAction } from '../../helpers/verify-action.js';

const TOPICS = { fetch_event_types: ['user_topic', 'muted_topics', 'message', 'update_message_flags', 'subscription'] };
const FOLLOWED = 3;
const UNMUTED = 2;
const MUTED = 1;

describe('automatically follow and unmute topics', () => {
  let ts: TestServer;
  let mel: Account;
  let sam: Account;
  let kit: Account;
  let m: Client;
  let s: Client;
  let k: Client;
  let hall: number;

  before(async () => {
    ts = await startTestServer();
    mel = await ts.addUser('Mel');
    sam = await ts.addUser('Sam');
    kit = await ts.addUser('Kit');
    [m, s, k] = [ts.client(mel), ts.client(sam), ts.client(kit)];
    hall = await createChannel(ts, s, 'hall', { principals: JSON.stringify([mel.id, sam.id, kit.id]) });
  });
  after(() => ts.stop());

  /** The stored policy (0 when none), matching topic names case-insensitively. */
  const policy = (who: Account, topic: string, streamId = hall) =>
    ts.store.users.get(who.id)!.user_topics?.find((t) => t.stream_id === streamId && t.topic_name.toLowerCase() === topic.toLowerCase())
      ?.visibility_policy ?? 0;
  const setting = async (c: Client, name: string, value: unknown) =>
    assert.equal((await c.patch('/settings', { [name]: JSON.stringify(value) })).status, 200);
  const send = (c: Client, topic: string, content: string, streamId = hall) =>
    c.post('/messages', { type: 'stream', to: String(streamId), topic, content });

  it("defaults are Zulip's: follow topics you start, unmute topics you send to in muted channels, follow where mentioned", async () => {
    const settings = (await m.post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } })).body
      .user_settings;
    assert.equal(settings.automatically_follow_topics_policy, 3);
    assert.equal(settings.automatically_unmute_topics_in_muted_streams_policy, 2);
    assert.equal(settings.automatically_follow_topics_where_mentioned, true);
  });

  it('starting a topic follows it: answered, announced before the message, stored; later messages change nothing', async () => {
    let res: Awaited<ReturnType<typeof send>> | undefined;
    const events = await verifyAction(m, async () => (res = await send(m, 'Plans', 'first')), TOPICS);
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    assert.equal(res!.body.automatic_new_visibility_policy, FOLLOWED);
    // (The channel's first message also announces first_message_id.)
    const types = events.map((e) => e.type).filter((t) => t !== 'stream');
    assert.deepEqual(types, ['muted_topics', 'user_topic', 'message']);
    assert.deepEqual(
      { ...events.find((e) => e.type === 'user_topic'), last_updated: 0, id: 0 },
      { type: 'user_topic', stream_id: hall, topic_name: 'Plans', visibility_policy: FOLLOWED, last_updated: 0, id: 0 },
    );
    assert.equal(policy(mel, 'plans'), FOLLOWED);

    const again = await send(m, 'plans', 'second');
    assert.equal(again.status, 200);
    assert.equal('automatic_new_visibility_policy' in again.body, false, 'absent when nothing changed');
    // Sam joins an existing topic: not a start, so nothing is followed.
    const joined = await send(s, 'PLANS', 'reply');
    assert.equal('automatic_new_visibility_policy' in joined.body, false);
    assert.equal(policy(sam, 'plans'), 0);
  });

  it('sending in a muted channel unmutes the topic (ON_SEND); starting one there follows it', async () => {
    await sendStream(s, 'hall', 'quiet', 'earlier');
    await k.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([{ stream_id: hall, property: 'is_muted', value: true }]),
    });
    let res: Awaited<ReturnType<typeof send>> | undefined;
    await verifyAction(k, async () => (res = await send(k, 'quiet', 'me too')), TOPICS);
    assert.equal(res!.body.automatic_new_visibility_policy, UNMUTED);
    assert.equal(policy(kit, 'quiet'), UNMUTED);
    // The unmuted topic now counts in Kit's unread count, though the channel is muted.
    const before = (await k.post('/register', TOPICS)).body.unread_msgs.count as number;
    await sendStream(s, 'hall', 'quiet', 'news');
    assert.equal((await k.post('/register', TOPICS)).body.unread_msgs.count, before + 1);

    const started = await send(k, 'fresh', 'new topic in a muted channel');
    assert.equal(started.body.automatic_new_visibility_policy, FOLLOWED, 'following wins over unmuting');
    await k.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([{ stream_id: hall, property: 'is_muted', value: false }]),
    });
  });

  it('never / on send / on participation, and a muted topic', async () => {
    await setting(k, 'automatically_follow_topics_policy', 4);
    await setting(k, 'automatically_unmute_topics_in_muted_streams_policy', 4);
    const never = await send(k, 'untouched', 'hello');
    assert.equal('automatic_new_visibility_policy' in never.body, false);
    assert.equal(policy(kit, 'untouched'), 0);

    await setting(k, 'automatically_follow_topics_policy', 2);
    await k.post('/user_topics', { stream_id: hall, topic: 'untouched', visibility_policy: MUTED });
    const onSend = await send(k, 'Untouched', 'again');
    assert.equal(onSend.body.automatic_new_visibility_policy, FOLLOWED, 'sending follows even a muted topic (Zulip)');
    assert.equal(policy(kit, 'untouched'), FOLLOWED);
    // Nothing ever lowers a followed topic.
    await setting(k, 'automatically_follow_topics_policy', 4);
    await setting(k, 'automatically_unmute_topics_in_muted_streams_policy', 1);
    await k.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([{ stream_id: hall, property: 'is_muted', value: true }]),
    });
    assert.equal('automatic_new_visibility_policy' in (await send(k, 'untouched', 'still followed')).body, false);
    assert.equal(policy(kit, 'untouched'), FOLLOWED);
    await k.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([{ stream_id: hall, property: 'is_muted', value: false }]),
    });
    await setting(k, 'automatically_follow_topics_policy', 3);
    await setting(k, 'automatically_unmute_topics_in_muted_streams_policy', 2);
  });

  it('protected history: a topic whose earlier messages the sender cannot see counts as started by them', async () => {
    const vault = await createChannel(ts, s, 'vault', { invite_only: true, history_public_to_subscribers: false, principals: JSON.stringify([sam.id]) });
    await sendStream(s, vault, 'secret', 'before Mel joined');
    assert.equal(policy(sam, 'secret', vault), FOLLOWED);
    const added = await s.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'vault' }]), principals: JSON.stringify([mel.id]) });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const res = await send(m, 'secret', 'first I can see', vault);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.automatic_new_visibility_policy, FOLLOWED);
  });

  it('mentions: people named follow the topic; not silent, group or quoted mentions, bots, muted topics, non-recipients, or the opted out', async () => {
    const bot = await s.post('/bots', { full_name: 'Helper', short_name: 'helper' });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    await s.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'hall' }]), principals: JSON.stringify([bot.body.user_id]) });
    const outsider = await ts.addUser('Out');
    await k.post('/user_topics', { stream_id: hall, topic: 'standup', visibility_policy: MUTED });
    await sendStream(s, 'hall', 'standup', 'kickoff');

    const events = await verifyAction(
      m,
      () => sendStream(s, 'hall', 'standup', '@**Mel** @**Kit** @**Helper** @**Out** please'),
      TOPICS,
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'user_topic').map((e) => [e.topic_name, e.visibility_policy]),
      [['standup', FOLLOWED]],
    );
    assert.equal(policy(mel, 'standup'), FOLLOWED);
    assert.equal(policy(kit, 'standup'), MUTED, 'a mute takes precedence');
    assert.equal(ts.store.users.get(bot.body.user_id)!.user_topics, undefined);
    assert.equal(policy(outsider, 'standup'), 0, 'not a subscriber: not a recipient');

    await sendStream(s, 'hall', 'retro', 'kickoff');
    await sendStream(s, 'hall', 'retro', '@_**Mel** silently\n\n> @**Mel** quoted');
    assert.equal(policy(mel, 'retro'), 0);
    await setting(m, 'automatically_follow_topics_where_mentioned', false);
    await sendStream(s, 'hall', 'retro', '@**Mel** now');
    assert.equal(policy(mel, 'retro'), 0);
    await setting(m, 'automatically_follow_topics_where_mentioned', true);
  });

  it('reacting is participation: follows only with "topics you participate in", subscribers only', async () => {
    const id = await sendStream(s, 'hall', 'lunch', 'pizza?');
    const react = (c: Client) => c.post(`/messages/${id}/reactions`, { emoji_name: 'thumbs_up' });
    assert.equal((await react(m)).status, 200);
    assert.equal(policy(mel, 'lunch'), 0, 'the default follows topics you start, not ones you react in');

    await setting(k, 'automatically_follow_topics_policy', 1);
    const events = await verifyAction(k, () => react(k), TOPICS);
    assert.deepEqual(events.map((e) => e.type), ['muted_topics', 'user_topic', 'reaction']);
    assert.equal(policy(kit, 'lunch'), FOLLOWED);

    // An administrator reading the public channel without a subscription does not follow it.
    const admin = ts.ownerClient;
    await admin.patch('/settings', { automatically_follow_topics_policy: '1' });
    assert.equal((await react(admin)).status, 200);
    assert.equal(policy(ts.owner, 'lunch'), 0);
    await setting(k, 'automatically_follow_topics_policy', 3);
  });

  it('direct messages and bots never change topic policies; the policies are on disk', async () => {
    const dm = await m.post('/messages', { type: 'direct', to: JSON.stringify([sam.id]), content: 'hi' });
    assert.equal('automatic_new_visibility_policy' in dm.body, false);
    const bot = await s.post('/bots', { full_name: 'Poster', short_name: 'poster' });
    await s.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'hall' }]), principals: JSON.stringify([bot.body.user_id]) });
    const botUser = ts.store.users.get(bot.body.user_id)!;
    const botClient = ts.client({ id: botUser.id, email: botUser.email, apiKey: botUser.api_key, password: '' });
    const res = await send(botClient, 'bot topic', 'beep');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal('automatic_new_visibility_policy' in res.body, false);

    const { readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const onDisk = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8'));
    const users = (onDisk.users ?? onDisk) as { id: number; user_topics?: { topic_name: string; visibility_policy: number }[] }[];
    const melOnDisk = users.find((u) => u.id === mel.id)!;
    assert.ok(melOnDisk.user_topics?.some((t) => t.topic_name === 'Plans' && t.visibility_policy === FOLLOWED));
  });
});
