/**
 * Event kinds of the messages area (Zulip's event_types.py: EventMessage, EventUpdateMessage,
 * EventDeleteMessage, EventUpdateMessageFlags, EventReaction, EventTyping, EventAttachment,
 * EventDrafts, EventScheduledMessages, EventReminders). One interface per kind and op, with the
 * fields sent on the wire; fields documented as internal are read by a queue filter and never
 * reach a client.
 */
import type { MessageRecord } from '../../store/message-records.js';
import type { ApiDict } from './common.js';

/** Key of the internal `message` event's payload (lib/messages/events.ts). */
export const MESSAGE_PAYLOAD: unique symbol = Symbol('hearth.message');
/** Internal mark of a `delete_message` event's form: true bulk (`message_ids`), false one per message. */
export const BULK_FORM: unique symbol = Symbol('bulk_message_deletion form');

/** The wire `message` event, one per queue (state/messages.ts). */
export interface MessageClientEvent {
  type: 'message';
  message: ApiDict;
  flags: string[];
  /** Only to the sending queue. */
  local_message_id?: string | null;
}

export interface MessageEventPayload {
  message: MessageRecord;
  /** Users with a row, and their flags at send time. */
  flags: Map<number, number>;
  /** A public channel: `all_public_streams` queues of non-guests also get it. */
  publicChannel: boolean;
  senderQueueId: string | null;
  localId: string | null;
  /** Per-variant dict cache. */
  cache: Map<string, ApiDict>;
  /** API flag lists by flag bits (shared between queues; never mutated). */
  flagLists: Map<number, string[]>;
  /** Finished events by user and variant. */
  events: Map<string, MessageClientEvent>;
}

/** What the send action emits: the message filter turns it into each queue's MessageClientEvent. */
export interface MessageEvent {
  type: 'message';
  [MESSAGE_PAYLOAD]: MessageEventPayload;
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

export type DeleteMessageEvent = { type: 'delete_message'; [BULK_FORM]?: boolean } & DeleteWhere &
  ({ message_ids: number[] } | { message_id: number });

export interface UpdateMessageFlagsEvent {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  operation: 'add' | 'remove';
  flag: string;
  messages: number[];
  all: boolean;
  /** op remove of flag read only. */
  message_details?: Record<string, ApiDict>;
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

export type DraftsEvent =
  | { type: 'drafts'; op: 'add'; drafts: ApiDict[] }
  | { type: 'drafts'; op: 'update'; draft: ApiDict }
  | { type: 'drafts'; op: 'remove'; draft_id: number };

export type ScheduledMessagesEvent =
  | { type: 'scheduled_messages'; op: 'add'; scheduled_messages: ApiDict[] }
  | { type: 'scheduled_messages'; op: 'update'; scheduled_message: ApiDict }
  | { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number };

export type RemindersEvent =
  | { type: 'reminders'; op: 'add'; reminders: ApiDict[] }
  | { type: 'reminders'; op: 'remove'; reminder_id: number };

/** The messages area's events as actions emit them. */
export type MessagesAreaEvent =
  | MessageEvent
  | UpdateMessageEvent
  | DeleteMessageEvent
  | UpdateMessageFlagsEvent
  | ReactionEvent
  | SubmessageEvent
  | TypingEvent
  | TypingEditMessageEvent
  | AttachmentEvent
  | DraftsEvent
  | ScheduledMessagesEvent
  | RemindersEvent;
