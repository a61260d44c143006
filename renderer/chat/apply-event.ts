/** Applies one server event to the store (the client half of Zulip's event system). */
import { topicKey } from '../../server/protocol/conversation-keys.js';
import type { ClientEvent, ClientEventOf } from '../../server/protocol/events.js';
import { dmPeers, keyOf, matches, viewOf, isFeed, type MessageLike } from './narrow.js';
import { notifyNewMessage } from './notifications.js';
import { applyComposeEvent } from './compose-events.js';
import { applyPeopleEvent } from './people-state.js';
import { applySidebarEvent } from './sidebar-state.js';
import { withSubmessage, type Submessage } from './widgets.js';
import { MESSAGE_RULES, store, noteRecent, placeKey, type Message, type UnreadPlace } from './state.js';

/** The events of one type, as the server sends them (server/protocol/events.ts). */
type Of<T extends ClientEvent['type']> = ClientEventOf<T>;

const TYPING_EXPIRY_MS = 15_000;

export const placeOf = (m: Message, selfId: number): UnreadPlace =>
  m.type === 'stream' ? { streamId: m.stream_id!, topic: m.subject } : { peers: dmPeers(m, selfId).join(',') };

/** Whether the combined feed leaves a message out (a muted channel or topic). */
export const mutedForFeed = (m: MessageLike) =>
  m.type === 'stream' &&
  (store.subscriptions.value.find((s) => s.stream_id === m.stream_id)?.is_muted === true ||
    store.mutedTopics.value.has(topicKey(m.stream_id!, m.subject)));

/** Rewrites every loaded copy of some messages (content edits, flags, reactions). */
function mapMessages(ids: Set<number>, change: (m: Message) => Message): void {
  const next = new Map(store.feeds.value);
  let changed = false;
  for (const [key, f] of next) {
    if (!f.messages.some((m) => ids.has(m.id))) continue;
    next.set(key, { ...f, messages: f.messages.map((m) => (ids.has(m.id) ? change(m) : m)) });
    changed = true;
  }
  if (changed) store.feeds.value = next;
}

/** Drops messages from the feeds they no longer belong in (deleted, moved away, unstarred). */
function refilter(keep: (key: string, m: Message) => boolean): void {
  const next = new Map(store.feeds.value);
  for (const [key, f] of next) next.set(key, { ...f, messages: f.messages.filter((m) => keep(key, m)) });
  store.feeds.value = next;
}

const belongs = (key: string, m: Message) => {
  const v = viewOf(key);
  return !isFeed(v) || matches(v, m, store.selfId.value, () => false);
};

function onMessage(e: Of<'message'>): void {
  const selfId = store.selfId.value;
  const m: Message = { ...e.message, flags: e.flags ?? [], reactions: e.message.reactions ?? [] };
  const next = new Map(store.feeds.value);
  for (const [key, f] of next) {
    const v = viewOf(key);
    if (!isFeed(v) || !f.foundNewest || !matches(v, m, selfId, mutedForFeed)) continue;
    const local = e.local_message_id !== undefined ? String(e.local_message_id) : null;
    const kept = f.messages.filter((x) => x.id !== m.id && !(local !== null && x.pending && String(x.id) === local));
    next.set(key, { ...f, messages: [...kept, m] });
  }
  store.feeds.value = next;
  const place = placeOf(m, selfId);
  noteRecent([[m, place]]);
  if (!m.flags.includes('read')) {
    const unread = new Map(store.unread.value);
    unread.set(m.id, place);
    store.unread.value = unread;
    if (m.flags.some((f) => f === 'mentioned' || f.endsWith('wildcard_mentioned'))) store.mentions.value = new Set([...store.mentions.value, m.id]);
  }
  notifyNewMessage(m);
}

function onFlags(e: Of<'update_message_flags'>): void {
  const ids = e.messages ?? [];
  const add = e.op === 'add';
  if (e.flag === 'read') {
    const unread = new Map(store.unread.value);
    const mentions = new Set(store.mentions.value);
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
        const others = d.type === 'private' ? (d.user_ids ?? []).filter((u) => u !== store.selfId.value) : [];
        unread.set(id, d.type === 'stream' ? { streamId: d.stream_id, topic: d.topic } : { peers: others.sort((x, y) => x - y).join(',') });
        if (d.mentioned) mentions.add(id);
      }
    }
    store.unread.value = unread;
    store.mentions.value = mentions;
  }
  const set = new Set(ids);
  mapMessages(set, (m) => ({ ...m, flags: add ? [...new Set([...m.flags, e.flag])] : m.flags.filter((f) => f !== e.flag) }));
  if (e.flag === 'starred' && !add) refilter((key, m) => !(key === '#narrow/is/starred' && set.has(m.id)));
}

function onUpdateMessage(e: Of<'update_message'>): void {
  const ids = new Set<number>(e.message_ids ?? [e.message_id]);
  const html = e.rendered_content;
  if (html !== undefined) {
    // A rendering_only update (the server made an image's thumbnail) is no edit: no "(edited)" mark.
    mapMessages(new Set([e.message_id]), (m) =>
      e.rendering_only ? { ...m, content: html } : { ...m, content: html, last_edit_timestamp: e.edit_timestamp },
    );
  }
  const newStream = e.new_stream_id;
  const newTopic = e.subject;
  if (newStream === undefined && newTopic === undefined) return;
  mapMessages(ids, (m) => ({ ...m, stream_id: newStream ?? m.stream_id, subject: newTopic ?? m.subject }));
  refilter(belongs);
  moveRecent(e, ids, newStream, newTopic);
  const unread = new Map(store.unread.value);
  for (const id of ids) {
    const p = unread.get(id);
    if (p && !('peers' in p)) unread.set(id, { streamId: newStream ?? p.streamId, topic: newTopic ?? p.topic });
  }
  store.unread.value = unread;
}

/**
 * A whole topic moved (renamed, resolved, to another channel): Recent conversations follow it,
 * merged with a conversation already there, as Zulip's recent view does.
 */
function moveRecent(e: Of<'update_message'>, ids: Set<number>, newStream: number | undefined, newTopic: string | undefined): void {
  if (e.propagate_mode !== 'change_all' || typeof e.stream_id !== 'number') return;
  const recent = store.recent.value;
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
  store.recent.value = next;
}

function onDelete(e: Of<'delete_message'>): void {
  const ids = new Set<number>('message_ids' in e ? e.message_ids : [e.message_id]);
  refilter((_k, m) => !ids.has(m.id));
  const unread = new Map(store.unread.value);
  for (const id of ids) unread.delete(id);
  store.unread.value = unread;
  store.mentions.value = new Set([...store.mentions.value].filter((id) => !ids.has(id)));
}

function onReaction(e: Of<'reaction'>): void {
  const r = { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id };
  mapMessages(new Set([e.message_id]), (m) => ({
    ...m,
    reactions:
      e.op === 'add'
        ? [...m.reactions, r]
        : m.reactions.filter((x) => !(x.user_id === r.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type)),
  }));
  // The Reactions view (messages of mine with reactions): one that lost its last reaction leaves it;
  // one newly reacted to that it has not loaded makes it load afresh (the event has no message).
  const key = keyOf({ kind: 'reactions' });
  const f = store.feeds.value.get(key);
  if (!f) return;
  const next = new Map(store.feeds.value);
  if (e.op === 'remove') {
    // Only this feed changes (a new object for every feed would re-render them all).
    const kept = f.messages.filter((m) => belongs(key, m));
    if (kept.length === f.messages.length) return;
    next.set(key, { ...f, messages: kept });
  } else {
    if (f.messages.some((m) => m.id === e.message_id)) return;
    // A message loaded somewhere and not mine is none of its business.
    for (const x of store.feeds.value.values()) {
      const known = x.messages.find((m) => m.id === e.message_id);
      if (known) {
        if (known.sender_id !== store.selfId.value) return;
        break;
      }
    }
    next.delete(key);
  }
  store.feeds.value = next;
}

/** A poll vote, option, task, tick or title (`submessage`): added to every loaded copy of its message, once. */
function onSubmessage(e: Of<'submessage'>): void {
  const s: Submessage = { id: e.submessage_id, message_id: e.message_id, sender_id: e.sender_id, msg_type: e.msg_type, content: e.content };
  if (typeof s.id !== 'number' || typeof s.content !== 'string') return;
  const has = (m: Message) => m.submessages?.some((x) => x.id === s.id) === true;
  const next = new Map(store.feeds.value);
  let changed = false;
  for (const [key, f] of next) {
    if (!f.messages.some((m) => m.id === s.message_id && !has(m))) continue;
    next.set(key, { ...f, messages: f.messages.map((m) => (m.id === s.message_id && !has(m) ? { ...m, submessages: withSubmessage(m.submessages, s) } : m)) });
    changed = true;
  }
  if (changed) store.feeds.value = next;
}

function onSubscription(e: Of<'subscription'>): void {
  if (e.op === 'add') {
    const added = e.subscriptions;
    const ids = new Set(added.map((s) => s.stream_id));
    store.subscriptions.value = [...store.subscriptions.value.filter((s) => !ids.has(s.stream_id)), ...added];
    const channels = new Map(store.channels.value);
    for (const s of added) channels.set(s.stream_id, s);
    store.channels.value = channels;
  } else if (e.op === 'remove') {
    const ids = new Set(e.subscriptions.map((s) => s.stream_id));
    store.subscriptions.value = store.subscriptions.value.filter((s) => !ids.has(s.stream_id));
  } else if (e.op === 'update') {
    store.subscriptions.value = store.subscriptions.value.map((s) => (s.stream_id === e.stream_id ? { ...s, [e.property]: e.value } : s));
  }
}

function onStream(e: Of<'stream'>): void {
  const channels = new Map(store.channels.value);
  if (e.op === 'create') for (const c of e.streams) channels.set(c.stream_id, c);
  else if (e.op === 'delete') for (const c of e.streams) channels.delete(c.stream_id);
  else if (e.op === 'update') {
    const c = channels.get(e.stream_id);
    if (c) channels.set(e.stream_id, { ...c, [e.property]: e.value, ...(e.rendered_description !== undefined ? { rendered_description: e.rendered_description } : {}) });
    store.subscriptions.value = store.subscriptions.value.map((s) => (s.stream_id === e.stream_id ? { ...s, [e.property]: e.value } : s));
  }
  store.channels.value = channels;
}

function onUser(e: Of<'realm_user'>): void {
  const users = new Map(store.users.value);
  if (e.op === 'add') users.set(e.person.user_id, e.person);
  else if (e.op === 'update') {
    const u = users.get(e.person.user_id);
    if (u) users.set(e.person.user_id, { ...u, ...e.person });
  } else if (e.op === 'remove') users.delete(e.person.user_id);
  store.users.value = users;
}

/** The conversation a typing event is about, as feeds key it. */
function typingKey(e: Of<'typing'>): string {
  if (e.message_type === 'stream') return `topic:${topicKey(e.stream_id, e.topic)}`;
  const ids = e.recipients.map((r) => r.user_id).filter((id) => id !== store.selfId.value);
  return `dm:${ids.sort((a, b) => a - b).join(',')}`;
}

const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setTyping(key: string, userId: number, on: boolean): void {
  const next = new Map(store.typing.value);
  const list = (next.get(key) ?? []).filter((id) => id !== userId);
  if (on) list.push(userId);
  if (list.length) next.set(key, list);
  else next.delete(key);
  store.typing.value = next;
  const timer = `${key}|${userId}`;
  clearTimeout(typingTimers.get(timer));
  if (on) typingTimers.set(timer, setTimeout(() => setTyping(key, userId, false), TYPING_EXPIRY_MS));
}

function onTyping(e: Of<'typing'>): void {
  const sender = e.sender?.user_id;
  if (sender === store.selfId.value) return;
  setTyping(typingKey(e), sender, e.op === 'start');
}

export function applyEvent(e: ClientEvent): void {
  applyPeopleEvent(e);
  applySidebarEvent(e);
  if (applyComposeEvent(e)) return;
  switch (e.type) {
    case 'message':
      return onMessage(e);
    case 'update_message_flags':
      return onFlags(e);
    case 'update_message':
      return onUpdateMessage(e);
    case 'delete_message':
      return onDelete(e);
    case 'reaction':
      return onReaction(e);
    case 'submessage':
      return onSubmessage(e);
    case 'subscription':
      return onSubscription(e);
    case 'stream':
      return onStream(e);
    case 'realm_user':
      return onUser(e);
    case 'typing':
      return onTyping(e);
    case 'presence': {
      const next = new Map(store.presence.value);
      for (const [id, p] of Object.entries('presences' in e ? e.presences : {})) next.set(Number(id), p.active_timestamp);
      store.presence.value = next;
      return;
    }
    case 'user_topic': {
      const next = new Set(store.mutedTopics.value);
      const key = topicKey(e.stream_id, e.topic_name);
      if (e.visibility_policy === 1) next.add(key);
      else next.delete(key);
      store.mutedTopics.value = next;
      return;
    }
    case 'realm': {
      if (e.op === 'update' && e.property === 'name') store.realmName.value = String(e.value);
      // The rules message actions follow (editing, deleting, moving, reporting).
      const data: Record<string, unknown> = e.op === 'update' ? { [e.property]: e.value } : e.op === 'update_dict' ? (e.data ?? {}) : {};
      if (typeof data.max_file_upload_size_mib === 'number') store.maxFileUploadMib.value = data.max_file_upload_size_mib;
      const rules = Object.entries(data).filter(([k]) => MESSAGE_RULES.includes(k));
      if (rules.length) store.messageRules.value = { ...store.messageRules.value, ...Object.fromEntries(rules) };
      return;
    }
    case 'user_settings':
      store.userSettings.value = { ...store.userSettings.value, [e.property]: e.value };
      return;
    default:
      return;
  }
}

export { placeKey };
