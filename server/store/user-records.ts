/** People and bots (`users.json`): roles, the user record, bot settings. */

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
  /** A bot's last notice to its owner about a misaddressed webhook message (ms; Zulip's `last_reminder`). */
  last_reminder?: number;
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
