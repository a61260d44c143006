/**
 * Every event Hearth sends, as one closed union keyed by `type` (and `op` where the kind has
 * ops), modelled on Zulip's zerver/lib/event_types.py. Each area's kinds live in types/<area>.ts.
 *
 * - `Event`: what actions emit through commit()'s `tx.emit` (EventQueues.send). A few kinds are
 *   internal forms that a queue filter turns into the wire form per queue (`message`, `presence`,
 *   `realm_emoji`), and some carry internal flags for their filter (documented on the field).
 * - `ClientEvent`: what a queue holds and a client receives.
 */
import type { ChannelsAreaEvent } from './types/channels.js';
import type { MessageClientEvent, MessageEvent, MessagesAreaEvent } from './types/messages.js';
import type { PeopleAreaEvent, PresenceChangeEvent, PresenceLegacyEvent, PresenceModernEvent } from './types/people.js';
import type { HeartbeatEvent, RealmAreaEvent, RealmEmojiChangeEvent, RealmEmojiClientEvent } from './types/realm.js';

export type * from './types/channels.js';
export type * from './types/messages.js';
export type * from './types/people.js';
export type * from './types/realm.js';
export type { ApiDict } from './types/common.js';
export { BULK_FORM, MESSAGE_PAYLOAD } from './types/messages.js';

export type Event = MessagesAreaEvent | ChannelsAreaEvent | PeopleAreaEvent | RealmAreaEvent;

export type EventType = Event['type'];

/** The events of one type. */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;

/** Internal forms that never reach a queue as they are (their filter always reshapes them). */
type InternalEvent = MessageEvent | PresenceChangeEvent | RealmEmojiChangeEvent;

export type ClientEvent =
  | Exclude<Event, InternalEvent>
  | MessageClientEvent
  | PresenceModernEvent
  | PresenceLegacyEvent
  | RealmEmojiClientEvent
  | HeartbeatEvent;

export type ClientEventType = ClientEvent['type'];
