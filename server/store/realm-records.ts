/** The organization (`realm.json`): its settings, linkifiers and code playgrounds. */
import type { GroupSettingValue } from './channel-records.js';

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
  /** Outgoing webhooks may call this computer (loopback and its own addresses); default off. */
  hearth_allow_loopback_webhooks?: boolean;
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
  /** STUN/TURN servers for Hearth's own calls (server/lib/calls/ice-servers.ts); absent: none, host candidates only. */
  hearth_call_ice_servers?: { urls: string | string[]; username?: string; credential?: string }[];
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
