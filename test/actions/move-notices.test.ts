import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FLAG } from '../../server/store/message-records.js';
import { OpenApi, openApiAvailable } from '../helpers/openapi.js';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const REGISTER = { fetch_event_types: ['message', 'update_message_flags', 'user_topic', 'stream', 'subscription'] };
const BOT_EMAIL = 'notification-bot@zulip.com';

describe('Notification Bot: notices about resolved and moved topics', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 5, 1);
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let ann: Client;
  let annAcc: Account;
  let porch: number;
  let garden: number;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    [{ account: melAcc, client: mel }, { account: samAcc, client: sam }, { account: annAcc, client: ann }] = await ts.people('Mel', 'Sam', 'Ann');
    porch = await createChannel(ts, mel, 'porch', { principals: JSON.stringify([melAcc.id, samAcc.id, annAcc.id]) });
    garden = await createChannel(ts, mel, 'garden', { principals: JSON.stringify([melAcc.id, samAcc.id, annAcc.id]) });
  });
  after(() => ts.stop());

  const topicMessages = async (c: Client, stream: number, topic: string) =>
    (await fetchMessages(c, {
      anchor: 'newest', num_before: 50, num_after: 0, apply_markdown: false,
      narrow: JSON.stringify([{ operator: 'channel', operand: stream }, { operator: 'topic', operand: topic }]),
    })).messages as { id: number; sender_id: number; sender_email: string; sender_full_name: string; content: string; flags: string[] }[];
  const botId = () => ts.store.users.collection.data.system_bots?.notification;
  const mention = (a: Account, name: string) => `@_**${name}|${a.id}**`;

  it('resolving a topic posts "has marked this topic as resolved." as the Notification Bot (verifyAction)', async () => {
    assert.ok(typeof botId() === 'number', 'the bot has its ID from the organization\'s creation');
    const first = await sendStream(sam, 'porch', 'bug 12', 'it is broken');
    await sendStream(mel, 'porch', 'bug 12', 'fixed it');
    // Ann reads resolve notices unless she follows the topic (Zulip's default); Sam, who started it, follows it.
    assert.equal((await ann.patch('/settings', { resolved_topic_notice_auto_read_policy: 'except_followed' })).status, 200);
    const events = await verifyAction(ann, async () => {
      const res = await mel.patch(`/messages/${first}`, { topic: '✔ bug 12', propagate_mode: 'change_all' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, REGISTER);
    const bot = botId();
    assert.ok(typeof bot === 'number', 'the bot got a user ID');
    const msgs = await topicMessages(mel, porch, '✔ bug 12');
    const notice = msgs.at(-1)!;
    assert.deepEqual([notice.sender_id, notice.sender_email, notice.sender_full_name], [bot, BOT_EMAIL, 'Notification Bot']);
    assert.equal(notice.content, `${mention(melAcc, 'Mel')} has marked this topic as resolved.`);
    assert.ok(events.some((e) => e.type === 'message' && (e.message as { id: number }).id === notice.id));
    // Read for the resolver and for Ann (not following); unread for Sam, who follows the topic.
    const m = ts.store.messages.get(notice.id)!;
    assert.ok(ts.store.messages.rowFlags(m, melAcc.id)! & FLAG.read);
    assert.ok(ts.store.messages.rowFlags(m, annAcc.id)! & FLAG.read);
    assert.equal(ts.store.messages.rowFlags(m, samAcc.id)! & FLAG.read, 0);
    assert.equal(ts.store.messages.rowFlags(m, bot!), null, 'the bot has no row');
    // The rendered notice is a silent mention.
    const html = (await mel.get(`/messages/${notice.id}`)).body.message.content as string;
    assert.match(html, /class="user-mention silent"/);
    // Kept on disk.
    await ts.store.settled();
    const users = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8'));
    assert.equal(users.system_bots.notification, bot);
    assert.ok(!users.users.some((u: { id: number }) => u.id === bot), 'not an account');
  });

  it('clients learn of the bot: cross_realm_bots, GET /users/{id}, its avatar; it is not a member', async () => {
    const bot = botId()!;
    const reg = (await mel.post('/register', { fetch_event_types: ['realm_user'] })).body;
    assert.deepEqual(reg.cross_realm_bots.map((b: Record<string, unknown>) => [b.user_id, b.email, b.full_name, b.is_bot, b.is_system_bot]), [
      [bot, BOT_EMAIL, 'Notification Bot', true, true],
      [bot + 1, 'welcome-bot@zulip.com', 'Welcome Bot', true, true],
    ]);
    assert.ok(!reg.realm_users.some((u: { user_id: number }) => u.user_id === bot));
    const one = await mel.get(`/users/${bot}`);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(one.body.user.full_name, 'Notification Bot');
    assert.equal(one.body.user.is_system_bot, true);
    const all = await mel.get('/users');
    assert.ok(!all.body.members.some((u: { user_id: number }) => u.user_id === bot));
    const avatar = await fetch(`${ts.url}/avatar/${bot}`);
    assert.equal(avatar.status, 200);
    assert.equal(avatar.headers.get('content-type'), 'image/png');
    if (openApiAvailable()) {
      const oa = new OpenApi();
      assert.deepEqual(oa.errors('post', '/register', reg), [], 'register with cross_realm_bots matches Zulip\'s schema');
      assert.deepEqual(oa.errors('get', '/users/{user_id}', one.body), []);
    }
    // It cannot log in, and cannot be managed as a user.
    const login = await ts.anonymous.post('/fetch_api_key', { username: BOT_EMAIL, password: '' });
    assert.notEqual(login.status, 200);
    const patch = await ts.ownerClient.patch(`/users/${bot}`, { full_name: 'Evil Bot' });
    assert.equal(patch.status, 400);
  });

  it('people may write to the bot, as to Zulip\'s cross-realm bots: the message is kept, the bot reads nothing', async () => {
    const bot = botId()!;
    for (const to of [JSON.stringify([bot]), JSON.stringify(['notification-bot@zulip.com'])]) {
      const res = await mel.post('/messages', { type: 'direct', to, content: 'thanks, bot' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const m = ts.store.messages.get(res.body.id)!;
      assert.deepEqual(m.dm, [melAcc.id, bot].sort((a, b) => a - b));
      assert.equal(ts.store.messages.rowFlags(m, bot), null, 'no row for the bot');
      assert.notEqual(ts.store.messages.rowFlags(m, melAcc.id), null);
    }
    const conversation = await mel.get('/messages', {
      anchor: 'newest', num_before: 5, num_after: 0, apply_markdown: false,
      narrow: JSON.stringify([{ operator: 'dm', operand: [bot] }]),
    });
    assert.deepEqual(conversation.body.messages.map((m: { content: string }) => m.content), ['thanks, bot', 'thanks, bot']);
    const recent = (await mel.post('/register', { fetch_event_types: ['recent_private_conversations'] })).body.recent_private_conversations;
    assert.ok(recent.some((c: { user_ids: number[] }) => c.user_ids.length === 1 && c.user_ids[0] === bot), JSON.stringify(recent));
  });

  it('undoing a resolve within a minute deletes the notice instead of posting another', async () => {
    const msg = await sendStream(sam, 'porch', 'typo', 'teh');
    assert.equal((await mel.patch(`/messages/${msg}`, { topic: '✔ typo', propagate_mode: 'change_all' })).status, 200);
    const notice = (await topicMessages(mel, porch, '✔ typo')).at(-1)!;
    assert.match(notice.content, /has marked this topic as resolved/);
    now += 30_000;
    assert.equal((await mel.patch(`/messages/${msg}`, { topic: 'typo', propagate_mode: 'change_all' })).status, 200);
    assert.equal(ts.store.messages.get(notice.id), undefined, 'the resolve notice is gone');
    assert.deepEqual((await topicMessages(mel, porch, 'typo')).map((m) => m.id), [msg], 'and no unresolve notice');
    // After the grace period, each change gets its notice.
    assert.equal((await mel.patch(`/messages/${msg}`, { topic: '✔ typo', propagate_mode: 'change_all' })).status, 200);
    now += 61_000;
    assert.equal((await mel.patch(`/messages/${msg}`, { topic: 'typo', propagate_mode: 'change_all' })).status, 200);
    assert.deepEqual((await topicMessages(mel, porch, 'typo')).map((m) => m.content.replace(/@_\*\*[^*]+\*\* /, '')), [
      'teh',
      'has marked this topic as resolved.',
      'has marked this topic as unresolved.',
    ]);
  });

  it('moving a whole topic: "moved here from" in the new place, "moved to" in the old one when asked', async () => {
    const a = await sendStream(sam, 'porch', 'plants', 'tomatoes');
    await sendStream(sam, 'porch', 'plants', 'basil');
    const res = await mel.patch(`/messages/${a}`, { stream_id: garden, topic: 'herbs', propagate_mode: 'change_all', send_notification_to_old_thread: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const moved = await topicMessages(mel, garden, 'herbs');
    assert.deepEqual(moved.map((m) => m.content), ['tomatoes', 'basil', `This topic was moved here from #**porch>plants** by ${mention(melAcc, 'Mel')}.`]);
    const old = await topicMessages(mel, porch, 'plants');
    assert.deepEqual(old.map((m) => m.content), [`This topic was moved to #**garden>herbs** by ${mention(melAcc, 'Mel')}.`]);
    assert.deepEqual(old[0]!.flags, ['read'], 'read for the mover');
    assert.deepEqual((await topicMessages(sam, porch, 'plants'))[0]!.flags, [], 'unread for the others');
    // The channel link renders as a link to the topic, by its first message (Zulip's /with/), which moved there.
    const html = (await mel.get(`/messages/${old[0]!.id}`)).body.message.content as string;
    const herbIds = (await topicMessages(mel, garden, 'herbs')).map((m) => m.id);
    assert.match(html, new RegExp(`href="/#narrow/channel/${garden}-garden/topic/herbs/with/${Math.min(...herbIds)}"`));
  });

  it('send_notification_to_new_thread=false posts nothing; the old-thread notice is off by default', async () => {
    const a = await sendStream(sam, 'porch', 'quiet', 'shh');
    const res = await mel.patch(`/messages/${a}`, { topic: 'quieter', propagate_mode: 'change_all', send_notification_to_new_thread: false });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await topicMessages(mel, porch, 'quieter')).map((m) => m.id), [a]);
    assert.deepEqual(await topicMessages(mel, porch, 'quiet'), []);
    const bad = await mel.patch(`/messages/${a}`, { topic: 'x', send_notification_to_new_thread: 'yes' });
    assert.equal(bad.status, 400);
    assert.equal(ts.store.messages.get(a)!.topic, 'quieter');
  });

  it('moving part of a topic counts the messages; one message links to where it went', async () => {
    const ids: number[] = [];
    for (const c of ['one', 'two', 'three', 'four']) ids.push(await sendStream(sam, 'porch', 'mixed', c));
    assert.equal((await mel.patch(`/messages/${ids[0]}`, { topic: 'single', send_notification_to_old_thread: true })).status, 200);
    const single = await topicMessages(mel, porch, 'single');
    assert.equal(single.at(-1)!.content, `[A message](/#narrow/channel/${porch}-porch/topic/single/near/${ids[0]}) was moved here from #**porch>mixed** by ${mention(melAcc, 'Mel')}.`);
    assert.equal((await topicMessages(mel, porch, 'mixed')).at(-1)!.content, `A message was moved from this topic to #**porch>single** by ${mention(melAcc, 'Mel')}.`);
    assert.equal((await mel.patch(`/messages/${ids[2]}`, { topic: 'later', propagate_mode: 'change_later', send_notification_to_old_thread: true })).status, 200);
    // change_later takes three and four, and the notice the first move left in 'mixed'.
    assert.equal((await topicMessages(mel, porch, 'later')).at(-1)!.content, `3 messages were moved here from #**porch>mixed** by ${mention(melAcc, 'Mel')}.`);
    assert.equal((await topicMessages(mel, porch, 'mixed')).at(-1)!.content, `3 messages were moved from this topic to #**porch>later** by ${mention(melAcc, 'Mel')}.`);
  });

  it('a name the #**channel>topic** syntax cannot carry falls back to a Markdown link', async () => {
    const a = await sendStream(sam, 'porch', 'a > b', 'arrows');
    assert.equal((await mel.patch(`/messages/${a}`, { topic: 'plain', propagate_mode: 'change_all' })).status, 200);
    const notice = (await topicMessages(mel, porch, 'plain')).at(-1)!;
    assert.equal(notice.content, `This topic was moved here from [#porch > a > b](/#narrow/channel/${porch}-porch/topic/a.20.3E.20b) by ${mention(melAcc, 'Mel')}.`);
  });
});
