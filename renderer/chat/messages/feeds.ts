/**
 * Fetching a feed's messages (`GET /messages`): a narrow opens at its first unread
 * message, older ones load when scrolling up, newer ones when scrolling down if the feed
 * did not start at the newest. Marking read: the message IDs seen are sent in batches
 * (`POST /messages/flags`); the store changes when the server's event comes back.
 */
import type { MessagesAnswer } from '../../../server/protocol/messages-answer.js';
import { get, post } from '../store/api.js';
import { apiNarrow, keyOf, type FeedView } from '../store/narrow.js';
import { store, updateFeed, noteRecent, type Message } from '../store/state.js';
import { placeOf } from '../store/apply-event.js';

const BATCH = 100;

function fetchPage(v: FeedView, anchor: string | number, before: number, after: number): Promise<MessagesAnswer> {
  return get<MessagesAnswer>('/messages', {
    anchor: String(anchor),
    num_before: before,
    num_after: after,
    include_anchor: typeof anchor === 'string',
    narrow: apiNarrow(v, store.selfId.value),
    apply_markdown: true,
    client_gravatar: false,
  });
}

const noteAll = (messages: Message[]) => noteRecent(messages.map((m) => [m, placeOf(m, store.selfId.value)]));

/** How many of the newest messages Recent conversations and the topic lists start from (Zulip's web app fetches a few hundred). */
const RECENT_FETCH = 400;

/**
 * Fills Recent conversations and the channels' topic lists with the conversations of the newest
 * messages, read ones included (register gives only unread messages and direct conversations),
 * as Zulip's web app does from its first fetch. Run after every register.
 */
export async function loadRecentConversations(): Promise<void> {
  const res = await get<MessagesAnswer>('/messages', {
    anchor: 'newest',
    num_before: RECENT_FETCH,
    num_after: 0,
    narrow: [],
    apply_markdown: false,
    client_gravatar: true,
  }).catch(() => null);
  if (!res) return;
  // Channels one has left stay out (Zulip's Recent conversations shows subscribed channels).
  const subscribed = new Set(store.subscriptions.value.map((s) => s.stream_id));
  noteAll(res.messages.filter((m) => m.type !== 'stream' || subscribed.has(m.stream_id!)));
}

/**
 * Where the reader was in each open feed when a re-register cleared the store (render-window.ts
 * notes it, and puts the reader back there): the first message on screen and its offset from the
 * top, or the bottom.
 */
export const resumePlaces = new Map<string, { id: number; offset: number; bottom: boolean }>();

/** Loads a feed the first time it is shown (again after a re-register cleared the store). */
export async function openFeed(v: FeedView): Promise<void> {
  const key = keyOf(v);
  const f = store.feeds.value.get(key);
  if (f && (f.loading || f.messages.length || f.foundOldest)) return;
  updateFeed(key, (x) => ({ ...x, loading: true, error: null }));
  try {
    // A message link opens around its message (a string anchor: the message itself included); after a
    // re-register, the feed opens where the reader was.
    const resume = resumePlaces.get(key);
    const near = resume && !resume.bottom ? resume.id : 'near' in v ? v.near : undefined;
    const res = await fetchPage(v, resume?.bottom ? 'newest' : near === undefined ? 'first_unread' : String(near), 50, 50);
    noteAll(res.messages);
    updateFeed(key, (x) => ({
      ...x,
      // Events that arrived meanwhile stay; the fetched page is merged by ID.
      messages: mergeById(res.messages, x.messages),
      foundOldest: res.found_oldest,
      foundNewest: res.found_newest,
      loading: false,
    }));
  } catch (err) {
    updateFeed(key, (x) => ({ ...x, loading: false, error: (err as Error).message }));
  }
}

function mergeById(a: Message[], b: Message[]): Message[] {
  const byId = new Map<number, Message>();
  for (const m of [...a, ...b]) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => x.id - y.id);
}

/** Loads older (or newer) messages of an open feed. */
export async function loadMore(v: FeedView, direction: 'older' | 'newer'): Promise<void> {
  const key = keyOf(v);
  const f = store.feeds.value.get(key);
  if (!f || f.loading || f.messages.length === 0) return;
  if (direction === 'older' ? f.foundOldest : f.foundNewest) return;
  updateFeed(key, (x) => ({ ...x, loading: true }));
  try {
    const ms = f.messages.filter((m) => !m.pending);
    const anchor = direction === 'older' ? ms[0]!.id : ms[ms.length - 1]!.id;
    const res = await fetchPage(v, anchor, direction === 'older' ? BATCH : 0, direction === 'newer' ? BATCH : 0);
    noteAll(res.messages);
    updateFeed(key, (x) => ({
      ...x,
      messages: mergeById(res.messages, x.messages),
      foundOldest: direction === 'older' ? res.found_oldest : x.foundOldest,
      foundNewest: direction === 'newer' ? res.found_newest : x.foundNewest,
      loading: false,
    }));
  } catch (err) {
    updateFeed(key, (x) => ({ ...x, loading: false, error: (err as Error).message }));
  }
}

const pendingRead = new Set<number>();
/** The pending batch's timer. */
const readBatch: { timer?: ReturnType<typeof setTimeout> } = {};

/**
 * Whether seeing a message in this view marks it read: Zulip's personal setting "Automatically mark
 * messages as read" (`web_mark_read_on_scroll_policy`: 1 always, Zulip's default; 2 only in
 * conversation views, a topic or a direct conversation; 3 never).
 */
export function marksReadWhenSeen(v: FeedView): boolean {
  const policy = store.userSettings.value.web_mark_read_on_scroll_policy ?? 1;
  return policy === 1 || (policy === 2 && (v.kind === 'topic' || v.kind === 'dm'));
}

/** Marks messages read soon (batched), once they have been seen in view `v` (as the person's setting allows). */
export function markSeen(ids: number[], v: FeedView | null): void {
  if (store.readPaused.value) return;
  if (v && !marksReadWhenSeen(v)) return;
  for (const id of ids) if (store.unread.value.has(id)) pendingRead.add(id);
  if (!pendingRead.size || readBatch.timer) return;
  readBatch.timer = setTimeout(() => {
    readBatch.timer = undefined;
    const batch = [...pendingRead].filter((id) => store.unread.value.has(id));
    pendingRead.clear();
    if (!batch.length) return;
    // On failure, retry soon what is still unread (a message deleted meanwhile fails the whole batch).
    markIdsRead(batch).catch(() => {
      batch.forEach((id) => store.unread.value.has(id) && pendingRead.add(id));
      setTimeout(() => markSeen([], null), 3000);
    });
  }, 400);
}

/** Marks these messages read now (the view's "Mark as read"). */
export function markIdsRead(ids: number[]): Promise<unknown> {
  return post('/messages/flags', { messages: ids, op: 'add', flag: 'read' });
}

/** "Mark all as read" for a channel or one of its topics. */
export function markChannelRead(streamId: number, topic?: string): Promise<unknown> {
  return topic === undefined
    ? post('/mark_stream_as_read', { stream_id: streamId })
    : post('/mark_topic_as_read', { stream_id: streamId, topic_name: topic });
}
