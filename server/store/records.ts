/** Shapes of what Hearth keeps on disk, one interface per stored record. */

import type { GroupSettingValue } from './channel-records.js';

export interface Manifest {
  schemaVersion: number;
  createdAt: string;
}

export interface RealmSettings {
  /** Organization-level "public access" (spectators): off by default. */
  enable_spectator_access: boolean;
  /** 1 everyone, 2 members, 3 admins, 4 nobody, 5 moderators (Zulip's values). */
  email_address_visibility: number;
  max_file_upload_size_mib: number;
  /**
   * The organization's upload quota in MiB (owners; clients see `realm_upload_quota_mib`); null: none;
   * absent: the default (server/lib/uploads/limits.ts DEFAULT_UPLOAD_QUOTA_MIB).
   */
  hearth_upload_quota_mib?: number | null;
  /** MiB each guest may upload in any 24 hours (owners); absent: the server's `guestUploadMibPerDay`. */
  hearth_guest_upload_mib_per_day?: number;
  /** Domain of the API-only addresses (`user{id}@domain`) shown when a real email is hidden. */
  fake_email_domain: string;
  /**
   * Channel permissions (group-setting values). Absent means Zulip's default system group
   * (see REALM_CHANNEL_SETTING_DEFAULTS in server/lib/channels/settings.ts).
   */
  can_create_public_channel_group?: GroupSettingValue;
  can_create_private_channel_group?: GroupSettingValue;
  can_create_web_public_channel_group?: GroupSettingValue;
  can_add_subscribers_group?: GroupSettingValue;
  can_set_topics_policy_group?: GroupSettingValue;
  can_set_delete_message_policy_group?: GroupSettingValue;
  /** Whether the empty topic is allowed where a channel inherits (Zulip default `allow_empty_topic`). */
  topics_policy?: 'allow_empty_topic' | 'disable_empty_topic';
  /** Shown by clients; absent: Zulip's defaults ('en', '', 0 unspecified, guest marks on). */
  default_language?: string;
  default_code_block_language?: string;
  org_type?: number;
  /** Hearth's API rate limit, requests a minute per user (0: off); absent: the server's (`--rate-limit`). */
  hearth_api_rate_limit?: number;
  /** Plain HTTP served (default); false: HTTP only redirects to HTTPS (and serves the trust page). */
  hearth_plain_http?: boolean;
  /** LAN discovery by mDNS/DNS-SD (default on). */
  hearth_discovery?: boolean;
  /** Zulip's welcome_message_custom_text: the Welcome Bot's extra note to new users (≤ 8,000 characters). */
  welcome_message_custom_text?: string;
  enable_guest_user_indicator?: boolean;
  enable_guest_user_dm_warning?: boolean;
  /** Days messages are kept; -1 forever (Zulip's self-hosted default). */
  message_retention_days?: number;
  /** Message editing and deletion (Zulip's realm settings of the same names; absent: Zulip's defaults). */
  allow_message_editing?: boolean;
  allow_edit_history?: boolean;
  message_content_edit_limit_seconds?: number | null;
  message_content_delete_limit_seconds?: number | null;
  move_messages_within_stream_limit_seconds?: number | null;
  move_messages_between_streams_limit_seconds?: number | null;
  can_delete_any_message_group?: GroupSettingValue;
  can_delete_own_message_group?: GroupSettingValue;
  can_move_messages_between_topics_group?: GroupSettingValue;
  can_move_messages_between_channels_group?: GroupSettingValue;
  can_resolve_topics_group?: GroupSettingValue;
  can_add_custom_emoji_group?: GroupSettingValue;
  /** Who may create invite links; absent means role:administrators. */
  create_multiuse_invite_group?: GroupSettingValue;
  /** Who may create user groups; absent means role:members (server/lib/groups/groups.ts REALM_GROUP_SETTING_DEFAULTS). */
  can_create_groups?: GroupSettingValue;
  /** Who may manage every user group; absent means role:administrators. */
  can_manage_all_groups?: GroupSettingValue;
  /** Where new channels are announced when their creator asks (`announce`); -1 (absent): nowhere. */
  new_stream_announcements_stream_id?: number;
  /** Where message reports go (Zulip's moderation_request_channel_id): a private channel, or -1 (absent) for none. */
  moderation_request_channel_id?: number;
  /** Whether members may see who read a message (Zulip's enable_read_receipts); absent means on, as Zulip for non-community organizations. */
  enable_read_receipts?: boolean;
  /** Zulip's video_chat_provider id (server/lib/realm/settings.ts); absent means Jitsi Meet (1). */
  video_chat_provider?: number;
  /** Who sees every user (Zulip's can_access_all_users_group); absent means role:everyone. */
  can_access_all_users_group?: GroupSettingValue;
  /** Who may authorize / start direct message conversations; absent means role:everyone. */
  direct_message_permission_group?: GroupSettingValue;
  direct_message_initiator_group?: GroupSettingValue;
  /** Who may use wildcard mentions in large channels; absent means role:administrators. */
  can_mention_many_users_group?: GroupSettingValue;
  /** Zulip's realm jitsi_server_url: a custom Jitsi Meet server; absent or null: the server default. */
  jitsi_server_url?: string | null;
  /** BigBlueButton (server/lib/realm/video-calls.ts): the API base URL (`.../bigbluebutton/`) and its shared secret. */
  bigbluebutton_url?: string | null;
  bigbluebutton_secret?: string | null;
  /** The uploaded organization icon (file name under `realm/` in the data dir), absent for the default. */
  icon?: { file: string; content_type: string; version: number };
  /** Last icon version handed out (kept after a delete, so an icon URL is never reused). */
  icon_version?: number;
}

export const DEFAULT_REALM_SETTINGS: RealmSettings = {
  enable_spectator_access: false,
  email_address_visibility: 1,
  max_file_upload_size_mib: 25,
  fake_email_domain: 'hearth.local',
};

export interface RealmRecord {
  id: number;
  name: string;
  description: string;
  /** Unix seconds. */
  date_created: number;
  settings: RealmSettings;
  /** Made by `hearth demo` (server/demo/): pages say it is a demo organization. */
  demo?: boolean;
  /** Linkifiers in matching order (server/lib/realm/linkifiers.ts); replaced, never changed in place. */
  linkifiers?: LinkifierRecord[];
  /** Last linkifier ID handed out (IDs are never reused). */
  linkifier_last_id?: number;
  /** Code playgrounds (Zulip's RealmPlayground): where code blocks of a language can be opened. */
  playgrounds?: PlaygroundRecord[];
  playground_last_id?: number;
}

export interface PlaygroundRecord {
  id: number;
  name: string;
  pygments_language: string;
  /** RFC 6570 template whose only variable is `code`. */
  url_template: string;
}

/** Zulip's RealmFilter: a pattern with Python-style named groups and an RFC 6570 URL template. */
export interface LinkifierRecord {
  id: number;
  pattern: string;
  url_template: string;
}

export interface RealmDoc {
  realm: RealmRecord | null;
}

export const ROLE = { OWNER: 100, ADMIN: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

export interface UserRecord {
  id: number;
  /** The real (delivery) email address; also the login. */
  email: string;
  full_name: string;
  role: Role;
  is_active: boolean;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  api_key: string;
  /** `scrypt$<N>$<salt b64>$<hash b64>`, or null for accounts that cannot log in with a password. */
  password_hash: string | null;
  /** ISO 8601 with offset. */
  date_joined: string;
  timezone: string;
  avatar_version: number;
  is_imported_stub: boolean;
  /** An uploaded avatar (file name under `avatars/` in the data dir); absent: the generated default. */
  avatar?: { file: string; content_type: string };
  /** Permanently deleted (always also inactive); absent means false. */
  is_deleted?: boolean;
  /**
   * Custom profile field values by field ID (string key): the value as the API shows it (users-type
   * values are JSON lists of IDs) and, for Markdown-capable types, its HTML rendered when it was set.
   */
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
  /** Zulip's special permission: this owner may change other users' emails (`new_email`). */
  can_change_user_emails?: boolean;
  /** Created through the API (`POST /users`) and not logged in yet: `date_joined` moves to the first login. */
  awaiting_first_login?: boolean;
  /** Bots only (the bots area, server/lib/people/bots.ts): default channels, services and configuration. */
  bot_settings?: BotSettings;
  /** Personal settings the user changed (server/lib/people/settings.ts has the rest's defaults). */
  user_settings?: Record<string, unknown>;
  /** Alert words as entered (matched case-insensitively). */
  alert_words?: string[];
  /** Users this user muted, with when (Unix seconds). */
  muted_users?: { id: number; timestamp: number }[];
  /** Per-topic visibility (0 inherit is not stored; 1 muted, 2 unmuted, 3 followed). */
  user_topics?: { stream_id: number; topic_name: string; visibility_policy: number; last_updated: number }[];
  /** Saved message snippets (Zulip 10). */
  saved_snippets?: { id: number; title: string; content: string; date_created: number }[];
  /** Left-sidebar navigation views (Zulip 11): built-in views re-pinned or custom narrows by URL fragment. */
  navigation_views?: { fragment: string; is_pinned: boolean; name: string | null }[];
  /** The user's status (empty fields are not kept). */
  status?: { status_text?: string; emoji_name?: string; emoji_code?: string; reaction_type?: string };
}

/** What a bot keeps besides its user fields (Zulip's UserProfile bot columns, Service and BotConfigData rows). */
export interface BotSettings {
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: boolean;
  /** Outgoing-webhook bots: where messages are posted, in which format, with which token. */
  outgoing?: { service_name: string; base_url: string; interface: number; token: string };
  /** Embedded bots: the bot's name; incoming-webhook bots: the integration (Zulip's `integration_id`). */
  service_name?: string;
  /** Embedded and incoming-webhook bots: configuration key/value pairs. */
  config_data?: Record<string, string>;
}

/** Custom profile field types (Zulip's ids). */
export const PROFILE_FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

export interface ProfileFieldRecord {
  id: number;
  type: number;
  order: number;
  name: string;
  hint: string;
  /** JSON text: select choices, or an external account's subtype and URL pattern; '' otherwise. */
  field_data: string;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
  use_for_user_matching: boolean;
}

export interface ProfileFieldsDoc {
  nextId: number;
  fields: ProfileFieldRecord[];
}

export interface UsersDoc {
  nextId: number;
  users: UserRecord[];
  /**
   * IDs taken from `nextId` for Zulip's cross-realm system bots, which are not accounts here
   * (server/lib/people/system-bots.ts): the Notification Bot and the Welcome Bot, allocated with the
   * organization (or at the first start of older data).
   */
  system_bots?: { notification?: number; welcome?: number };
}

/** A message waiting to be sent (Zulip's ScheduledMessage, SEND_LATER): deleted once sent. */
export interface ScheduledMessageRecord {
  id: number;
  sender_id: number;
  type: 'stream' | 'private';
  /** The channel ID, or the direct recipients' user IDs (without the sender, unless only the sender). */
  to: number | number[];
  /** Channel messages only. */
  topic?: string;
  content: string;
  rendered: string;
  /** Unix seconds. */
  scheduled_at: number;
  read_by_sender: boolean;
  /** Delivery was tried and failed (why: failure_message); the sender must reschedule. */
  failed: boolean;
  failure_message?: string;
  /**
   * A reminder (Zulip's REMIND delivery type, feature level 381): the Notification Bot sends the
   * sender a direct message about this message at the time; `to` is the sender.
   */
  remind?: { message_id: number; note?: string };
}

export interface ScheduledMessagesDoc {
  nextId: number;
  scheduled: ScheduledMessageRecord[];
}

/** A reusable invite link (Zulip's MultiuseInvite): anyone with the link may create an account. */
export interface InviteRecord {
  id: number;
  /** The secret in the link (`/join/<key>/`). */
  key: string;
  invited_by: number;
  /** Unix seconds. */
  created: number;
  /** Unix seconds; null: never expires. */
  expires: number | null;
  role: Role;
  stream_ids: number[];
  include_realm_default_subscriptions: boolean;
  /** Accounts created with it. */
  used: number;
}

export interface InvitesDoc {
  nextId: number;
  invites: InviteRecord[];
}

export type DraftType = '' | 'stream' | 'private';

export interface DraftRecord {
  id: number;
  user_id: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  /** Unix seconds of the last edit. */
  timestamp: number;
}

export interface DraftsDoc {
  nextId: number;
  drafts: DraftRecord[];
}

/** A push token a mobile app registered (kept, never used: Hearth relays no push notifications). */
export interface PushTokenRecord {
  user_id: number;
  kind: 'fcm' | 'apns';
  token: string;
  /** APNs only: the app's bundle ID. */
  ios_app_id: string | null;
  /** Unix seconds of the last registration. */
  last_updated: number;
}

/** A logged-in mobile device (`POST /register_client_device`). */
export interface DeviceRecord {
  id: number;
  user_id: number;
  /** Unix seconds. */
  date_created: number;
}

export interface DevicesDoc {
  nextId: number;
  devices: DeviceRecord[];
  push_tokens: PushTokenRecord[];
}

/** A custom emoji (Zulip's RealmEmoji). Deactivated ones stay: old messages and reactions still show them. */
export interface RealmEmojiRecord {
  id: number;
  name: string;
  /** The image's file name under `<data dir>/emoji/`. */
  file: string;
  content_type: string;
  author_id: number | null;
  deactivated: boolean;
  created: number;
}

export interface RealmEmojiDoc {
  nextId: number;
  emoji: RealmEmojiRecord[];
}
