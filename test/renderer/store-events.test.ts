/**
 * The web client's store kept by events, against a fresh register (as the server's verifyAction
 * tests do for the server's state): a person registers as the web client does, a fresh store loads
 * the answer and opens some feeds; people act through the API; the queued events are applied
 * (renderer/chat/store/appliers.ts); then a second register into another fresh store, with the same feeds
 * fetched anew, must show the same: messages in feeds, unread counts, channels, subscriptions, people,
 * statuses, drafts …
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { APPLIERS, type Appliers } from '../../renderer/chat/store/appliers.js';
import { noEffects, type Effects } from '../../renderer/chat/store/effects.js';
import { keyOf, type FeedView } from '../../renderer/chat/store/narrow.js';
import { startTestServer, type Person, type TestServer } from '../helpers/server.js';
import { applyQueued, assertSameAsFresh, observable, openFeeds, registerStore, type Fed } from './store-harness.js';

async function ok(res: Promise<{ status: number; body: Record<string, unknown> }>) {
  const r = await res;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

describe('the client store kept by events equals a fresh register', () => {
  let ts: TestServer;
  let mel: Person;
  let sam: Person;
  let design = 0;
  let random = 0;

  const send = async (from: Person, to: number, topic: string, content: string) =>
    Number((await ok(from.client.post('/messages', { type: 'stream', to, topic, content }))).id);

  before(async () => {
    ts = await startTestServer();
    [mel, sam] = await ts.people('Mel', 'Sam');
    for (const name of ['design', 'random']) {
      await ok(ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [mel.account.id, sam.account.id] }));
    }
    design = Number((await ok(ts.ownerClient.get('/get_stream_id', { stream: 'design' }))).stream_id);
    random = Number((await ok(ts.ownerClient.get('/get_stream_id', { stream: 'random' }))).stream_id);
    await send(sam, design, 'colours', 'Blue or green?');
    await send(mel, design, 'colours', 'Green.');
    await send(sam, random, 'lunch', 'Soup today');
  });
  after(() => ts.stop());

  const views = (): FeedView[] => [
    { kind: 'feed' },
    { kind: 'mentions' },
    { kind: 'starred' },
    { kind: 'channel', streamId: design },
    { kind: 'channel', streamId: random },
    { kind: 'topic', streamId: design, topic: 'colours' },
    { kind: 'dm', userIds: [sam.account.id] },
  ];

  /** Registers Mel, opens the feeds, runs `act`, applies Mel's events; returns the kept store and a fresh one. */
  async function keptAndFresh(act: () => Promise<void>, fx: Effects = noEffects, table: Appliers = APPLIERS): Promise<{ kept: Fed; fresh: Fed }> {
    const kept = await registerStore(mel.client);
    await openFeeds(mel.client, kept, views());
    await act();
    await applyQueued(mel.client, kept, fx, table);
    // A feed the events dropped (to load afresh) is fetched again, as the page does when it is shown.
    await openFeeds(mel.client, kept, views().filter((v) => !kept.store.feeds.value.has(keyOf(v))));
    const fresh = await registerStore(mel.client);
    await openFeeds(mel.client, fresh, views());
    return { kept, fresh };
  }

  it('messages sent, edited, moved, deleted, reacted to, starred and read', async () => {
    const { kept, fresh } = await keptAndFresh(async () => {
      const a = await send(sam, design, 'colours', 'What about @**Mel** and red?');
      const d = await send(sam, design, 'colours', 'Typo, sorry');
      const b = await send(sam, design, 'colours', 'Or purple');
      const c = await send(mel, design, 'shapes', 'Circles');
      await send(sam, design, 'shapes', 'Squares');
      await ok(sam.client.post('/messages', { type: 'direct', to: JSON.stringify([mel.account.id]), content: 'A word in private' }));
      await ok(sam.client.patch(`/messages/${b}`, { content: 'Or purple, maybe' }));
      await ok(mel.client.post(`/messages/${a}/reactions`, { emoji_name: 'thumbs_up' }));
      await ok(sam.client.post(`/messages/${a}/reactions`, { emoji_name: 'heart' }));
      await ok(sam.client.delete(`/messages/${a}/reactions`, { emoji_name: 'heart' }));
      await ok(mel.client.post('/messages/flags', { messages: [a], op: 'add', flag: 'starred' }));
      await ok(mel.client.post('/messages/flags', { messages: [b], op: 'add', flag: 'read' }));
      // The whole topic "shapes" renamed; then one message deleted that is not its conversation's newest,
      // and the newest of another conversation (Recent conversations go back to the one before it).
      await ok(mel.client.patch(`/messages/${c}`, { topic: 'forms', propagate_mode: 'change_all' }));
      await ok(ts.ownerClient.delete(`/messages/${d}`));
      const last = await send(sam, design, 'colours', 'On second thoughts, never mind');
      await ok(ts.ownerClient.delete(`/messages/${last}`));
    });
    assert.ok(kept.applied.length >= 10, `events applied: ${kept.applied.map((e) => e.type).join(', ')}`);
    assertSameAsFresh(kept.store, fresh.store);
  });

  it('a message starred elsewhere joins the loaded Starred feed; one starred by another client reloads it', async () => {
    let seen = 0;
    let unseen = 0;
    const { kept, fresh } = await keptAndFresh(async () => {
      seen = await send(sam, design, 'stars', 'Worth keeping');
      await ok(mel.client.post('/messages/flags', { messages: [seen], op: 'add', flag: 'starred' }));
    });
    assertSameAsFresh(kept.store, fresh.store);
    assert.ok(kept.store.feeds.value.get(keyOf({ kind: 'starred' }))?.messages.some((m) => m.id === seen));
    // Starred where this store has no copy (in a topic no open feed shows): the feed is fetched again.
    const again = await keptAndFresh(async () => {
      unseen = await send(sam, random, 'elsewhere', 'Also worth keeping');
      await ok(mel.client.post('/messages/flags', { messages: [unseen], op: 'add', flag: 'starred' }));
    });
    assertSameAsFresh(again.kept.store, again.fresh.store);
    assert.ok(again.kept.store.feeds.value.get(keyOf({ kind: 'starred' }))?.messages.some((m) => m.id === unseen));
  });

  it('a topic muted and a channel muted and unmuted while the combined feed is loaded', async () => {
    const { kept, fresh } = await keptAndFresh(async () => {
      await send(sam, design, 'noise', 'Loud');
      await ok(mel.client.post('/user_topics', { stream_id: design, topic: 'noise', visibility_policy: 1 }));
      await ok(mel.client.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: random, property: 'is_muted', value: true }] }));
    });
    assertSameAsFresh(kept.store, fresh.store);
    const feed = kept.store.feeds.value.get(keyOf({ kind: 'feed' }))!;
    assert.ok(!feed.messages.some((m) => m.subject === 'noise' || m.stream_id === random), 'muted messages left the combined feed');
    const back = await keptAndFresh(async () => {
      await ok(mel.client.post('/user_topics', { stream_id: design, topic: 'noise', visibility_policy: 0 }));
      await ok(mel.client.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: random, property: 'is_muted', value: false }] }));
    });
    assertSameAsFresh(back.kept.store, back.fresh.store);
    assert.ok(back.kept.store.feeds.value.get(keyOf({ kind: 'feed' }))!.messages.some((m) => m.subject === 'noise'));
  });

  it('subscriber counts follow who joins and leaves', async () => {
    const { kept, fresh } = await keptAndFresh(async () => {
      await ok(ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [ts.owner.id] }));
      await ok(sam.client.delete('/users/me/subscriptions', { subscriptions: ['random'] }));
    });
    assertSameAsFresh(kept.store, fresh.store);
    assert.equal(typeof kept.store.channels.value.get(design)?.subscriber_count, 'number');
  });

  it('a message moved to another channel leaves the channel it was in', async () => {
    const { kept, fresh } = await keptAndFresh(async () => {
      await send(sam, design, 'misplaced', 'This belongs in random');
      const m = await send(sam, design, 'misplaced', 'So does this');
      await ok(ts.ownerClient.patch(`/messages/${m}`, { stream_id: random, propagate_mode: 'change_all' }));
    });
    assertSameAsFresh(kept.store, fresh.store);
  });

  it('channels: subscribed, unsubscribed, renamed, muted', async () => {
    const { kept, fresh } = await keptAndFresh(async () => {
      await ok(ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'announcements' }], principals: [mel.account.id] }));
      await ok(mel.client.delete('/users/me/subscriptions', { subscriptions: ['random'] }));
      await ok(ts.ownerClient.patch(`/streams/${design}`, { new_name: 'design team', description: 'Pixels' }));
      await ok(mel.client.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: design, property: 'pin_to_top', value: true }] }));
    });
    assertSameAsFresh(kept.store, fresh.store);
    assert.equal(kept.store.channels.value.get(design)?.name, 'design team');
  });

  it('people and settings: a status, a muted topic, a setting, a draft', async () => {
    const { kept, fresh } = await keptAndFresh(async () => {
      await ok(sam.client.post('/users/me/status', { status_text: 'On holiday', emoji_name: 'palm_tree' }));
      // A topic with no loaded messages (a loaded feed keeps a newly muted topic's messages until fetched again).
      await ok(mel.client.post('/user_topics', { stream_id: design, topic: 'later', visibility_policy: 1 }));
      await ok(mel.client.post('/user_topics', { stream_id: random, topic: 'lunch', visibility_policy: 3 }));
      await ok(mel.client.patch('/settings', { twenty_four_hour_time: true }));
      await ok(mel.client.post('/drafts', { drafts: [{ type: 'stream', to: [design], topic: 'colours', content: 'Half a thought', timestamp: 1_700_000_000 }] }));
      await ok(sam.client.patch('/settings', { full_name: 'Samuel' }));
    });
    assertSameAsFresh(kept.store, fresh.store);
    assert.equal(kept.store.drafts.value.size, 1);
  });

  it('a poll: the votes reach the kept message', async () => {
    let poll = 0;
    const { kept, fresh } = await keptAndFresh(async () => {
      poll = await send(sam, design, 'lunch poll', '/poll Lunch?\nPizza\nSoup');
      await ok(mel.client.post('/submessage', { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }));
    });
    assertSameAsFresh(kept.store, fresh.store);
    const kept1 = kept.store.feeds.value.get('#feed');
    assert.ok(kept1 === undefined || kept1.messages.find((m) => m.id === poll)?.submessages?.length === 2);
    assert.ok(Object.keys(observable(kept.store).feeds).length >= 5);
  });

  it('the effects beyond the store are asked for: a new message, its topic, a move', async () => {
    const seen: string[] = [];
    const fx: Effects = {
      newMessage: (m) => seen.push(`new ${m.id}`),
      typing: (timer, on) => seen.push(`typing ${timer} ${on}`),
      topicSeen: (streamId, topic) => seen.push(`topic ${streamId} ${topic}`),
      topicsChanged: (ids) => seen.push(`refetch ${ids.join(',')}`),
      topicsForgotten: (id) => seen.push(`forget ${id}`),
      call: (e) => seen.push(`call ${e.op}`),
    };
    let m = 0;
    await keptAndFresh(async () => {
      m = await send(sam, design, 'effects', 'Hello');
      await ok(sam.client.post('/typing', { type: 'stream', op: 'start', stream_id: design, topic: 'effects' }));
      await ok(sam.client.patch(`/messages/${m}`, { topic: 'effects moved', propagate_mode: 'change_one' }));
    }, fx);
    // Then the notice of the move (a message in the new topic).
    assert.deepEqual(seen.slice(0, 4), [`topic ${design} effects`, `new ${m}`, `typing topic:${design}:effects|${sam.account.id} true`, `refetch ${design},`]);
  });

  it('a broken applier is caught: the kept store then differs from a fresh one', async () => {
    const broken: Appliers = { ...APPLIERS, reaction: () => undefined, update_message_flags: () => undefined };
    const { kept, fresh } = await keptAndFresh(async () => {
      const m = await send(sam, design, 'colours', 'React to me');
      await ok(mel.client.post(`/messages/${m}/reactions`, { emoji_name: 'thumbs_up' }));
      await ok(mel.client.post('/messages/flags', { messages: [m], op: 'add', flag: 'read' }));
    }, noEffects, broken);
    assert.throws(() => assertSameAsFresh(kept.store, fresh.store), /store\.(feeds|unread) kept by events differs/);
  });
});
