/**
 * Stored shapes for the channels area: user groups (system and named),
 * channels, subscriptions and channel folders. Fields are Zulip's names.
 */
import type { ChannelFolder } from '../protocol/channel.js';

/** A group ID, or an anonymous group of direct members and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface UserGroupRecord {
  id: number;
  name: string;
  description: string;
  creator_id: number | null;
  /** Unix seconds. */
  date_created: number | null;
  /** Direct member user IDs (system groups: derived from roles, kept empty here). */
  members: number[];
  subgroups: number[];
  is_system_group: boolean;
  deactivated: boolean;
  /** Group settings of the group itself (can_manage_group, ...), by Zulip name. */
  settings: Record<string, GroupSettingValue>;
}

export interface UserGroupsDoc {
  nextId: number;
  groups: UserGroupRecord[];
}

export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export interface ChannelRecord {
  id: number;
  name: string;
  /** Markdown source; `rendered_description` is its HTML, rendered when it changes. */
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  /** null: the organization's setting; -1: forever. */
  message_retention_days: number | null;
  /** Unix seconds. */
  date_created: number;
  creator_id: number | null;
  is_archived: boolean;
  folder_id: number | null;
  topics_policy: TopicsPolicy;
  is_default_stream: boolean;
  /** The oldest message's ID (null: no history yet); the messages area keeps it current. */
  first_message_id: number | null;
  /** Whether a message was sent in the last 180 days; the messages area keeps it current. */
  is_recently_active: boolean;
  /** The eleven channel permission settings, by Zulip name. */
  settings: Record<string, GroupSettingValue>;
}

export interface ChannelsDoc {
  nextId: number;
  channels: ChannelRecord[];
}

export interface SubscriptionRecord {
  user_id: number;
  stream_id: number;
  active: boolean;
  color: string;
  pin_to_top: boolean;
  is_muted: boolean;
  desktop_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  push_notifications: boolean | null;
  audible_notifications: boolean | null;
}

export interface SubscriptionsDoc {
  subscriptions: SubscriptionRecord[];
}

/** A channel folder as stored: exactly the wire shape clients get (`channel_folders`). */
export type ChannelFolderRecord = ChannelFolder;

export interface ChannelFoldersDoc {
  nextId: number;
  folders: ChannelFolderRecord[];
}
