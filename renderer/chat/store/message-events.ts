/**
 * The appliers of the message events (appliers.ts holds the table): new, edited, moved and deleted
 * messages, flags, reactions and submessages, into the feeds, unread counts, mentions and Recent
 * conversations of the store they are given.
 */
import { topicKey } from '../../../server/protocol/conversation-keys.js';
import type { ClientEventOf as Of } from '../../../server/protocol/events.js';
import type { Effects } from './effects.js';
import { dmPeers, keyOf, matches, viewOf, isFeed, type MessageLike } from './narrow.js';
import { withSubmessage, type Submessage } from '../widgets/widgets.js';
import { noteRecent, placeKey, type Feed, type Message, type Store, type UnreadPlace } from './state.js';

export const placeOf = (m: Message, selfId: number): UnreadPlace =>
  m.type === 'stream' ? { streamId: m.stream_id!, topic: m.subject } : { peers: dmPeers(m, selfId).join(',') };

/** Whether the combined feed leaves a message out (a muted channel or topic), by a store's subscriptions and muted topics. */
export const mutedForFeedIn = (s: Store, m: MessageLike) =>
  m.type === 'stream' &&
  (s.subscriptions.value.find((x) => x.stream_id === m.stream_id)?.is_muted === true ||
    s.mutedTopics.value.has(topicKey(m.stream_id!, m.subject)));

/**
 * A topic or channel muted or unmuted while the combined feed is loaded: muting takes its messages
 * out at once; unmuting drops the feed, which loads afresh with them when next shown.
 */
export function feedMutingChanged(s: Store, muted: boolean): void {
  const key = keyOf({ kind: 'feed' });
  const f = s.feeds.value.get(key);
  if (!f) return;
  const next = new Map(s.feeds.value);
  if (muted) next.set(key, { ...f, messages: f.messages.filter((m) => !mutedForFeedIn(s, m)) });
  else next.delete(key);
  s.feeds.value = next;
}

/** Rewrites every loaded copy of some messages (content edits, flags, reactions). */
function mapMessages(s: Store, ids: Set<number>, change: (m: Message) => Message): void {
  const next = new Map(s.feeds.value);
  let changed = false;
  for (const [key, f] of next) {
    if (!f.messages.some((m) => ids.has(m.id))) continue;
    next.set(key, { ...f, messages: f.messages.map((m) => (ids.has(m.id) ? change(m) : m)) });
    changed = true;
  }
  if (changed) s.feeds.value = next;
}

/** Drops messages from the feeds they no longer belong in (deleted, moved away, unstarred). */
function refilter(s: Store, keep: (key: string, m: Message) => boolean): void {
  const next = new Map(s.feeds.value);
  for (const [key, f] of next) next.set(key, { ...f, messages: f.messages.filter((m) => keep(key, m)) });
  s.feeds.value = next;
}

const belongsIn = (s: Store) => (key: string, m: Message) => {
  const v = viewOf(key);
  return !isFeed(v) || matches(v, m, s.selfId.value, () => false);
};

export function onMessage(s: Store, e: Of<'message'>, fx: Effects): void {
  const selfId = s.selfId.value;
  const m: Message = { ...e.message, flags: e.flags ?? [], reactions: e.message.reactions ?? [] };
  if (m.type === 'stream') fx.topicSeen(m.stream_id!, m.subject, m.id);
  const next = new Map(s.feeds.value);
  for (const [key, f] of next) {
    const v = viewOf(key);
    if (!isFeed(v) || !f.foundNewest || !matches(v, m, selfId, (x) => mutedForFeedIn(s, x))) continue;
    const local = e.local_message_id !== undefined ? String(e.local_message_id) : null;
    const kept = f.messages.filter((x) => x.id !== m.id && !(local !== null && x.pending && String(x.id) === local));
    next.set(key, { ...f, messages: [...kept, m] });
  }
  s.feeds.value = next;
  const place = placeOf(m, selfId);
  noteRecent([[m, place]], s);
  if (!m.flags.includes('read')) {
    const unread = new Map(s.unread.value);
    unread.set(m.id, place);
    s.unread.value = unread;
    if (m.flags.some((f) => f === 'mentioned' || f.endsWith('wildcard_mentioned'))) s.mentions.value = new Set([...s.mentions.value, m.id]);
  }
  fx.newMessage(m);
}

export function onFlags(s: Store, e: Of<'update_message_flags'>): void {
  const ids = e.messages ?? [];
  const add = e.op === 'add';
  if (e.flag === 'read') {
    const unread = new Map(s.unread.value);
    const mentions = new Set(s.mentions.value);
    if (add && e.all) {
      unread.clear();
      mentions.clear();
    } else if (add) {
      for (const id of ids) {
        unread.delete(id);
        mentions.delete(id);
      }
    } else {
      for (const id of ids) {
        const d = e.message_details?.[String(id)];
        if (!d) continue;
        const others = d.type === 'private' ? (d.user_ids ?? []).filter((u) => u !== s.selfId.value) : [];
        unread.set(id, d.type === 'stream' ? { streamId: d.stream_id, topic: d.topic } : { peers: others.sort((x, y) => x - y).join(',') });
        if (d.mentioned) mentions.add(id);
      }
    }
    s.unread.value = unread;
    s.mentions.value = mentions;
  }
  const set = new Set(ids);
  mapMessages(s, set, (m) => ({ ...m, flags: add ? [...new Set([...m.flags, e.flag])] : m.flags.filter((f) => f !== e.flag) }));
  if (e.flag === 'starred' && !add) refilter(s, (key, m) => !(key === STARRED && set.has(m.id)));
  if (e.flag === 'starred' && add) joinStarred(s, set);
}

const STARRED = keyOf({ kind: 'starred' });

/**
 * Messages starred elsewhere join a loaded Starred feed from a loaded copy (joinFeeds). One not
 * loaded anywhere (starred by another client) drops the feed, which loads afresh when next shown.
 */
function joinStarred(s: Store, ids: Set<number>): void {
  const f = s.feeds.value.get(STARRED);
  if (!f) return;
  if (![...ids].some((id) => inRange(f, id) && !f.messages.some((m) => m.id === id) && !findLoaded(s, id))) return joinFeeds(s, ids);
  const next = new Map(s.feeds.value);
  next.delete(STARRED);
  s.feeds.value = next;
}

/** Whether a message ID falls within what a feed has loaded (a feed that has loaded neither end keeps its range). */
function inRange(f: Feed, id: number): boolean {
  const first = f.messages[0]?.id;
  const last = f.messages.at(-1)?.id;
  return (f.foundOldest || (first !== undefined && id > first)) && (f.foundNewest || (last !== undefined && id < last));
}

/**
 * Moved (or newly starred) messages join the loaded feeds they now belong in, where they fall
 * within what the feed has loaded.
 */
function joinFeeds(s: Store, ids: Set<number>): void {
  const moved = [...ids].map((id) => findLoaded(s, id)).filter((m): m is Message => m !== undefined);
  if (!moved.length) return;
  const next = new Map(s.feeds.value);
  let changed = false;
  for (const [key, f] of next) {
    const v = viewOf(key);
    if (!isFeed(v)) continue;
    const have = new Set(f.messages.map((m) => m.id));
    const joining = moved.filter((m) => !have.has(m.id) && inRange(f, m.id) && matches(v, m, s.selfId.value, (x) => mutedForFeedIn(s, x)));
    if (!joining.length) continue;
    next.set(key, { ...f, messages: [...f.messages, ...joining].sort((a, b) => a.id - b.id) });
    changed = true;
  }
  if (changed) s.feeds.value = next;
}

/** A loaded copy of a message, from whichever feed has it. */
function findLoaded(s: Store, id: number): Message | undefined {
  for (const f of s.feeds.value.values()) {
    const m = f.messages.find((x) => x.id === id);
    if (m) return m;
  }
  return undefined;
}

export function onUpdateMessage(s: Store, e: Of<'update_message'>, fx: Effects): void {
  const ids = new Set<number>(e.message_ids ?? [e.message_id]);
  const html = e.rendered_content;
  if (html !== undefined) {
    // A rendering_only update (the server made an image's thumbnail) is no edit: no "(edited)" mark.
    mapMessages(s, new Set([e.message_id]), (m) =>
      e.rendering_only ? { ...m, content: html } : { ...m, content: html, last_edit_timestamp: e.edit_timestamp },
    );
  }
  const newStream = e.new_stream_id;
  const newTopic = e.subject;
  if (newStream === undefined && newTopic === undefined) return;
  // A topic moved or renamed: the topic lists of both channels are fetched again.
  fx.topicsChanged([e.stream_id, newStream]);
  mapMessages(s, ids, (m) => ({ ...m, stream_id: newStream ?? m.stream_id, subject: newTopic ?? m.subject }));
  refilter(s, belongsIn(s));
  joinFeeds(s, ids);
  moveRecent(s, e, ids, newStream, newTopic);
  const unread = new Map(s.unread.value);
  for (const id of ids) {
    const p = unread.get(id);
    if (p && !('peers' in p)) unread.set(id, { streamId: newStream ?? p.streamId, topic: newTopic ?? p.topic });
  }
  s.unread.value = unread;
}

/**
 * A whole topic moved (renamed, resolved, to another channel): Recent conversations follow it,
 * merged with a conversation already there, as Zulip's recent view does.
 */
function moveRecent(s: Store, e: Of<'update_message'>, ids: Set<number>, newStream: number | undefined, newTopic: string | undefined): void {
  if (e.propagate_mode !== 'change_all' || typeof e.stream_id !== 'number') return;
  const recent = s.recent.value;
  // Its key: by the old topic's name, or (a channel move keeps the name) by its newest message, one of those moved.
  const from =
    typeof e.orig_subject === 'string'
      ? placeKey({ streamId: e.stream_id, topic: e.orig_subject })
      : [...recent].find(([, r]) => !('peers' in r.place) && r.place.streamId === e.stream_id && ids.has(r.maxId))?.[0];
  const old = from === undefined ? undefined : recent.get(from);
  if (!old || 'peers' in old.place) return;
  const place = { streamId: newStream ?? old.place.streamId, topic: newTopic ?? old.place.topic };
  const next = new Map(recent);
  next.delete(from!);
  const to = placeKey(place);
  const there = next.get(to);
  const newer = !there || old.maxId >= there.maxId;
  const [first, second] = newer ? [old, there] : [there!, old];
  next.set(to, {
    place,
    maxId: first.maxId,
    timestamp: first.timestamp,
    senders: [...new Set([...first.senders, ...(second?.senders ?? [])])].slice(0, 10),
  });
  s.recent.value = next;
}

export function onDelete(s: Store, e: Of<'delete_message'>, fx: Effects): void {
  if (e.message_type === 'stream') fx.topicsChanged([e.stream_id]);
  const ids = new Set<number>('message_ids' in e ? e.message_ids : [e.message_id]);
  refilter(s, (_k, m) => !ids.has(m.id));
  forgetRecent(s, ids);
  const unread = new Map(s.unread.value);
  for (const id of ids) unread.delete(id);
  s.unread.value = unread;
  s.mentions.value = new Set([...s.mentions.value].filter((id) => !ids.has(id)));
}

/**
 * Recent conversations whose newest message was deleted: their newest is the newest loaded message
 * left in them, and a conversation with none left loaded leaves the list (as Zulip's recent view).
 */
function forgetRecent(s: Store, ids: Set<number>): void {
  const hit = new Set([...s.recent.value].filter(([, r]) => ids.has(r.maxId)).map(([key]) => key));
  if (!hit.size) return;
  const next = new Map(s.recent.value);
  for (const key of hit) next.delete(key);
  s.recent.value = next;
  // Noted again from what is loaded, as a fresh start notes them: the newest, and who wrote.
  const selfId = s.selfId.value;
  const left = new Map<number, [Message, UnreadPlace]>();
  for (const f of s.feeds.value.values())
    for (const m of f.messages) {
      const place = placeOf(m, selfId);
      if (!m.pending && hit.has(placeKey(place))) left.set(m.id, [m, place]);
    }
  noteRecent([...left.values()].sort(([a], [b]) => a.id - b.id), s);
}

export function onReaction(s: Store, e: Of<'reaction'>): void {
  const r = { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id };
  mapMessages(s, new Set([e.message_id]), (m) => ({
    ...m,
    reactions:
      e.op === 'add'
        ? [...m.reactions, r]
        : m.reactions.filter((x) => !(x.user_id === r.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type)),
  }));
  // The Reactions view (messages of mine with reactions): one that lost its last reaction leaves it;
  // one newly reacted to that it has not loaded makes it load afresh (the event has no message).
  const key = keyOf({ kind: 'reactions' });
  const f = s.feeds.value.get(key);
  if (!f) return;
  const next = new Map(s.feeds.value);
  if (e.op === 'remove') {
    // Only this feed changes (a new object for every feed would re-render them all).
    const kept = f.messages.filter((m) => belongsIn(s)(key, m));
    if (kept.length === f.messages.length) return;
    next.set(key, { ...f, messages: kept });
  } else {
    if (f.messages.some((m) => m.id === e.message_id)) return;
    // A message loaded somewhere and not mine is none of its business.
    for (const x of s.feeds.value.values()) {
      const known = x.messages.find((m) => m.id === e.message_id);
      if (known) {
        if (known.sender_id !== s.selfId.value) return;
        break;
      }
    }
    next.delete(key);
  }
  s.feeds.value = next;
}

/** A poll vote, option, task, tick or title (`submessage`): added to every loaded copy of its message, once. */
export function onSubmessage(s: Store, e: Of<'submessage'>): void {
  const sub: Submessage = { id: e.submessage_id, message_id: e.message_id, sender_id: e.sender_id, msg_type: e.msg_type, content: e.content };
  if (typeof sub.id !== 'number' || typeof sub.content !== 'string') return;
  const has = (m: Message) => m.submessages?.some((x) => x.id === sub.id) === true;
  const next = new Map(s.feeds.value);
  let changed = false;
  for (const [key, f] of next) {
    if (!f.messages.some((m) => m.id === sub.message_id && !has(m))) continue;
    next.set(key, { ...f, messages: f.messages.map((m) => (m.id === sub.message_id && !has(m) ? { ...m, submessages: withSubmessage(m.submessages, sub) } : m)) });
    changed = true;
  }
  if (changed) s.feeds.value = next;
}
