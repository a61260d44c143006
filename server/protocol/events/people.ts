/**
 * Event kinds of the people area (Zulip's EventRealmUserAdd/Update/Remove, EventRealmBot*,
 * EventUserGroup*, EventPresence, EventUserStatus, EventMutedUsers, EventAlertWords,
 * EventCustomProfileFields, EventDevice*). Fields marked internal steer the server's queue filters
 * and are removed there; the presence change as the server emits it is in
 * server/events/types/people.ts.
 */
import type { ApiDict } from '../api-dict.js';
import type { Dicts, WireDicts } from './dicts.js';

export interface RealmUserAddEvent<D extends Dicts = WireDicts> {
  type: 'realm_user';
  op: 'add';
  person: D['user'];
  /** Internal: Zulip's "Unknown user" placeholder, dropped for `user_list_incomplete` clients. */
  unknown_user?: true;
}

/** One changed field (or a few) of a user, named as in the user dictionary. */
export interface RealmUserUpdateEvent<D extends Dicts = WireDicts> {
  type: 'realm_user';
  op: 'update';
  person: D['userChange'];
}

export interface RealmUserRemoveEvent {
  type: 'realm_user';
  op: 'remove';
  person: { user_id: number; full_name: string };
  /** Internal: only for `user_list_incomplete` clients. */
  incomplete_only?: true;
}

export type RealmBotEvent =
  | { type: 'realm_bot'; op: 'add'; bot: ApiDict }
  | { type: 'realm_bot'; op: 'update'; bot: { user_id: number } & ApiDict }
  | { type: 'realm_bot'; op: 'delete'; bot: { user_id: number } };

export interface UserGroupAddEvent<D extends Dicts = WireDicts> {
  type: 'user_group';
  op: 'add';
  group: D['group'];
  /** Internal: an add standing in for a reactivation (clients without `include_deactivated_groups`). */
  for_reactivation?: true;
}

export interface UserGroupUpdateEvent<D extends Dicts = WireDicts> {
  type: 'user_group';
  op: 'update';
  group_id: number;
  data: D['groupChange'];
  /** Internal: a change of a deactivated group (clients without `include_deactivated_groups` skip it). */
  group_deactivated?: boolean;
}

export type UserGroupEvent<D extends Dicts = WireDicts> =
  | UserGroupAddEvent<D>
  | UserGroupUpdateEvent<D>
  | { type: 'user_group'; op: 'remove'; group_id: number }
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] };

/** Presence for clients with `simplified_presence_events`. */
export interface PresenceModernEvent {
  type: 'presence';
  presences: Record<string, { active_timestamp: number; idle_timestamp: number }>;
}

/** The legacy presence form. */
export interface PresenceLegacyEvent {
  type: 'presence';
  user_id: number;
  email: string;
  server_timestamp: number;
  presence: Record<string, ApiDict>;
}

export interface UserStatusEvent {
  type: 'user_status';
  user_id: number;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export interface MutedUsersEvent {
  type: 'muted_users';
  muted_users: { id: number; timestamp: number }[];
}

export interface AlertWordsEvent {
  type: 'alert_words';
  alert_words: string[];
}

export interface CustomProfileFieldsEvent<D extends Dicts = WireDicts> {
  type: 'custom_profile_fields';
  fields: D['profileField'][];
}

/** A device's push fields (all null: Hearth never registers with a push bouncer). */
export interface DevicePushFields {
  push_key_id: null;
  push_token_id: null;
  pending_push_token_id: null;
  push_token_last_updated_timestamp: null;
  push_registration_error_code: null;
}

export type DeviceEvent =
  | ({ type: 'device'; op: 'add'; device_id: number } & DevicePushFields)
  | { type: 'device'; op: 'remove'; device_id: number };

/** The people area's events that the server emits as they are sent (every kind but presence). */
export type PeopleAreaEvent<D extends Dicts = WireDicts> =
  | RealmUserAddEvent<D>
  | RealmUserUpdateEvent<D>
  | RealmUserRemoveEvent
  | RealmBotEvent
  | UserGroupEvent<D>
  | UserStatusEvent
  | MutedUsersEvent
  | AlertWordsEvent
  | CustomProfileFieldsEvent<D>
  | DeviceEvent;
