/**
 * Event kinds of the messages area (Zulip's event_types.py: EventMessage, EventUpdateMessage,
 * EventDeleteMessage, EventUpdateMessageFlags, EventReaction, EventTyping, EventAttachment,
 * EventDrafts, EventScheduledMessages, EventReminders), one interface per kind and op, with the
 * fields sent on the wire. The server's own forms (the `message` event before each queue's copy
 * is made, a deletion's bulk mark) are in server/events/types/messages.ts.
 */
import type { ApiDict } from '../api-dict.js';
import type { Dicts, WireDicts } from './dicts.js';

/** A new message, one copy per queue. */
export interface MessageClientEvent<D extends Dicts = WireDicts> {
  type: 'message';
  message: D['message'];
  flags: string[];
  /** Only to the sending queue. */
  local_message_id?: string | null;
}

export interface UpdateMessageEvent {
  type: 'update_message';
  /** null for a `rendering_only` update (thumbnails made), which no one made. */
  user_id: number | null;
  edit_timestamp: number;
  message_id: number;
  message_ids: number[];
  rendering_only: boolean;
  flags: string[];
  orig_content?: string;
  orig_rendered_content?: string;
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
  stream_id?: number;
  stream_name?: string;
  propagate_mode?: string;
  orig_subject?: string;
  subject?: string;
  topic_links?: { text: string; url: string }[];
  new_stream_id?: number;
}

export type DeleteWhere = { message_type: 'private' } | { message_type: 'stream'; stream_id: number; topic: string };

export type DeleteMessageEvent = { type: 'delete_message' } & DeleteWhere & ({ message_ids: number[] } | { message_id: number });

export interface UpdateMessageFlagsEvent<D extends Dicts = WireDicts> {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  operation: 'add' | 'remove';
  flag: string;
  messages: number[];
  all: boolean;
  /** op remove of flag read only. */
  message_details?: Record<string, D['unreadDetails']>;
}

export interface ReactionEvent {
  type: 'reaction';
  op: 'add' | 'remove';
  user_id: number;
  user: { user_id: number; email: string; full_name: string };
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/** A submessage added to a message (Zulip's do_add_submessage): `content` as the sender sent it. */
export interface SubmessageEvent {
  type: 'submessage';
  msg_type: string;
  message_id: number;
  submessage_id: number;
  sender_id: number;
  content: string;
}

interface TypingPerson {
  user_id: number;
  email: string;
}

export type TypingEvent =
  | { type: 'typing'; op: 'start' | 'stop'; message_type: 'direct'; sender: TypingPerson; recipients: TypingPerson[] }
  | { type: 'typing'; op: 'start' | 'stop'; message_type: 'stream'; sender: TypingPerson; stream_id: number; topic: string };

export interface TypingEditMessageEvent {
  type: 'typing_edit_message';
  op: 'start' | 'stop';
  sender_id: number;
  message_id: number;
  recipient: { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };
}

export interface AttachmentEvent {
  type: 'attachment';
  op: 'add' | 'update' | 'remove';
  /** `{ id }` only for remove. */
  attachment: ApiDict;
  upload_space_used: number;
}

export type DraftsEvent<D extends Dicts = WireDicts> =
  | { type: 'drafts'; op: 'add'; drafts: D['draft'][] }
  | { type: 'drafts'; op: 'update'; draft: D['draft'] }
  | { type: 'drafts'; op: 'remove'; draft_id: number };

export type ScheduledMessagesEvent<D extends Dicts = WireDicts> =
  | { type: 'scheduled_messages'; op: 'add'; scheduled_messages: D['scheduledMessage'][] }
  | { type: 'scheduled_messages'; op: 'update'; scheduled_message: D['scheduledMessage'] }
  | { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number };

export type RemindersEvent<D extends Dicts = WireDicts> =
  | { type: 'reminders'; op: 'add'; reminders: D['reminder'][] }
  | { type: 'reminders'; op: 'remove'; reminder_id: number };

/** The messages area's events that the server emits as they are sent (every kind but `message`). */
export type MessagesAreaEvent<D extends Dicts = WireDicts> =
  | UpdateMessageEvent
  | DeleteMessageEvent
  | UpdateMessageFlagsEvent<D>
  | ReactionEvent
  | SubmessageEvent
  | TypingEvent
  | TypingEditMessageEvent
  | AttachmentEvent
  | DraftsEvent<D>
  | ScheduledMessagesEvent<D>
  | RemindersEvent<D>;
