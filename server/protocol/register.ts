/**
 * The `POST /register` answer's parts that clients read (Zulip's register response: the state
 * snapshot events then keep current). Organization settings are `realm_<name>`.
 */
import type { Channel, ChannelFolder, Subscription, UserTopic } from './channel.js';
import type { Draft } from './draft.js';
import type { RealmEmoji } from './realm-emoji.js';
import type { Reminder, ScheduledMessage } from './scheduled-message.js';
import type { PresenceTimes, ProfileField, User, UserStatus } from './user.js';
import type { GroupSettingValue, UserGroup } from './user-group.js';

/** Unread messages by conversation (`unread_msgs`). */
export interface UnreadMessages {
  pms: { other_user_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
}

export interface RegisterState {
  queue_id: string;
  last_event_id: number;
  user_id: number;
  is_admin?: boolean;
  can_create_public_streams?: boolean;
  can_create_private_streams?: boolean;
  realm_name?: string;
  /** An organization made by `hearth demo`. */
  hearth_demo_organization?: boolean;
  max_message_length?: number;
  max_file_upload_size_mib?: number;
  max_topic_length?: number;
  server_emoji_data_url?: string;
  server_timestamp?: number;
  server_presence_offline_threshold_seconds?: number;
  server_presence_ping_interval_seconds?: number;
  user_settings?: Record<string, unknown>;
  realm_users?: User[];
  realm_non_active_users?: User[];
  cross_realm_bots?: User[];
  subscriptions?: Subscription[];
  streams?: Channel[];
  never_subscribed?: Channel[];
  unsubscribed?: Channel[];
  channel_folders?: ChannelFolder[];
  unread_msgs?: UnreadMessages;
  user_topics?: UserTopic[];
  /** Slim presence: by user ID. */
  presences?: Record<string, PresenceTimes>;
  recent_private_conversations?: { max_message_id: number; user_ids: number[] }[];
  user_status?: Record<string, UserStatus>;
  custom_profile_fields?: ProfileField[];
  muted_users?: { id: number; timestamp: number }[];
  alert_words?: string[];
  drafts?: Draft[];
  scheduled_messages?: ScheduledMessage[];
  reminders?: Reminder[];
  realm_user_groups?: UserGroup[];
  realm_emoji?: Record<string, RealmEmoji>;
  realm_video_chat_provider?: number;
  realm_can_mention_many_users_group?: GroupSettingValue;
  /** Every other organization setting. */
  [setting: `realm_${string}`]: unknown;
}
