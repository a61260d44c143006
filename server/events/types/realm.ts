/**
 * Event kinds of the organization and per-user settings (Zulip's EventRealmUpdate,
 * EventRealmUpdateDict, EventRealmUserSettingsDefaults, EventUserSettingsUpdate, EventRealmEmoji*,
 * EventRealmLinkifiers, EventRealmPlaygrounds, EventRealmExport, EventInvitesChanged,
 * EventSavedSnippets*, EventNavigationView*, EventHeartbeat).
 */
import type { PlaygroundRecord, UserRecord } from '../../store/records.js';
import type { ApiDict } from './common.js';

export interface RealmUpdateEvent {
  type: 'realm';
  op: 'update';
  property: string;
  value: unknown;
}

export interface RealmUpdateDictEvent {
  type: 'realm';
  op: 'update_dict';
  property: 'default' | 'icon';
  data: ApiDict;
}

export interface RealmUserSettingsDefaultsEvent {
  type: 'realm_user_settings_defaults';
  op: 'update';
  property: string;
  value: unknown;
}

export interface UserSettingsUpdateEvent {
  type: 'user_settings';
  op: 'update';
  property: string;
  value: unknown;
  /** With property default_language. */
  language_name?: string;
}

/** A custom emoji as the API shows it. */
export interface RealmEmojiForApi {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

/** What actions emit; `all` is the map after the change, for legacy queues (state/realm-emoji.ts). */
export type RealmEmojiChangeEvent =
  | { type: 'realm_emoji'; op: 'add'; emoji: RealmEmojiForApi; all: Record<string, RealmEmojiForApi> }
  | { type: 'realm_emoji'; op: 'update_one' | 'edit'; emoji_id: string; data: { deactivated: boolean }; all: Record<string, RealmEmojiForApi> };

/** The wire forms: individual changes (`individual_emoji_changes`) or the legacy whole map. */
export type RealmEmojiClientEvent =
  | { type: 'realm_emoji'; op: 'add'; emoji: RealmEmojiForApi }
  | { type: 'realm_emoji'; op: 'update_one' | 'edit'; emoji_id: string; data: { deactivated: boolean } }
  | { type: 'realm_emoji'; op: 'update'; realm_emoji: Record<string, RealmEmojiForApi> };

export interface RealmLinkifiersEvent {
  type: 'realm_linkifiers';
  linkifiers: { pattern: string; url_template: string; id: number }[];
}

export interface RealmPlaygroundsEvent {
  type: 'realm_playgrounds';
  realm_playgrounds: PlaygroundRecord[];
}

export interface RealmExportEvent {
  type: 'realm_export';
  exports: ApiDict[];
}

export interface InvitesChangedEvent {
  type: 'invites_changed';
}

type Snippet = NonNullable<UserRecord['saved_snippets']>[number];
type NavView = NonNullable<UserRecord['navigation_views']>[number];

export type SavedSnippetsEvent =
  | { type: 'saved_snippets'; op: 'add' | 'update'; saved_snippet: Snippet }
  | { type: 'saved_snippets'; op: 'remove'; saved_snippet_id: number };

export type NavigationViewEvent =
  | { type: 'navigation_view'; op: 'add'; navigation_view: NavView }
  | { type: 'navigation_view'; op: 'update'; fragment: string; data: Partial<Pick<NavView, 'is_pinned' | 'name'>> }
  | { type: 'navigation_view'; op: 'remove'; fragment: string };

/** Put in a queue by GET /events when a long-poll times out; never emitted by actions. */
export interface HeartbeatEvent {
  type: 'heartbeat';
}

/** The realm area's events as actions emit them. */
export type RealmAreaEvent =
  | RealmUpdateEvent
  | RealmUpdateDictEvent
  | RealmUserSettingsDefaultsEvent
  | UserSettingsUpdateEvent
  | RealmEmojiChangeEvent
  | RealmLinkifiersEvent
  | RealmPlaygroundsEvent
  | RealmExportEvent
  | InvitesChangedEvent
  | SavedSnippetsEvent
  | NavigationViewEvent;
