/**
 * What can be done to a message, as Zulip's web app offers it: who may (the organization's
 * rules from register: `store.messageRules`, group settings through store.userGroups), the
 * API calls, and which menu, picker or dialog is open (one at a time, for one message).
 * Nothing changes in the store here: the server's events do that, for every browser alike.
 */
import { effect, signal } from '@preact/signals';
import { del, get, patch, post } from '../store/api.js';
import { holdsSetting } from '../compose/autocomplete.js';
import { insertIntoCompose } from '../compose/compose-bus.js';
import { apiNarrow, dmPeers, hashOf, isFeed, keyOf, type FeedView } from '../store/narrow.js';
import { go, view } from '../store/router.js';
import { channelName, mutedInViews, store, topicLabel, userName, type GroupSettingValue, type Message } from '../store/state.js';

export type Overlay =
  | { kind: 'menu' | 'picker' | 'delete' | 'move' | 'report' | 'receipts' | 'history'; id: number; anchor: HTMLElement }
  | { kind: 'lightbox'; id: number; anchor: HTMLElement; src: string; title: string };

/** The open menu, picker or dialog; `anchor` is where focus returns when it closes. */
export const overlay = signal<Overlay | null>(null);
/** The message being edited in place. */
export const editing = signal<number | null>(null);
/** A short confirmation ("Link copied") or error about one message. */
export const notice = signal<{ id: number; text: string; error?: boolean } | null>(null);

export const RESOLVED = '✔ ';

export function open(o: Overlay): void {
  overlay.value = o;
}

/**
 * Focus back to the button that opened something (or the feed when that is gone), once the
 * overlay has gone: while a modal dialog is open the page behind it cannot take focus.
 */
export function refocus(anchor: HTMLElement | undefined): void {
  setTimeout(() => {
    const target = anchor?.isConnected ? anchor : document.querySelector<HTMLElement>('#main .scroller');
    target?.focus();
  });
}

/** Closes the overlay; focus goes back to its button. */
export function close(returnFocus = true): void {
  const o = overlay.value;
  overlay.value = null;
  if (returnFocus && o) refocus(o.anchor);
}

/** A notice under a message, gone after 3 s (8 s for an error) unless another replaced it. */
export function say(id: number, text: string, error = false): void {
  const said = { id, text, error };
  notice.value = said;
  setTimeout(() => {
    if (notice.peek() === said) notice.value = null;
  }, error ? 8000 : 3000);
}

/**
 * Leaving the view ends "mark as unread from here"'s pause and closes whatever was open (main.tsx
 * starts it; returns the disposer).
 */
export function watchViewChanges(): () => void {
  let lastKey = '';
  return effect(() => {
    const v = view.value;
    const key = isFeed(v) ? keyOf(v) : v.kind;
    if (key === lastKey) return;
    lastKey = key;
    store.readPaused.value = false;
    overlay.value = null;
    editing.value = null;
  });
}

// ---- Permissions (the server checks again; these only decide what is offered) ----

const rule = (k: string) => store.messageRules.value[k];
const me = () => store.users.value.get(store.selfId.value);
const holds = (k: string) => {
  const v = rule(k);
  return v === undefined ? false : holdsSetting(v as GroupSettingValue, store.selfId.value);
};
/** Within a limit in seconds from the message's time (null or 0: no limit). */
const within = (m: Message, k: string) => {
  const limit = rule(k);
  return !limit || Date.now() / 1000 - m.timestamp < Number(limit);
};
const isModerator = () => (me()?.role ?? 600) <= 300;
const own = (m: Message) => m.sender_id === store.selfId.value;

// A message with a poll or to-do list keeps its text (Zulip: "Widgets cannot be edited").
export const canEdit = (m: Message) => own(m) && !m.pending && !m.submessages?.length && rule('allow_message_editing') !== false && within(m, 'message_content_edit_limit_seconds');

export const canDelete = (m: Message) =>
  !m.pending && (holds('can_delete_any_message_group') || (own(m) && holds('can_delete_own_message_group') && within(m, 'message_content_delete_limit_seconds')));

export const canMoveChannel = (m: Message) =>
  m.type === 'stream' && holds('can_move_messages_between_channels_group') && (isModerator() || within(m, 'move_messages_between_streams_limit_seconds'));

export const canMove = (m: Message) =>
  !m.pending &&
  m.type === 'stream' &&
  ((holds('can_move_messages_between_topics_group') && (isModerator() || within(m, 'move_messages_within_stream_limit_seconds'))) || canMoveChannel(m));

export const canResolve = (m: Message) => !m.pending && m.type === 'stream' && holds('can_resolve_topics_group');

/** A whole topic (the topic menu): moving or renaming it, resolving it, by the organization's groups; the server checks time limits. */
export const canMoveTopics = () => holds('can_move_messages_between_topics_group') || holds('can_move_messages_between_channels_group');
export const canResolveTopics = () => holds('can_resolve_topics_group');

export const canReport = (m: Message) => !m.pending && !own(m) && Number(rule('moderation_request_channel_id') ?? -1) !== -1;

export const showsReadReceipts = () => rule('enable_read_receipts') !== false;

/** Edited messages show their history unless the organization turned it off (Zulip's allow_edit_history). */
export const canViewHistory = (m: Message) => !m.pending && !!m.last_edit_timestamp && rule('allow_edit_history') !== false;

// ---- Links ----

/** The message's own conversation, opened at the message. */
export function conversationOf(m: Message, near?: number): FeedView {
  return m.type === 'stream'
    ? { kind: 'topic', streamId: m.stream_id!, topic: m.subject, near }
    : { kind: 'dm', userIds: dmPeers(m, store.selfId.value), near };
}

export const linkTo = (m: Message) => `${location.origin}/${hashOf(conversationOf(m, m.id), channelName)}`;

/** Puts text on the clipboard; false when the browser refused (then the caller shows it). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Plain HTTP on a LAN has no clipboard API: the older way still works from a click.
    const area = Object.assign(document.createElement('textarea'), { value: text, readOnly: true });
    area.className = 'visually-hidden';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export async function copyLink(m: Message): Promise<void> {
  const url = linkTo(m);
  if (!(await copyText(url))) return say(m.id, `Copy this link: ${url}`);
  say(m.id, 'Link copied.');
}

// ---- Calls ----

/** The message's Markdown source (`GET /messages/{id}?apply_markdown=false`). */
export async function rawContent(id: number): Promise<string> {
  const res = await get<{ message: { content: string }; raw_content?: string }>(`/messages/${id}`, { apply_markdown: false });
  return res.message?.content ?? res.raw_content ?? '';
}


/** Zulip's quote: a silent mention, a link to the message, its source in a quote block. */
export async function quoteAndReply(m: Message): Promise<void> {
  const raw = await rawContent(m.id);
  const name = m.sender_full_name || userName(m.sender_id);
  const fence = raw.includes('```') ? '````' : '```';
  insertIntoCompose(`@_**${name}|${m.sender_id}** [said](${linkTo(m)}):\n${fence}quote\n${raw}\n${fence}\n`);
}

/** @ (a shortcut): a mention of the message's sender, to reply to them by name. */
export function mentionSender(m: Message): void {
  const name = m.sender_full_name || userName(m.sender_id);
  insertIntoCompose(`@**${name}|${m.sender_id}** `);
}

/** One version of a message (Zulip's message_history entries, oldest first). */
export interface HistoryEntry {
  timestamp: number;
  user_id: number | null;
  topic: string;
  rendered_content?: string;
  prev_topic?: string;
  prev_rendered_content?: string;
  stream?: number;
  prev_stream?: number;
}

export const editHistory = (id: number) =>
  get<{ message_history: HistoryEntry[] }>(`/messages/${id}/history`, { allow_empty_topic_name: true }).then((r) => r.message_history);

export const saveEdit = (id: number, content: string) => patch(`/messages/${id}`, { content });

export const deleteMessage = (id: number) => del(`/messages/${id}`);

export const setStarred = (m: Message, on: boolean) =>
  post('/messages/flags', { messages: [m.id], op: on ? 'add' : 'remove', flag: 'starred' });

/** Marks this message and every later one in the open feed unread, and stops marking read on sight until the view changes. */
export async function markUnreadFrom(m: Message): Promise<void> {
  const v = view.value;
  const narrow = apiNarrow(isFeed(v) ? v : conversationOf(m), store.selfId.value);
  store.readPaused.value = true;
  let anchor = String(m.id);
  let include = true;
  for (let i = 0; i < 50; i++) {
    const res = await post<{ found_newest: boolean; last_processed_id: number | null }>('/messages/flags/narrow', {
      anchor,
      include_anchor: include,
      num_before: 0,
      num_after: 1000,
      narrow,
      op: 'remove',
      flag: 'read',
    });
    if (res.found_newest || res.last_processed_id === null) return;
    anchor = String(res.last_processed_id);
    include = false;
  }
}

function reactionParams(e: { name: string; code: string; type: string }) {
  return { emoji_name: e.name, emoji_code: e.code, reaction_type: e.type };
}

export const hasReacted = (m: Message, e: { code: string; type: string }) =>
  m.reactions.some((r) => r.user_id === store.selfId.value && r.emoji_code === e.code && r.reaction_type === e.type);

/** Adds my reaction, or takes it back when I had reacted so already. */
export function toggleReaction(m: Message, e: { name: string; code: string; type: string }): Promise<unknown> {
  const path = `/messages/${m.id}/reactions`;
  return (hasReacted(m, e) ? del(path, reactionParams(e)) : post(path, reactionParams(e))).catch((err: Error) => say(m.id, err.message, true));
}

/** The lightbox for an image link of message `id`. */
export const openLightbox = (id: number, a: HTMLAnchorElement) =>
  open({ kind: 'lightbox', id, anchor: a, src: a.getAttribute('href')!, title: a.title || a.querySelector('img')?.alt || '' });

/**
 * Mutes the message's topic, or unmutes it when muted (Zulip's Shift+M); in a muted channel,
 * unmuting is visibility policy 2 and muting goes back to the channel's default. Resolves with what it did.
 */
export async function toggleTopicMute(m: Message): Promise<string> {
  const muted = mutedInViews(m.stream_id!, m.subject);
  const channelMuted = store.subscriptions.value.some((s) => s.stream_id === m.stream_id && s.is_muted);
  const policy = channelMuted ? (muted ? 2 : 0) : muted ? 0 : 1;
  await post('/user_topics', { stream_id: m.stream_id, topic: m.subject, visibility_policy: policy });
  return `${muted ? 'Unmuted' : 'Muted'} #${channelName(m.stream_id!)} > ${topicLabel(m.subject)}`;
}

/** Moves the message (and maybe its topic's others); follows the topic when it is the one open. */
export async function moveMessages(m: Message, to: { topic: string; streamId: number; mode: string; notifyOld: boolean; notifyNew: boolean }) {
  const params: Record<string, unknown> = {
    propagate_mode: to.mode,
    send_notification_to_old_thread: to.notifyOld,
    send_notification_to_new_thread: to.notifyNew,
  };
  if (to.topic !== m.subject) params.topic = to.topic;
  if (to.streamId !== m.stream_id) params.stream_id = to.streamId;
  if (params.topic === undefined && params.stream_id === undefined) return;
  await patch(`/messages/${m.id}`, params);
  followTopic(m, to.streamId, to.topic, to.mode);
}

function followTopic(m: Message, streamId: number, topic: string, mode: string): void {
  const v = view.value;
  if (mode !== 'change_one' && v.kind === 'topic' && v.streamId === m.stream_id && v.topic.toLowerCase() === m.subject.toLowerCase()) {
    go({ kind: 'topic', streamId, topic });
  }
}

export const isResolved = (topic: string) => topic.startsWith(RESOLVED);

/** Resolves or unresolves the message's topic (the "✔ " prefix, every message of the topic). */
export async function toggleResolved(m: Message): Promise<void> {
  const topic = isResolved(m.subject) ? m.subject.slice(RESOLVED.length) : `${RESOLVED}${m.subject}`;
  await patch(`/messages/${m.id}`, { topic, propagate_mode: 'change_all' });
  followTopic(m, m.stream_id!, topic, 'change_all');
}

/** Zulip's report types (server_report_message_types). */
export const REPORT_TYPES: [string, string][] = [
  ['spam', 'Spam'],
  ['harassment', 'Harassment'],
  ['inappropriate', 'Inappropriate content'],
  ['norms', 'Violates community norms'],
  ['other', 'Other reason'],
];

export const report = (id: number, type: string, description: string) =>
  post(`/messages/${id}/report`, { report_type: type, description });

export const readReceipts = async (id: number) => (await get<{ user_ids: number[] }>(`/messages/${id}/read_receipts`)).user_ids;
