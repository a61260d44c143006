/**
 * Event kinds of the organization and per-user settings (Zulip's EventRealmUpdate,
 * EventRealmUpdateDict, EventRealmUserSettingsDefaults, EventUserSettingsUpdate, EventRealmEmoji*,
 * EventRealmLinkifiers, EventRealmPlaygrounds, EventRealmExport, EventInvitesChanged,
 * EventSavedSnippets*, EventNavigationView*, EventHeartbeat). The custom emoji change as the server
 * emits it is in server/events/types/realm.ts.
 */
import type { ApiDict } from '../api-dict.js';
import type { RealmEmoji } from '../realm-emoji.js';

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

/** Custom emoji changes: one at a time (`individual_emoji_changes`), or the legacy whole map. */
export type RealmEmojiClientEvent =
  | { type: 'realm_emoji'; op: 'add'; emoji: RealmEmoji }
  | { type: 'realm_emoji'; op: 'update_one' | 'edit'; emoji_id: string; data: { deactivated: boolean } }
  | { type: 'realm_emoji'; op: 'update'; realm_emoji: Record<string, RealmEmoji> };

export interface RealmLinkifiersEvent {
  type: 'realm_linkifiers';
  linkifiers: { pattern: string; url_template: string; id: number }[];
}

/** A code playground (Zulip's RealmPlayground). */
export interface RealmPlayground {
  id: number;
  name: string;
  pygments_language: string;
  /** RFC 6570 template whose only variable is `code`. */
  url_template: string;
}

export interface RealmPlaygroundsEvent {
  type: 'realm_playgrounds';
  realm_playgrounds: RealmPlayground[];
}

export interface RealmExportEvent {
  type: 'realm_export';
  exports: ApiDict[];
}

export interface InvitesChangedEvent {
  type: 'invites_changed';
}

export interface SavedSnippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

/** A left-sidebar navigation view (Zulip 11): a built-in view re-pinned, or a custom narrow by URL fragment. */
export interface NavigationView {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

export type SavedSnippetsEvent =
  | { type: 'saved_snippets'; op: 'add' | 'update'; saved_snippet: SavedSnippet }
  | { type: 'saved_snippets'; op: 'remove'; saved_snippet_id: number };

export type NavigationViewEvent =
  | { type: 'navigation_view'; op: 'add'; navigation_view: NavigationView }
  | { type: 'navigation_view'; op: 'update'; fragment: string; data: Partial<Pick<NavigationView, 'is_pinned' | 'name'>> }
  | { type: 'navigation_view'; op: 'remove'; fragment: string };

/** Put in a queue when a long-poll times out; never emitted by actions. */
export interface HeartbeatEvent {
  type: 'heartbeat';
}

/** The realm area's events that the server emits as they are sent (every kind but `realm_emoji`). */
export type RealmAreaEvent =
  | RealmUpdateEvent
  | RealmUpdateDictEvent
  | RealmUserSettingsDefaultsEvent
  | UserSettingsUpdateEvent
  | RealmLinkifiersEvent
  | RealmPlaygroundsEvent
  | RealmExportEvent
  | InvitesChangedEvent
  | SavedSnippetsEvent
  | NavigationViewEvent;
