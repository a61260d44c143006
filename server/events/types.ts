/**
 * The server's side of the event union. The kinds are defined once, in server/protocol/ (what
 * clients receive: `ClientEvent`), with the dictionaries they carry as the server builds them
 * (`BuiltDicts`); here they are specialised to those, and joined with the forms only the server
 * sees (types/<area>.ts).
 *
 * - `Event`: what actions emit through commit()'s `tx.emit` (EventQueues.send). A few kinds are
 *   internal forms that a queue filter turns into the wire form per queue (`message`, `presence`,
 *   `realm_emoji`), and some carry internal flags for their filter (documented on the field).
 * - `ClientEvent`: what a queue holds and a client receives.
 */
import type * as Wire from '../protocol/events.js';
import type { BuiltDicts } from '../protocol/events/dicts.js';
import type { DeleteMessageEvent, MessageEvent } from './types/messages.js';
import type { PresenceChangeEvent } from './types/people.js';
import type { RealmEmojiChangeEvent } from './types/realm.js';

export type * from '../protocol/events.js';
export type { ApiDict } from '../protocol/api-dict.js';
export type { DeleteMessageEvent, MessageEvent, MessageEventPayload } from './types/messages.js';
export type * from './types/people.js';
export type * from './types/realm.js';
export { BULK_FORM, MESSAGE_PAYLOAD } from './types/messages.js';

/** Wire kinds whose dictionaries the server builds. */
export type MessageClientEvent = Wire.MessageClientEvent<BuiltDicts>;
export type UpdateMessageFlagsEvent = Wire.UpdateMessageFlagsEvent<BuiltDicts>;

export type Event =
  | MessageEvent
  | DeleteMessageEvent
  | Exclude<Wire.MessagesAreaEvent<BuiltDicts>, Wire.DeleteMessageEvent>
  | Wire.ChannelsAreaEvent<BuiltDicts>
  | Wire.PeopleAreaEvent<BuiltDicts>
  | PresenceChangeEvent
  | Wire.RealmAreaEvent
  | RealmEmojiChangeEvent
  | Wire.HearthCallEvent;

export type EventType = Event['type'];

/** The events of one type. */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;

export type ClientEvent = Wire.ClientEvent<BuiltDicts>;

export type ClientEventType = ClientEvent['type'];
