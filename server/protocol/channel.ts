/** Channels as clients get them: the channel object, a subscription, a channel folder. */

export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  rendered_description?: string;
  invite_only: boolean;
  is_archived?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  date_created?: number;
  creator_id?: number | null;
  /** The channel folder it is in, null: none. */
  folder_id?: number | null;
  first_message_id?: number | null;
  subscriber_count?: number;
}

/** A channel with the subscriber's own settings. */
export interface Subscription extends Channel {
  color: string;
  pin_to_top: boolean;
  is_muted: boolean;
  in_home_view?: boolean;
  /** Per-channel notification choices; null: the personal default. */
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
  push_notifications?: boolean | null;
  email_notifications?: boolean | null;
  wildcard_mentions_notify?: boolean | null;
  subscribers?: number[];
}

/** An organization's channel folder (register's `channel_folders`). */
export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  /** Display order: lower first, then by ID. */
  order: number;
  date_created: number | null;
  creator_id: number | null;
  is_archived: boolean;
}

/** A topic's visibility for one person: 0 inherit, 1 muted, 2 unmuted, 3 followed (`user_topics`). */
export interface UserTopic {
  stream_id: number;
  topic_name: string;
  visibility_policy: number;
  last_updated?: number;
}
