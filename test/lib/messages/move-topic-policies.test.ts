/**
 * Topic policies (mute, unmute, follow) follow a topic that is moved whole, as
 * in Zulip: renamed or moved to another channel, merged with the destination's
 * (the more visible wins), dropped for people who lose the channel; a partial
 * move leaves them, but a moved message that starts a topic applies its
 * sender's "topics I start" setting. Checked with verifyAction and on the
 * stored user records.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../../helpers/channels.js';
import { sendStream } from '../../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../../helpers/server.js';
import { verifyAction } from '../../helpers/verify-action.js';

const TOPICS = { fetch_event_types: ['user_topic', 'muted_topics', 'update_message_flags', 'message', 'subscription'] };
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

describe('topic policies when messages move', () => {
  let ts: TestServer;
  let melAcc: Account;
  let samAcc: Account;
  let mel: Client;
  let sam: Client;
  let admin: Client;
  let porch: number;
  let vault: number;

  before(async () => {
    ts = await startTestServer();
    admin = ts.client(await ts.addUser('Adam', 200));
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    porch = await createChannel(ts, sam, 'porch', { principals: JSON.stringify([melAcc.id, samAcc.id]) });
    vault = await createChannel(ts, admin, 'vault', { invite_only: true, principals: JSON.stringify([samAcc.id]) });
    // Sam starts topics in these tests without following them by default, to keep Sam's side simple.
    await sam.patch('/settings', { automatically_follow_topics_policy: '4' });
  });
  after(() => ts.stop());

  const policy = (who: Account, streamId: number, topic: string) =>
    ts.store.users.get(who.id)!.user_topics?.find((t) => t.stream_id === streamId && t.topic_name.toLowerCase() === topic.toLowerCase())
      ?.visibility_policy ?? 0;
  const setPolicy = async (c: Client, streamId: number, topic: string, p: number) =>
    assert.equal((await c.post('/user_topics', { stream_id: streamId, topic, visibility_policy: p })).status, 200);
  const move = async (c: Client, id: number, params: Record<string, unknown>) => {
    const res = await c.patch(`/messages/${id}`, params as never);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  it('a renamed topic keeps its mute (change_all): the policy moves, announced to its owner (verifyAction)', async () => {
    const a = await sendStream(sam, porch, 'noise', 'one');
    await sendStream(sam, porch, 'noise', 'two');
    await setPolicy(mel, porch, 'noise', MUTED);
    const events = await verifyAction(mel, () => move(sam, a, { topic: 'static', propagate_mode: 'change_all' }), TOPICS);
    assert.deepEqual(
      events.filter((e) => e.type === 'user_topic').map((e) => [e.topic_name, e.visibility_policy]),
      [['noise', 0], ['static', MUTED]],
    );
    assert.ok(events.findIndex((e) => e.type === 'user_topic') < events.findIndex((e) => e.type === 'update_message'), 'policies first');
    assert.equal(policy(melAcc, porch, 'noise'), 0);
    assert.equal(policy(melAcc, porch, 'static'), MUTED);
    // The muted topic stays out of Mel's unread count under its new name.
    const reg = (await mel.post('/register', TOPICS)).body;
    assert.equal(reg.unread_msgs.count, 0);
  });

  it('moving every message one by one counts as the whole topic (change_later from the first)', async () => {
    const first = await sendStream(sam, porch, 'plans', 'a');
    await sendStream(sam, porch, 'plans', 'b');
    await setPolicy(mel, porch, 'plans', FOLLOWED);
    await verifyAction(mel, () => move(sam, first, { topic: 'roadmap', propagate_mode: 'change_later' }), TOPICS);
    assert.equal(policy(melAcc, porch, 'roadmap'), FOLLOWED);
    assert.equal(policy(melAcc, porch, 'plans'), 0);
  });

  it('merging into a topic with messages keeps the more visible policy (followed > unmuted > none > muted)', async () => {
    const x = await sendStream(sam, porch, 'x-src', 'x');
    await sendStream(sam, porch, 'x-dst', 'there already');
    await setPolicy(mel, porch, 'x-src', FOLLOWED);
    await setPolicy(mel, porch, 'x-dst', MUTED);
    await verifyAction(mel, () => move(sam, x, { topic: 'x-dst', propagate_mode: 'change_all' }), TOPICS);
    assert.equal(policy(melAcc, porch, 'x-dst'), FOLLOWED);
    assert.equal(policy(melAcc, porch, 'x-src'), 0);

    const y = await sendStream(sam, porch, 'y-src', 'y');
    await sendStream(sam, porch, 'y-dst', 'there already');
    await setPolicy(mel, porch, 'y-src', MUTED);
    await verifyAction(mel, () => move(sam, y, { topic: 'y-dst', propagate_mode: 'change_all' }), TOPICS);
    assert.equal(policy(melAcc, porch, 'y-dst'), 0, 'muted merged with none: none');
    assert.equal(policy(melAcc, porch, 'y-src'), 0);
  });

  it('a partial move leaves policies where they are; a case-only rename keeps them', async () => {
    const p1 = await sendStream(sam, porch, 'mixed', 'stays');
    const p2 = await sendStream(sam, porch, 'mixed', 'goes');
    await setPolicy(mel, porch, 'mixed', UNMUTED);
    await move(sam, p2, { topic: 'split off', propagate_mode: 'change_one' });
    assert.equal(policy(melAcc, porch, 'mixed'), UNMUTED);
    assert.equal(policy(melAcc, porch, 'split off'), 0);
    await move(sam, p1, { topic: 'MIXED', propagate_mode: 'change_all' });
    assert.equal(policy(melAcc, porch, 'mixed'), UNMUTED);
  });

  it('moved to a channel someone cannot read: their policy is dropped, not carried over', async () => {
    const s = await sendStream(sam, porch, 'secretish', 'hush');
    await setPolicy(mel, porch, 'secretish', FOLLOWED);
    await setPolicy(sam, porch, 'secretish', FOLLOWED);
    await verifyAction(mel, () => move(sam, s, { stream_id: vault, propagate_mode: 'change_all' }), TOPICS);
    assert.equal(policy(melAcc, porch, 'secretish'), 0);
    assert.equal(policy(melAcc, vault, 'secretish'), 0);
    assert.equal(policy(samAcc, vault, 'secretish'), FOLLOWED, 'Sam reads the vault: the policy moves');
  });

  it('a moved message that starts a topic makes its sender follow it (topics I start)', async () => {
    await mel.patch('/settings', { automatically_follow_topics_policy: '4' });
    await sendStream(mel, porch, 'long thread', 'first');
    const m2 = await sendStream(mel, porch, 'long thread', 'tangent');
    await mel.patch('/settings', { automatically_follow_topics_policy: '3' });
    const events = await verifyAction(mel, () => move(sam, m2, { topic: 'tangent', propagate_mode: 'change_one' }), TOPICS);
    assert.deepEqual(events.filter((e) => e.type === 'user_topic').map((e) => [e.topic_name, e.visibility_policy]), [['tangent', FOLLOWED]]);
    assert.equal(policy(melAcc, porch, 'long thread'), 0);
  });
});
