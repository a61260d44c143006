/**
 * Stored shape of a message (one item of the `messages/` segmented
 * collection). Kept lean: 1M of them must load in seconds. Per-user state
 * (Zulip's UserMessage rows) lives in the message as `um`, one number per row,
 * `userId * ROW_SPAN + flags`, ascending by user ID, so a send writes one
 * segment and a flag change rewrites only the segments of the messages it
 * touches. (Stores written before held each row as two numbers,
 * `[userId, flags, ...]`: `packedRows` turns such a list into one number per row
 * at load. One number a row halves the biggest part of a message in memory.)
 */
import { escapeHtml } from '../protocol/html.js';

export interface ReactionRecord {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

/**
 * A submessage (Zulip's SubMessage): a widget (`msg_type` "widget", content `{"widget_type", "extra_data"}`)
 * made with its message, then the widget's events (votes, new options, ticks) in order. `content` is the
 * JSON text as sent; IDs are global and ascending (MessageStore.nextSubmessageId).
 */
export interface SubmessageRecord {
  id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

/** One entry of a message's edit history (Zulip's edit_history items, newest last). */
export interface EditRecord {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  prev_stream?: number;
  topic?: string;
  stream?: number;
}

export interface MessageRecord {
  id: number;
  sender_id: number;
  /** The channel of a channel message; null for a direct message. */
  stream_id: number | null;
  /** The topic of a channel message ('' is the empty topic); '' for direct messages. */
  topic: string;
  /** Direct messages: every participant, sender included, ascending. Absent for channel messages. */
  dm?: number[];
  /** Markdown source. */
  content: string;
  /**
   * Sanitised HTML rendered at send (or edit) time. Absent when it is exactly
   * the content as one escaped paragraph (most chat messages), which keeps a
   * million records lean; read it through `renderedOf`.
   */
  rendered?: string;
  /** Unix seconds. */
  timestamp: number;
  /** MSG_BIT flags of the message itself (absent: none). */
  bits?: number;
  /**
   * UserMessage rows: `userId * ROW_SPAN + flags` each, ascending (flags: FLAG bits); read and
   * change them through MessageStore. Messages with the same rows share one frozen list.
   */
  um: readonly number[];
  /** Name of the sending client (`sending_client`), when not the default. */
  client?: string;
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  /** Oldest first. */
  edits?: EditRecord[];
  reactions?: ReactionRecord[];
  /** Widget and its events, ascending by ID (absent: none). */
  submessages?: SubmessageRecord[];
}

/** Properties of the message content (from the renderer). */
export const MSG_BIT = {
  has_link: 1,
  has_image: 2,
  has_attachment: 4,
  is_me_message: 8,
  /** Posted by the Notification Bot when a topic was resolved or unresolved (Zulip's RESOLVE_TOPIC_NOTIFICATION type). */
  resolve_notice: 16,
} as const;

/** Per-user flags (UserMessage.flags); bit values are Hearth's own. */
export const FLAG = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
  /** Internal: the row belongs to a direct message (Zulip's is_private). */
  is_private: 256,
} as const;

export const WILDCARD_MENTION_BITS = FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/**
 * Flags in the API (`flags` of a message, `update_message_flags`), in Zulip's
 * order (its flags_list_for_flags), then the deprecated `wildcard_mentioned`
 * (either wildcard flag), which Zulip appends for older clients.
 */
export const API_FLAGS = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'has_alert_word',
  'historical',
  'wildcard_mentioned',
] as const;
export type ApiFlag = (typeof API_FLAGS)[number];

/** The API flag names of a flag bit set. */
export function flagNames(flags: number): ApiFlag[] {
  const out: ApiFlag[] = [];
  if (flags & FLAG.read) out.push('read');
  if (flags & FLAG.starred) out.push('starred');
  if (flags & FLAG.collapsed) out.push('collapsed');
  if (flags & FLAG.mentioned) out.push('mentioned');
  if (flags & FLAG.stream_wildcard_mentioned) out.push('stream_wildcard_mentioned');
  if (flags & FLAG.topic_wildcard_mentioned) out.push('topic_wildcard_mentioned');
  if (flags & FLAG.has_alert_word) out.push('has_alert_word');
  if (flags & FLAG.historical) out.push('historical');
  if (flags & WILDCARD_MENTION_BITS) out.push('wildcard_mentioned');
  return out;
}

/** The bit of an API flag name (`wildcard_mentioned` maps to the channel-wildcard bit). */
export function flagBit(name: ApiFlag): number {
  return name === 'wildcard_mentioned' ? FLAG.stream_wildcard_mentioned : FLAG[name];
}

/** The HTML of plain one-paragraph content (what an absent `rendered` stands for). */
export const plainRendering = (content: string): string => `<p>${escapeHtml(content)}</p>`;

export const renderedOf = (m: MessageRecord): string => m.rendered ?? plainRendering(m.content);

/** Sets content and HTML, leaving `rendered` out when it adds nothing. */
export function assignContent(m: Pick<MessageRecord, 'content' | 'rendered'>, content: string, rendered: string): void {
  m.content = content;
  if (rendered === plainRendering(content)) delete m.rendered;
  else m.rendered = rendered;
}

/** Key of a direct conversation: its participants (ascending, joined by commas). */
export const conversationKey = (userIds: readonly number[]): string => userIds.join(',');

/** A row's number is `userId * ROW_SPAN + flags`: every FLAG bit stays below it. */
export const ROW_SPAN = 1024;

/** One UserMessage row as stored in `um`. */
export function packRow(userId: number, flags: number): number {
  // User IDs start at 1: a row's number is then at least ROW_SPAN, which tells it from a pair's flags.
  if (!Number.isSafeInteger(userId) || userId < 1) throw new RangeError(`not a user ID: ${userId}`);
  if (!Number.isInteger(flags) || flags < 0 || flags >= ROW_SPAN) throw new RangeError(`flags out of range: ${flags}`);
  return userId * ROW_SPAN + flags;
}

export const rowUser = (row: number): number => Math.floor(row / ROW_SPAN);
export const rowFlagsOf = (row: number): number => row % ROW_SPAN;

/**
 * A message's rows as stored, given the list read from disk: the list itself, or, for one written
 * as pairs `[userId, flags, ...]` before, one number per row. Pairs end with a flags value (under
 * ROW_SPAN); a packed list ends with the highest user's row (user IDs start at 1, so at least ROW_SPAN).
 */
export function packedRows(um: readonly number[]): readonly number[] {
  if (um.length === 0 || um[um.length - 1]! >= ROW_SPAN) return um;
  const rows: number[] = [];
  for (let i = 0; i + 1 < um.length; i += 2) rows.push(packRow(um[i]!, um[i + 1]!));
  return rows;
}
