import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const TOPICS = { fetch_event_types: ['user_topic', 'muted_topics', 'update_message_flags', 'message', 'subscription'] };

describe('user topics (mute, unmute, follow) and unread counts', () => {
  let ts: TestServer;
  let mel: Client;
  let sam: Client;
  let hall: number;
  before(async () => {
    ts = await startTestServer();
    mel = ts.client(await ts.addUser('Mel'));
    sam = ts.client(await ts.addUser('Sam'));
    hall = await createChannel(ts, sam, 'hall', { principals: [] });
    for (const c of [mel, sam]) await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'hall' }] });
  });
  after(() => ts.stop());

  const count = async () => (await mel.post('/register', TOPICS)).body.unread_msgs.count as number;

  it('a muted topic leaves the unread count; unmuted in a muted channel counts again (verifyAction)', async () => {
    await sendStream(sam, 'hall', 'noise', 'a');
    await sendStream(sam, 'hall', 'noise', 'b');
    await sendStream(sam, 'hall', 'signal', 'c');
    assert.equal(await count(), 3);
    const events = await verifyAction(mel, () => mel.post('/user_topics', { stream_id: hall, topic: 'Noise', visibility_policy: 1 }), TOPICS);
    assert.deepEqual(events.map((e) => e.type).sort(), ['muted_topics', 'user_topic']);
    assert.equal(await count(), 1);
    const reg = (await mel.post('/register', TOPICS)).body;
    assert.deepEqual(reg.user_topics.map((t: { topic_name: string; visibility_policy: number }) => [t.topic_name, t.visibility_policy]), [['Noise', 1]]);
    // Zulip leaves the legacy muted_topics out when user_topic is asked for too; alone, it is there.
    assert.ok(!('muted_topics' in reg));
    const legacy = (await mel.post('/register', { fetch_event_types: ['muted_topics'] })).body;
    assert.deepEqual(legacy.muted_topics.map((t: unknown[]) => t.slice(0, 2)), [['hall', 'Noise']]);
    // Mute the whole channel, but follow one topic.
    await mel.post('/users/me/subscriptions/properties', { subscription_data: JSON.stringify([{ stream_id: hall, property: 'is_muted', value: true }]) });
    assert.equal(await count(), 0);
    await verifyAction(mel, () => mel.post('/user_topics', { stream_id: hall, topic: 'signal', visibility_policy: 3 }), TOPICS);
    assert.equal(await count(), 1);
    await verifyAction(mel, () => mel.post('/user_topics', { stream_id: hall, topic: 'noise', visibility_policy: 0 }), TOPICS);
    assert.equal(ts.store.users.get(ts.store.users.all().find((u) => u.full_name === 'Mel')!.id)!.user_topics!.length, 1);
  });

  it('the legacy muted_topics endpoint and bad input', async () => {
    assert.equal((await mel.patch('/users/me/subscriptions/muted_topics', { stream: 'hall', topic: 'old', op: 'add' })).status, 200);
    // Again, then unmuting twice: success each time, as Zulip since feature level 169; the state follows.
    const muted = () => ts.store.users.get(ts.store.users.all().find((u) => u.full_name === 'Mel')!.id)!.user_topics!.some((t) => t.topic_name === 'old');
    assert.equal((await mel.patch('/users/me/subscriptions/muted_topics', { stream_id: hall, topic: 'old', op: 'add' })).status, 200);
    assert.equal(muted(), true);
    assert.equal((await mel.patch('/users/me/subscriptions/muted_topics', { stream_id: hall, topic: 'old', op: 'remove' })).status, 200);
    assert.equal((await mel.patch('/users/me/subscriptions/muted_topics', { stream_id: hall, topic: 'old', op: 'remove' })).status, 200);
    assert.equal(muted(), false);
    assert.equal((await mel.post('/user_topics', { stream_id: hall, topic: 'x', visibility_policy: 7 })).body.msg, 'Invalid visibility_policy');
    assert.equal((await mel.post('/user_topics', { stream_id: 424242, topic: 'x', visibility_policy: 1 })).body.msg, 'Invalid channel ID');
  });
});

describe('user status', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  before(async () => {
    ts = await startTestServer();
    melAcc = await ts.addUser('Mel');
    mel = ts.client(melAcc);
    sam = ts.client(await ts.addUser('Sam'));
  });
  after(() => ts.stop());

  it('sets and clears text and emoji; everyone hears it (verifyAction); register keys are user-ID strings', async () => {
    const events = await verifyAction(sam, () => mel.post('/users/me/status', { status_text: 'In a meeting', emoji_name: 'calendar' }), { fetch_event_types: ['user_status'] });
    const e = events[0]!;
    assert.equal(e.type, 'user_status');
    assert.equal(e.user_id, melAcc.id);
    assert.equal(e.status_text, 'In a meeting');
    assert.equal(e.emoji_name, 'calendar');
    assert.equal(e.reaction_type, 'unicode_emoji');
    const reg = (await sam.post('/register', { fetch_event_types: ['user_status'] })).body;
    assert.deepEqual(Object.keys(reg.user_status), [String(melAcc.id)]);
    assert.equal((await sam.get(`/users/${melAcc.id}/status`)).body.status.status_text, 'In a meeting');
    await verifyAction(sam, () => mel.post('/users/me/status', { status_text: '', emoji_name: '' }), { fetch_event_types: ['user_status'] });
    assert.equal(ts.store.users.get(melAcc.id)!.status, undefined);
  });

  it('away turns presence off; bad input is refused', async () => {
    assert.equal((await mel.post('/users/me/status', { away: true })).status, 200);
    assert.equal(ts.store.users.get(melAcc.id)!.user_settings?.presence_enabled, false);
    assert.equal((await mel.post('/users/me/status', {})).body.msg, 'Client did not pass any new values.');
    assert.match((await mel.post('/users/me/status', { status_text: 'x'.repeat(61) })).body.msg, /too long/);
    assert.equal((await mel.post('/users/me/status', { emoji_name: 'not_an_emoji_at_all' })).body.msg, "Emoji 'not_an_emoji_at_all' does not exist");
    assert.equal(
      (await mel.post('/users/me/status', { status_text: 'Out', emoji_code: '1f4c5' })).body.msg,
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    );
  });

  it('POST /users/{id}/status: an administrator sets someone else\'s status (Zulip 11); members may not', async () => {
    const events = await verifyAction(sam, () => ts.ownerClient.post(`/users/${melAcc.id}/status`, { status_text: 'On leave' }), {
      fetch_event_types: ['user_status'],
    });
    assert.equal(events[0]!.user_id, melAcc.id);
    assert.equal(ts.store.users.get(melAcc.id)!.status?.status_text, 'On leave');
    const refused = await sam.post(`/users/${melAcc.id}/status`, { status_text: 'Hijacked' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'Insufficient permission');
    assert.equal(ts.store.users.get(melAcc.id)!.status?.status_text, 'On leave');
    assert.equal((await ts.ownerClient.post('/users/999999/status', { status_text: 'x' })).body.msg, 'No such user');
    assert.equal((await ts.ownerClient.post(`/users/${melAcc.id}/status`, {})).body.msg, 'Client did not pass any new values.');
  });
});
