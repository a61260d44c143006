import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TOPIC_DELETE_BATCH } from '../../server/actions/topic-delete.js';
import { topicKey } from '../../server/store/messages.js';
import { Store } from '../../server/store/store.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

const REGISTER = {
  fetch_event_types: ['message', 'update_message_flags', 'user_topic', 'subscription', 'stream'],
  client_capabilities: JSON.stringify({ bulk_message_deletion: true, empty_topic_name: true }),
};
const MUTED = 1;
const FOLLOWED = 3;

const storedIds = (ts: TestServer, streamId: number, topic: string) => {
  const ids = ts.store.messages.topic(streamId, topic);
  return Array.from({ length: ids.length }, (_, i) => ids.at(i));
};
const storedUser = async (ts: TestServer, id: number) =>
  JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8')).users.find((u: { id: number }) => u.id === id);

describe('POST /streams/{stream_id}/delete_topic', () => {
  let ts: TestServer;
  let owner: Client;
  let mel: Client;
  let melAcc: Account;
  let ann: Client;
  let annAcc: Account;
  let kitchen: number;
  before(async () => {
    ts = await startTestServer();
    owner = ts.ownerClient;
    melAcc = await ts.addUser('Mel');
    mel = ts.client(melAcc);
    annAcc = await ts.addUser('Ann');
    ann = ts.client(annAcc);
    kitchen = await createChannel(ts, owner, 'kitchen', { principals: JSON.stringify([ts.owner.id, melAcc.id, annAcc.id]) });
  });
  after(() => ts.stop());

  it('administrators only: a member is refused and nothing is deleted', async () => {
    const id = await sendStream(mel, 'kitchen', 'keep me', 'hello');
    const res = await mel.post(`/streams/${kitchen}/delete_topic`, { topic_name: 'keep me' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.equal(res.body.msg, 'Must be an organization administrator');
    assert.ok(ts.store.messages.get(id));
  });

  it('deletes every message of the topic (any case), announces it, and clears the topic\'s mute/follow settings', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await sendStream(i % 2 ? mel : ann, 'kitchen', i % 2 ? 'Lunch' : 'lunch', `msg ${i}`));
    const other = await sendStream(mel, 'kitchen', 'dinner', 'stays');
    assert.equal((await mel.post('/user_topics', { stream_id: kitchen, topic: 'lunch', visibility_policy: MUTED })).status, 200);
    assert.equal((await ann.post('/user_topics', { stream_id: kitchen, topic: 'lunch', visibility_policy: FOLLOWED })).status, 200);
    const annQueue = (await ann.post('/register', { ...REGISTER, event_types: JSON.stringify(['delete_message', 'user_topic']) })).body;
    let res: Awaited<ReturnType<Client['post']>> | undefined;
    const events = await verifyAction(mel, async () => {
      res = await owner.post(`/streams/${kitchen}/delete_topic`, { topic_name: 'LUNCH' });
    }, REGISTER);
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    assert.equal(res!.body.complete, true);
    for (const id of ids) assert.equal(ts.store.messages.get(id), undefined, `message ${id} deleted`);
    assert.ok(ts.store.messages.get(other), 'other topics stay');
    assert.deepEqual(storedIds(ts, kitchen, 'lunch'), []);
    const deleted = events.filter((e) => e.type === 'delete_message');
    assert.deepEqual(deleted.flatMap((e) => e.message_ids as number[]).sort((a, b) => a - b), ids);
    assert.deepEqual(events.filter((e) => e.type === 'user_topic').map((e) => [e.topic_name, e.visibility_policy]), [['lunch', 0]]);
    const annEvents = await drain(ann, annQueue.queue_id, annQueue.last_event_id);
    assert.deepEqual(annEvents.filter((e) => e.type === 'user_topic').map((e) => e.visibility_policy), [0]);
    await ts.store.settled();
    for (const u of [melAcc, annAcc]) {
      const stored = await storedUser(ts, u.id);
      assert.ok(!(stored.user_topics ?? []).some((t: { topic_name: string }) => topicKey(t.topic_name) === 'lunch'), 'setting cleared on disk');
    }
    const topics = (await mel.get(`/users/me/${kitchen}/topics`)).body.topics.map((t: { name: string }) => t.name);
    assert.ok(!topics.some((t: string) => topicKey(t) === 'lunch'));
    assert.ok(topics.includes('dinner'));
    // A topic with no messages: complete, nothing to do.
    const again = await owner.post(`/streams/${kitchen}/delete_topic`, { topic_name: 'lunch' });
    assert.deepEqual([again.status, again.body.complete], [200, true]);
  });

  it('"general chat" names the empty topic, as realm_empty_topic_display_name', async () => {
    const id = await sendStream(mel, 'kitchen', '', 'no topic');
    assert.equal(ts.store.messages.get(id)!.topic, '');
    const res = await owner.post(`/streams/${kitchen}/delete_topic`, { topic_name: 'general chat' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(ts.store.messages.get(id), undefined);
  });

  it('checks the channel and the parameters', async () => {
    const secret = await createChannel(ts, mel, 'secret', { invite_only: true });
    await sendStream(mel, 'secret', 'plans', 'shh');
    for (const [path, params, msg] of [
      [`/streams/${secret}/delete_topic`, { topic_name: 'plans' }, 'Invalid channel ID'],
      ['/streams/99999/delete_topic', { topic_name: 'plans' }, 'Invalid channel ID'],
      [`/streams/${kitchen}/delete_topic`, {}, "Missing 'topic_name' argument"],
    ] as const) {
      const res = await owner.post(path, params);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.msg, msg);
    }
    assert.equal(storedIds(ts, secret, 'plans').length, 1, 'an unsubscribed administrator cannot reach a private channel');
  });

  it('with protected history, only what the administrator received goes; settings stay for those who can read the rest', async () => {
    const vault = await createChannel(ts, mel, 'vault', { invite_only: true, history_public_to_subscribers: false });
    const early = await sendStream(mel, 'vault', 'plans', 'before the owner joined');
    assert.equal((await mel.post('/user_topics', { stream_id: vault, topic: 'plans', visibility_policy: FOLLOWED })).status, 200);
    const sub = await mel.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'vault' }]), principals: JSON.stringify([ts.owner.id]) });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    const late = await sendStream(mel, 'vault', 'plans', 'after');
    const res = await owner.post(`/streams/${vault}/delete_topic`, { topic_name: 'plans' });
    assert.deepEqual([res.status, res.body.complete], [200, true]);
    assert.equal(ts.store.messages.get(late), undefined);
    assert.ok(ts.store.messages.get(early), 'the owner never received it: it stays');
    assert.ok(ts.store.users.get(melAcc.id)!.user_topics?.some((t) => t.stream_id === vault), 'Mel still reads the topic: her setting stays');
  });
});

describe('delete_topic in batches', () => {
  let ts: TestServer;
  before(async () => {
    // No time budget: every request deletes one batch, then answers.
    ts = await startTestServer({ config: { topicDeleteBudgetMs: 0 } });
  });
  after(() => ts.stop());

  it('answers complete: false while messages remain; repeating the request finishes the topic', async () => {
    const owner = ts.ownerClient;
    const channel = await createChannel(ts, owner, 'log');
    const ids: number[] = [];
    for (let i = 0; i < TOPIC_DELETE_BATCH + 3; i++) ids.push(await sendStream(owner, 'log', 'spam', `line ${i}`));
    const reg = (await owner.post('/register', { ...REGISTER, event_types: JSON.stringify(['delete_message']) })).body;
    const first = await owner.post(`/streams/${channel}/delete_topic`, { topic_name: 'spam' });
    assert.deepEqual([first.status, first.body.complete], [200, false]);
    // Newest first, so a partial deletion leaves the oldest messages.
    assert.deepEqual(storedIds(ts, channel, 'spam'), ids.slice(0, 3));
    await ts.store.settled();
    const second = await owner.post(`/streams/${channel}/delete_topic`, { topic_name: 'spam' });
    assert.deepEqual([second.status, second.body.complete], [200, true]);
    assert.deepEqual(storedIds(ts, channel, 'spam'), []);
    const events = await drain(owner, reg.queue_id, reg.last_event_id);
    assert.deepEqual(events.map((e) => (e.message_ids as number[]).length), [TOPIC_DELETE_BATCH, 3]);
    // On disk: a copy of the store opened from the data dir has none of them.
    await ts.store.settled();
    const copy = await Store.open(ts.dataDir, { lock: false });
    try {
      for (const id of ids) assert.equal(copy.messages.get(id), undefined, `message ${id} deleted on disk`);
      assert.equal(copy.messages.topic(channel, 'spam').length, 0);
    } finally {
      await copy.close();
    }
  });
});
