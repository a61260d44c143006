/**
 * Event kinds of the people area (Zulip's EventRealmUserAdd/Update/Remove, EventRealmBot*,
 * EventUserGroup*, EventPresence, EventUserStatus, EventMutedUsers, EventAlertWords,
 * EventCustomProfileFields, EventDevice*). Fields marked internal steer a queue filter and are
 * removed there.
 */
import type { ApiDict } from './common.js';

export interface RealmUserAddEvent {
  type: 'realm_user';
  op: 'add';
  person: ApiDict;
  /** Internal: Zulip's "Unknown user" placeholder, dropped for `user_list_incomplete` clients. */
  unknown_user?: true;
}

/** One changed field (or a few) of a user, named as in the user dictionary. */
export interface RealmUserUpdateEvent {
  type: 'realm_user';
  op: 'update';
  person: { user_id: number } & ApiDict;
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

export interface UserGroupAddEvent {
  type: 'user_group';
  op: 'add';
  group: ApiDict;
  /** Internal: an add standing in for a reactivation (clients without `include_deactivated_groups`). */
  for_reactivation?: true;
}

export interface UserGroupUpdateEvent {
  type: 'user_group';
  op: 'update';
  group_id: number;
  data: ApiDict;
  /** Internal: a change of a deactivated group (clients without `include_deactivated_groups` skip it). */
  group_deactivated?: boolean;
}

export type UserGroupEvent =
  | UserGroupAddEvent
  | UserGroupUpdateEvent
  | { type: 'user_group'; op: 'remove'; group_id: number }
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] };

/** A presence row as kept in memory (lib/people/presence.ts). */
export interface PresenceRow {
  active_timestamp: number;
  idle_timestamp: number;
  update_id: number;
}

/** What the presence action emits; the presence filter gives each queue one of the two wire forms. */
export interface PresenceChangeEvent {
  type: 'presence';
  user_id: number;
  row: PresenceRow;
}

/** The wire form for clients with `simplified_presence_events`. */
export interface PresenceModernEvent {
  type: 'presence';
  presences: Record<string, { active_timestamp: number; idle_timestamp: number }>;
}

/** The legacy wire form. */
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

export interface CustomProfileFieldsEvent {
  type: 'custom_profile_fields';
  fields: ApiDict[];
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

/** The people area's events as actions emit them. */
export type PeopleAreaEvent =
  | RealmUserAddEvent
  | RealmUserUpdateEvent
  | RealmUserRemoveEvent
  | RealmBotEvent
  | UserGroupEvent
  | PresenceChangeEvent
  | UserStatusEvent
  | MutedUsersEvent
  | AlertWordsEvent
  | CustomProfileFieldsEvent
  | DeviceEvent;
