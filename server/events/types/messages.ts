/**
 * The messages area's events as the server's actions emit them, where they differ from the wire
 * forms (server/protocol/events/messages.ts): the `message` event before the message filter makes
 * each queue's copy, and a deletion carrying the form it was made in.
 */
import type { MessageRecord } from '../../store/message-records.js';
import type { BuiltDicts, WireDicts } from '../../protocol/events/dicts.js';
import type { DeleteMessageEvent as WireDeleteMessageEvent, MessageClientEvent } from '../../protocol/events/messages.js';

/** Key of the internal `message` event's payload (lib/messages/events.ts). */
export const MESSAGE_PAYLOAD: unique symbol = Symbol('hearth.message');
/** Internal mark of a `delete_message` event's form: true bulk (`message_ids`), false one per message. */
export const BULK_FORM: unique symbol = Symbol('bulk_message_deletion form');

export interface MessageEventPayload {
  message: MessageRecord;
  /** Users with a row, and their flags at send time. */
  flags: Map<number, number>;
  /** A public channel: `all_public_streams` queues of non-guests also get it. */
  publicChannel: boolean;
  senderQueueId: string | null;
  localId: string | null;
  /** Per-variant dict cache. */
  cache: Map<string, WireDicts['message']>;
  /** API flag lists by flag bits (shared between queues; never mutated). */
  flagLists: Map<number, string[]>;
  /** Finished events by user and variant. */
  events: Map<string, MessageClientEvent<BuiltDicts>>;
}

/** What the send action emits: the message filter turns it into each queue's MessageClientEvent. */
export interface MessageEvent {
  type: 'message';
  [MESSAGE_PAYLOAD]: MessageEventPayload;
}

/** A deletion as actions emit it: the wire event, marked with the form it was made in. */
export type DeleteMessageEvent = WireDeleteMessageEvent & { [BULK_FORM]?: boolean };
