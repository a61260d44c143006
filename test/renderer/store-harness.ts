/**
 * The client store against a real server, without a browser (test/renderer/store-*.test.ts): a
 * person's register answer loaded into a fresh store (renderer/chat/store/load-state.ts), the feeds the
 * web client would open fetched as it fetches them, the events of the person's queue applied
 * (renderer/chat/store/appliers.ts, no browser effects), and the store's observable state as plain data,
 * so two stores can be compared as the server's verifyAction compares a state with a fresh one.
 */
import assert from 'node:assert/strict';
import type { ClientEvent } from '../../server/protocol/events.js';
import type { RegisterState } from '../../server/protocol/register.js';
import { APPLIERS, applyTo, type Appliers } from '../../renderer/chat/store/appliers.js';
import { noEffects, type Effects } from '../../renderer/chat/store/effects.js';
import { loadStore } from '../../renderer/chat/store/load-state.js';
import { placeOf } from '../../renderer/chat/store/message-events.js';
import { apiNarrow, keyOf, type FeedView } from '../../renderer/chat/store/narrow.js';
import { REGISTER_PARAMS } from '../../renderer/chat/store/register-params.js';
import { createStore, noteRecent, type Channel, type Message, type Store } from '../../renderer/chat/store/state.js';
import type { Client } from '../helpers/server.js';

/** A store fed by one person's event queue. */
export interface Fed {
  store: Store;
  queueId: string;
  lastEventId: number;
  /** Every event applied, in order. */
  applied: ClientEvent[];
}

/** Registers as the web client does and loads the answer into a fresh store. */
export async function registerStore(client: Client): Promise<Fed> {
  const res = await client.post('/register', REGISTER_PARAMS as never);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const r = res.body as RegisterState;
  const store = createStore();
  loadStore(store, r);
  return { store, queueId: String(r.queue_id), lastEventId: Number(r.last_event_id), applied: [] };
}

/** Opens feeds as feeds.ts does (the newest page, the messages noted in Recent conversations). */
export async function openFeeds(client: Client, fed: Fed, views: FeedView[]): Promise<void> {
  const s = fed.store;
  for (const v of views) {
    const res = await client.get('/messages', {
      anchor: 'newest',
      num_before: 200,
      num_after: 0,
      narrow: apiNarrow(v, s.selfId.value),
      apply_markdown: true,
      client_gravatar: false,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const messages = res.body.messages as Message[];
    noteRecent(messages.map((m) => [m, placeOf(m, s.selfId.value)]), s);
    const feeds = new Map(s.feeds.value);
    feeds.set(keyOf(v), { messages, foundOldest: res.body.found_oldest, foundNewest: res.body.found_newest, loading: false, error: null });
    s.feeds.value = feeds;
  }
}

/** Fetches the queue's events so far and applies them (with `fx`, none by default; by `table`, the client's appliers by default). */
export async function applyQueued(client: Client, fed: Fed, fx: Effects = noEffects, table: Appliers = APPLIERS): Promise<ClientEvent[]> {
  const res = await client.get('/events', { queue_id: fed.queueId, last_event_id: fed.lastEventId, dont_block: true });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const events = res.body.events as (ClientEvent & { id: number })[];
  for (const e of events) {
    fed.lastEventId = Math.max(fed.lastEventId, e.id);
    applyTo(fed.store, e, fx, table);
    fed.applied.push(e);
  }
  return events;
}

const sortedFlags = (flags: string[]) => [...flags].sort();
const reactionKey = (r: { user_id: number; emoji_code: string; reaction_type: string }) => `${r.user_id}:${r.reaction_type}:${r.emoji_code}`;

/** A message as the views show it. */
const shown = (m: Message) => ({
  id: m.id,
  type: m.type,
  sender_id: m.sender_id,
  stream_id: m.stream_id,
  subject: m.subject,
  content: m.content,
  edited: m.last_edit_timestamp !== undefined && m.last_edit_timestamp !== null,
  flags: sortedFlags(m.flags),
  reactions: m.reactions.map(reactionKey).sort(),
  submessages: (m.submessages ?? []).map((x) => `${x.id}:${x.sender_id}:${x.content}`),
});

/**
 * A channel as the views read it from `store.channels` (what the channel is; how one is subscribed is
 * read from `store.subscriptions`), with its subscriber count (kept by peer events; the client asks for
 * no subscriber lists: `include_subscribers: false`).
 */
const channelShown = (c: Channel) => ({
  stream_id: c.stream_id,
  name: c.name,
  description: c.description,
  rendered_description: c.rendered_description,
  invite_only: c.invite_only,
  is_web_public: c.is_web_public,
  is_archived: c.is_archived,
  folder_id: c.folder_id,
  subscriber_count: c.subscriber_count,
});

const byKey = <V>(m: ReadonlyMap<string | number, V>) => Object.fromEntries([...m].sort(([a], [b]) => String(a).localeCompare(String(b))));

/**
 * What a person sees of a store: messages in feeds, unread counts and mentions, channels and
 * subscriptions, people, statuses, topics' visibility, drafts and the rest register fills. Left out:
 * the clocks (presence, `now`) and the connection state, which no event decides.
 */
export function observable(s: Store) {
  return {
    feeds: byKey(new Map([...s.feeds.value].map(([k, f]) => [k, { ids: f.messages.map((m) => m.id), messages: f.messages.map(shown), foundNewest: f.foundNewest }]))),
    unread: byKey(new Map([...s.unread.value].map(([id, p]) => [id, p]))),
    mentions: [...s.mentions.value].sort((a, b) => a - b),
    recent: byKey(new Map([...s.recent.value].map(([k, r]) => [k, { maxId: r.maxId, senders: r.senders }]))),
    channels: byKey(new Map([...s.channels.value].map(([id, c]) => [id, channelShown(c)]))),
    subscriptions: [...s.subscriptions.value].sort((a, b) => a.stream_id - b.stream_id).map(({ subscribers: _s, ...sub }) => sub),
    users: byKey(s.users.value),
    userStatus: byKey(s.userStatus.value),
    mutedTopics: [...s.mutedTopics.value].sort(),
    userTopics: byKey(new Map([...s.userTopics.value].map(([k, t]) => [k, t.visibility_policy]))),
    mutedUsers: [...s.mutedUsers.value.keys()].sort((a, b) => a - b),
    alertWords: [...s.alertWords.value].sort(),
    drafts: byKey(s.drafts.value),
    scheduled: s.scheduled.value,
    reminders: s.reminders.value,
    userGroups: byKey(s.userGroups.value),
    realmEmoji: s.realmEmoji.value,
    realmName: s.realmName.value,
    userSettings: s.userSettings.value,
    messageRules: s.messageRules.value,
    channelFolders: s.channelFolders.value,
    profileFields: s.profileFields.value,
    maxFileUploadMib: s.maxFileUploadMib.value,
  };
}

/** Asserts that a store kept current by events shows what a fresh register (and the same feeds) shows. */
export function assertSameAsFresh(kept: Store, fresh: Store): void {
  const a = observable(kept);
  const b = observable(fresh);
  for (const k of Object.keys(b) as (keyof typeof b)[]) assert.deepEqual(a[k], b[k], `store.${k} kept by events differs from a fresh register's`);
}
