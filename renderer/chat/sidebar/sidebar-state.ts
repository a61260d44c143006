/**
 * What the left sidebar needs beyond the main store, as Zulip's web app keeps it:
 * - each channel's topics as the server lists them (`GET /users/me/{stream_id}/topics`),
 *   fetched when the channel is first opened in the sidebar and kept current by events (the
 *   page's effects of applying them, apply-event.ts: a new message notes its topic; a move or
 *   deletion refetches the channels it touched), so a topic never disappears because its messages
 *   are no longer loaded;
 * - the sections the store's channel folders (`store.channelFolders`) make;
 * - which topics the open channel shows (Zulip's topic_list_data: the 8 most recent, older
 *   ones with unread messages up to 12, the open topic always, muted topics only under
 *   "More topics") and how the channels group into sections (Zulip's stream_list_sort).
 */
import { computed, signal } from '@preact/signals';
import { get } from '../store/api.js';
import { topicKey } from '../../../server/protocol/conversation-keys.js';
import type { RegisterState } from '../../../server/protocol/register.js';
import { isTopicMuted, store, unreadCounts, type Subscription } from '../store/state.js';

export interface TopicRow {
  name: string;
  maxId: number;
}

interface History {
  /** Lower-case topic name → the topic as last written and its newest message ID. */
  topics: Map<string, TopicRow>;
  state: 'loading' | 'loaded' | 'failed';
}

/** Channel ID → its topic history (absent: never asked for). */
export const topicHistory = signal(new Map<number, History>());

/** Topics noted by events while a channel's history was being fetched (merged into the answer). */
const noted = new Map<number, TopicRow[]>();
/** Bumped on each fetch of a channel, so an older answer never overwrites a newer one. */
const fetchSeq = new Map<number, number>();

const lower = (s: string) => s.toLowerCase();

function setHistory(streamId: number, h: History | null): void {
  const next = new Map(topicHistory.value);
  if (h) next.set(streamId, h);
  else next.delete(streamId);
  topicHistory.value = next;
}

function noteInto(topics: Map<string, TopicRow>, row: TopicRow): void {
  const had = topics.get(lower(row.name));
  if (!had || had.maxId <= row.maxId) topics.set(lower(row.name), { ...row });
}

/** Fetches a channel's topics (again with `force`: after a move or deletion, or a re-register). */
export function loadTopicHistory(streamId: number, force = false): void {
  const had = topicHistory.value.get(streamId);
  if (had && !force && had.state !== 'failed') return;
  const seq = (fetchSeq.get(streamId) ?? 0) + 1;
  fetchSeq.set(streamId, seq);
  noted.set(streamId, []);
  // While refetching, the list shown stays what it was.
  setHistory(streamId, { topics: had?.topics ?? new Map(), state: had?.state === 'loaded' ? 'loaded' : 'loading' });
  get<{ topics: { name: string; max_id: number }[] }>(`/users/me/${streamId}/topics`, { allow_empty_topic_name: true })
    .then((r) => {
      if (fetchSeq.get(streamId) !== seq) return;
      const topics = new Map<string, TopicRow>();
      for (const t of r.topics) noteInto(topics, { name: t.name, maxId: t.max_id });
      for (const row of noted.get(streamId) ?? []) noteInto(topics, row);
      noted.delete(streamId);
      setHistory(streamId, { topics, state: 'loaded' });
    })
    .catch(() => {
      if (fetchSeq.get(streamId) !== seq) return;
      noted.delete(streamId);
      setHistory(streamId, { topics: had?.topics ?? new Map(), state: 'failed' });
    });
}

/** A new message: its topic goes to the top of its channel's list. */
export function noteTopicMessage(streamId: number, topic: string, id: number): void {
  const h = topicHistory.value.get(streamId);
  if (!h) return;
  noted.get(streamId)?.push({ name: topic, maxId: id });
  const topics = new Map(h.topics);
  noteInto(topics, { name: topic, maxId: id });
  setHistory(streamId, { ...h, topics });
}

/** Refetches the channels whose topics are already known (others load when opened). */
export function refetchTopicHistory(ids: Iterable<number | undefined | null>): void {
  for (const id of new Set(ids)) if (typeof id === 'number' && topicHistory.value.has(id)) loadTopicHistory(id, true);
}

/** Whose register the sidebar state came from. */
const registeredAs = signal<number | null>(null);

/**
 * From each register: every topic list known so far fetched again (events may have been missed);
 * someone else signed in on the page starts with none.
 */
export function loadSidebarState(r: RegisterState): void {
  if (registeredAs.peek() !== Number(r.user_id)) {
    registeredAs.value = Number(r.user_id);
    fetchSeq.clear();
    noted.clear();
    topicHistory.value = new Map();
    return;
  }
  for (const id of topicHistory.value.keys()) loadTopicHistory(id, true);
}

/** Unsubscribed: the channel's topics are asked for anew when it is opened again. */
export const forgetTopicHistory = (streamId: number) => setHistory(streamId, null);

/** Zulip's web_left_sidebar_show_channel_folders (on unless the server says off). */
export const showChannelFolders = computed(() => store.userSettings.value.web_left_sidebar_show_channel_folders !== false);

/** How many recent topics an open channel shows, and up to how many with older unread ones (Zulip's numbers). */
export const MAX_TOPICS = 8;
export const MAX_TOPICS_WITH_UNREAD = 12;

export interface SidebarTopic {
  name: string;
  unread: number;
  muted: boolean;
  active: boolean;
  /** An unread message there mentions the user. */
  mentioned: boolean;
}

/** Every topic of a channel, newest first: the server's list, plus any topic with unread messages. */
export function allTopics(streamId: number): TopicRow[] {
  const h = topicHistory.value.get(streamId);
  const topics = new Map(h?.topics ?? []);
  for (const [id, place] of store.unread.value) {
    if ('peers' in place || place.streamId !== streamId) continue;
    noteInto(topics, { name: topics.get(lower(place.topic))?.name ?? place.topic, maxId: Math.max(id, topics.get(lower(place.topic))?.maxId ?? 0) });
  }
  if (!h || h.state !== 'loaded') {
    // Until the server answers: what the loaded messages show.
    for (const r of store.recent.value.values()) {
      if ('peers' in r.place || r.place.streamId !== streamId || topics.has(lower(r.place.topic))) continue;
      topics.set(lower(r.place.topic), { name: r.place.topic, maxId: r.maxId });
    }
  }
  return [...topics.values()].sort((a, b) => b.maxId - a.maxId);
}

const isUnmutedOrFollowed = (streamId: number, topic: string) => {
  const p = store.userTopics.value.get(topicKey(streamId, topic))?.visibility_policy;
  return p === 2 || p === 3;
};

/** Zulip's word-prefix match: every word typed begins some word of the topic. */
export function topicMatches(label: string, query: string): boolean {
  const words = lower(label).split(/[\s/:_-]+/).filter(Boolean);
  const wanted = lower(query).trim().split(/\s+/).filter(Boolean);
  return wanted.every((w) => words.some((x) => x.startsWith(w)) || lower(label).startsWith(wanted.join(' ')));
}

/**
 * The topics the sidebar shows under an open channel. Not zoomed: the MAX_TOPICS most recent,
 * then older ones with unread messages up to MAX_TOPICS_WITH_UNREAD, the open topic always,
 * muted topics never (in a muted channel, unmuted and followed topics first). Zoomed ("More
 * topics"): all of them, muted ones included, those matching the filter.
 */
export function sidebarTopics(
  streamId: number,
  activeTopic: string | null,
  zoomed: boolean,
  filter: string,
  label: (t: string) => string,
): { items: SidebarTopic[]; total: number; hiddenUnread: number } {
  // The store's counts per topic (muted topics counted too), computed once per change, not per render.
  const counts = unreadCounts.value.topics;
  const mentioned = new Set<string>();
  for (const id of store.mentions.value) {
    const place = store.unread.value.get(id);
    if (place && !('peers' in place) && place.streamId === streamId) mentioned.add(lower(place.topic));
  }
  let names = allTopics(streamId).map((t) => t.name);
  if (activeTopic !== null && !names.some((n) => lower(n) === lower(activeTopic))) names.unshift(activeTopic);
  if (zoomed && filter.trim()) names = names.filter((n) => topicMatches(label(n), filter));
  const sub = store.subscriptions.value.find((s) => s.stream_id === streamId);
  if (sub?.is_muted && !zoomed) {
    names = [...names.filter((n) => isUnmutedOrFollowed(streamId, n)), ...names.filter((n) => !isUnmutedOrFollowed(streamId, n))];
  }
  const items: SidebarTopic[] = [];
  let hiddenUnread = 0;
  names.forEach((name, idx) => {
    const unread = counts.get(topicKey(streamId, name)) ?? 0;
    const muted = isTopicMuted(streamId, name);
    const active = activeTopic !== null && lower(activeTopic) === lower(name);
    const show =
      zoomed ||
      active ||
      (!muted && ((idx < MAX_TOPICS && items.length < MAX_TOPICS) || (unread > 0 && items.length < MAX_TOPICS_WITH_UNREAD)));
    if (show) items.push({ name, unread, muted, active, mentioned: mentioned.has(lower(name)) });
    else if (!muted) hiddenUnread += unread;
  });
  return { items, total: names.length, hiddenUnread };
}

const COLLAPSED_KEY = 'hearth.sidebar.collapsed';

function readCollapsed(): Set<string> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(COLLAPSED_KEY) ?? '[]');
    return new Set(Array.isArray(v) ? v.map(String) : []);
  } catch {
    return new Set();
  }
}

/** The channel sections folded away (by section ID), remembered in this browser as Zulip's web app does. */
export const collapsedSections = signal(readCollapsed());

export function toggleSection(id: string): void {
  const next = new Set(collapsedSections.value);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  collapsedSections.value = next;
  try {
    localStorage.setItem(COLLAPSED_KEY, JSON.stringify([...next]));
  } catch {
    /* storage blocked: folded for this page only */
  }
}

export interface ChannelSection {
  /** 'pinned', 'other', or the folder's ID. */
  id: string;
  title: string | null;
  channels: Subscription[];
}

/**
 * The sidebar's channel sections, as Zulip's stream_list_sort makes them: pinned channels, then
 * each folder holding an unmuted channel in the folders' order, then the channels in no folder
 * ("Other", or no title when there is nothing else), then folders whose channels are all muted.
 * Within a section, unmuted channels by name, then muted ones. A filter matching a folder's
 * name keeps all its channels.
 */
export function channelSections(filter: string): ChannelSection[] {
  const q = lower(filter.trim());
  const folders = showChannelFolders.value ? store.channelFolders.value : [];
  const folderOf = (s: Subscription) => {
    const id = s.folder_id;
    return typeof id === 'number' ? folders.find((f) => f.id === id) : undefined;
  };
  const subs = store.subscriptions.value.filter((s) => !q || lower(s.name).includes(q) || (folderOf(s) && lower(folderOf(s)!.name).includes(q)));
  const sorted = (list: Subscription[]) =>
    [...list].sort((a, b) => Number(a.is_muted) - Number(b.is_muted) || a.name.localeCompare(b.name));
  const pinned = subs.filter((s) => s.pin_to_top);
  const rest = subs.filter((s) => !s.pin_to_top);
  const inFolder = folders
    .map((f) => ({ id: String(f.id), title: f.name, channels: sorted(rest.filter((s) => folderOf(s)?.id === f.id)) }))
    .filter((sec) => sec.channels.length > 0);
  const other = sorted(rest.filter((s) => !folderOf(s)));
  const active = inFolder.filter((sec) => sec.channels.some((s) => !s.is_muted));
  const demoted = inFolder.filter((sec) => !sec.channels.some((s) => !s.is_muted));
  const grouped = pinned.length > 0 || inFolder.length > 0;
  return [
    ...(pinned.length ? [{ id: 'pinned', title: 'Pinned', channels: sorted(pinned) }] : []),
    ...active,
    ...(other.length ? [{ id: 'other', title: grouped ? 'Other' : null, channels: other }] : []),
    ...demoted,
  ];
}
