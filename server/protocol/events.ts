/**
 * Every event a client receives from `GET /events`, as one closed union keyed by `type` (and `op`
 * where the kind has ops), modelled on Zulip's zerver/lib/event_types.py; each area's kinds are in
 * events/<area>.ts. The server's `Event` (what its actions emit, server/events/types.ts) is built
 * from the same kinds.
 */
import type { HearthCallEvent } from './events/calls.js';
import type { ChannelsAreaEvent } from './events/channels.js';
import type { Dicts, WireDicts } from './events/dicts.js';
import type { MessageClientEvent, MessagesAreaEvent } from './events/messages.js';
import type { PeopleAreaEvent, PresenceLegacyEvent, PresenceModernEvent } from './events/people.js';
import type { HeartbeatEvent, RealmAreaEvent, RealmEmojiClientEvent } from './events/realm.js';

export type * from './events/calls.js';
export type * from './events/channels.js';
export type * from './events/dicts.js';
export type * from './events/messages.js';
export type * from './events/people.js';
export type * from './events/realm.js';

export type ClientEvent<D extends Dicts = WireDicts> =
  | MessageClientEvent<D>
  | MessagesAreaEvent<D>
  | ChannelsAreaEvent<D>
  | PeopleAreaEvent<D>
  | PresenceModernEvent
  | PresenceLegacyEvent
  | RealmAreaEvent
  | RealmEmojiClientEvent
  | HearthCallEvent
  | HeartbeatEvent;

export type ClientEventType = ClientEvent['type'];

/** The events of one type. */
export type ClientEventOf<T extends ClientEventType, D extends Dicts = WireDicts> = Extract<ClientEvent<D>, { type: T }>;
