/**
 * The one client-side store, as every Zulip client keeps it: filled from `POST /register`
 * and kept current by events (events.ts applies them). Views read these signals and
 * re-render when they change; nothing is counted from what the page happens to show
 * (unread counts come from `unread_msgs` and flag events).
 */
import { computed, signal } from '@preact/signals';
import type { MessageLike } from './narrow.js';
import type { Submessage } from './widgets.js';

export interface User {
  user_id: number;
  full_name: string;
  email: string;
  avatar_url: string | null;
  is_active: boolean;
  is_bot: boolean;
  role: number;
  is_admin?: boolean;
  /** People and profile cards: IANA time zone ('' unknown), email where visible, custom field values. */
  timezone?: string;
  delivery_email?: string | null;
  date_joined?: string;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

/** Presence in Zulip's slim form (seconds). */
export interface PresenceRow {
  active_timestamp: number;
  idle_timestamp: number;
}

/** A user's status (`user_status`): text and emoji, empty strings when cleared. */
export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

/** A custom profile field of the organization (`custom_profile_fields`). */
export interface ProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  display_in_profile_summary?: boolean;
}

/** A topic's visibility for one: 1 muted, 2 unmuted, 3 followed (`user_topics`). */
export interface UserTopic {
  stream_id: number;
  topic_name: string;
  visibility_policy: number;
  last_updated?: number;
}

export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  rendered_description?: string;
  invite_only: boolean;
  is_archived?: boolean;
}

export interface Subscription extends Channel {
  color: string;
  pin_to_top: boolean;
  is_muted: boolean;
  /** The channel folder it is in (register's channel_folders), null: none. */
  folder_id?: number | null;
  /** Per-channel notification choices; null: the personal default. */
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
  push_notifications?: boolean | null;
  email_notifications?: boolean | null;
  wildcard_mentions_notify?: boolean | null;
}

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface Message extends MessageLike {
  content: string;
  timestamp: number;
  sender_full_name: string;
  avatar_url: string | null;
  reactions: Reaction[];
  /** Zulip's submessages: a poll or to-do list and its events (widgets.ts), kept through edits and moves. */
  submessages?: Submessage[];
  last_edit_timestamp?: number;
  /** Set while a sent message waits for its event (local echo). */
  pending?: boolean;
  /** A local echo whose send got no answer: shown as not sent, with Retry and Cancel (unsent.ts). */
  failed?: boolean;
}

/** Where an unread message is: a channel topic or a direct conversation (peers, ascending). */
export type UnreadPlace = { streamId: number; topic: string } | { peers: string };

export interface Feed {
  messages: Message[];
  foundOldest: boolean;
  foundNewest: boolean;
  loading: boolean;
  error: string | null;
}

/** A draft as the server keeps it (`/drafts`): a channel topic, a direct conversation, or unaddressed. */
export interface Draft {
  id: number;
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** A message scheduled to be sent later (`/scheduled_messages`). */
export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  /** The channel ID, or the recipients' user IDs. */
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

/** A reminder about a message (`/reminders`): a direct message from the Notification Bot, later. */
export interface Reminder {
  reminder_id: number;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

/** Zulip's group-setting value: a group ID, or an anonymous group. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  can_mention_group: GroupSettingValue;
  deactivated?: boolean;
}

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

export const emptyFeed = (): Feed => ({ messages: [], foundOldest: false, foundNewest: false, loading: false, error: null });

export const store = {
  /** False until the first register answered. */
  ready: signal(false),
  realmName: signal(''),
  /** An organization made by `hearth demo` (register's hearth_demo_organization). */
  demo: signal(false),
  selfId: signal(0),
  isAdmin: signal(false),
  canCreateChannels: signal(false),
  users: signal(new Map<number, User>()),
  subscriptions: signal<Subscription[]>([]),
  /** Every channel the user may see (subscribed or not). */
  channels: signal(new Map<number, Channel>()),
  unread: signal(new Map<number, UnreadPlace>()),
  mentions: signal(new Set<number>()),
  /** Muted topics, as `streamId:topic (lower case)`. */
  mutedTopics: signal(new Set<string>()),
  feeds: signal(new Map<string, Feed>()),
  /** Who is typing where: conversation key → user IDs. */
  typing: signal(new Map<string, number[]>()),
  /** Last activity per user (seconds), from presence. */
  presence: signal(new Map<number, number>()),
  /** Recent conversations: key → newest message ID seen (from the feeds and events). */
  recent: signal(new Map<string, RecentConversation>()),
  connection: signal<'connected' | 'reconnecting' | 'not-answering'>('connected'),
  /** When the next try to reach the server starts (ms since the epoch), while it is away. */
  retryAt: signal<number | null>(null),
  maxMessageLength: signal(10000),
  /** The largest file one may upload, in MiB (register's `max_file_upload_size_mib`, kept by realm events). */
  maxFileUploadMib: signal(25),
  maxTopicLength: signal(60),
  serverEmojiDataUrl: signal(''),
  userSettings: signal<Record<string, unknown>>({}),
  /** People (people-state.ts): presence rows, thresholds, a ticking clock (server seconds), statuses, profile fields, mutes, alert words, topic visibility. */
  presenceRows: signal(new Map<number, PresenceRow>()),
  presenceThreshold: signal(140),
  presencePingInterval: signal(60),
  clockSkew: signal(0),
  now: signal(Date.now() / 1000),
  userStatus: signal(new Map<number, UserStatus>()),
  profileFields: signal<ProfileField[]>([]),
  mutedUsers: signal(new Map<number, number>()),
  alertWords: signal<string[]>([]),
  userTopics: signal(new Map<string, UserTopic>()),
  /** Compose features: drafts by ID, scheduled messages and reminders (soonest first), groups, custom emoji, calls. */
  drafts: signal(new Map<number, Draft>()),
  scheduled: signal<ScheduledMessage[]>([]),
  reminders: signal<Reminder[]>([]),
  userGroups: signal(new Map<number, UserGroup>()),
  realmEmoji: signal<Record<string, RealmEmoji>>({}),
  videoChatProvider: signal(0),
  canMentionManyUsersGroup: signal<GroupSettingValue>(0),
  /** Message actions: the organization's rules for editing, deleting, moving and reporting (register's `realm_*`, prefix dropped; MESSAGE_RULES). */
  messageRules: signal<Record<string, unknown>>({}),
  /** "Mark as unread from here" pauses marking messages read on sight until the view changes (as Zulip does). */
  readPaused: signal(false),
};

/** The realm settings message actions follow (without `realm_`), kept in store.messageRules. */
export const MESSAGE_RULES = [
  'allow_message_editing', 'message_content_edit_limit_seconds', 'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds', 'move_messages_between_streams_limit_seconds', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_between_topics_group', 'can_move_messages_between_channels_group',
  'can_resolve_topics_group', 'moderation_request_channel_id', 'enable_read_receipts', 'allow_edit_history',
];

export const placeKey = (p: UnreadPlace) => ('peers' in p ? `dm:${p.peers}` : `topic:${p.streamId}:${p.topic.toLowerCase()}`);

export const userName = (id: number) => store.users.value.get(id)?.full_name ?? 'Unknown user';

export const channelName = (id: number) => store.channels.value.get(id)?.name ?? `channel ${id}`;

/** How a topic is shown: the empty topic as Zulip's web app names it. */
export const topicLabel = (topic: string | undefined) => topic || 'general chat';

export const isTopicMuted = (streamId: number, topic: string) => store.mutedTopics.value.has(`${streamId}:${topic.toLowerCase()}`);

const subscriptionOf = (id: number) => store.subscriptions.value.find((s) => s.stream_id === id);

/**
 * Muted as Zulip's views count and show it: the topic muted, or its channel muted and the topic
 * neither unmuted nor followed (`user_topics` visibility policies 2 and 3).
 */
export function mutedInViews(streamId: number, topic: string): boolean {
  if (isTopicMuted(streamId, topic)) return true;
  if (subscriptionOf(streamId)?.is_muted !== true) return false;
  const p = store.userTopics.value.get(`${streamId}:${topic.toLowerCase()}`)?.visibility_policy;
  return p !== 2 && p !== 3;
}

/** Unread counts per channel, per topic and per direct conversation, and the total. */
export const unreadCounts = computed(() => {
  const channels = new Map<number, number>();
  const topics = new Map<string, number>();
  const dms = new Map<string, number>();
  let total = 0;
  for (const place of store.unread.value.values()) {
    if ('peers' in place) {
      dms.set(place.peers, (dms.get(place.peers) ?? 0) + 1);
      total++;
      continue;
    }
    const muted = mutedInViews(place.streamId, place.topic);
    const key = `${place.streamId}:${place.topic.toLowerCase()}`;
    topics.set(key, (topics.get(key) ?? 0) + 1);
    if (!muted) {
      channels.set(place.streamId, (channels.get(place.streamId) ?? 0) + 1);
      total++;
    }
  }
  return { channels, topics, dms, total, mentions: store.mentions.value.size };
});

/** Topics of a channel, newest first, from unreads and loaded messages. */
export function topicsOf(streamId: number): { topic: string; maxId: number; unread: number }[] {
  const byKey = new Map<string, { topic: string; maxId: number; unread: number }>();
  for (const [key, r] of store.recent.value) {
    if ('peers' in r.place || r.place.streamId !== streamId || !key.startsWith('topic:')) continue;
    byKey.set(r.place.topic.toLowerCase(), { topic: r.place.topic, maxId: r.maxId, unread: 0 });
  }
  for (const [id, place] of store.unread.value) {
    if ('peers' in place || place.streamId !== streamId) continue;
    const k = place.topic.toLowerCase();
    const t = byKey.get(k) ?? { topic: place.topic, maxId: id, unread: 0 };
    t.unread++;
    t.maxId = Math.max(t.maxId, id);
    byKey.set(k, t);
  }
  return [...byKey.values()].sort((a, b) => b.maxId - a.maxId);
}

/** A conversation in Recent conversations: its newest message, and who wrote in it (newest first). */
export interface RecentConversation {
  place: UnreadPlace;
  maxId: number;
  /** The newest message's time (Unix seconds); 0 when not known. */
  timestamp: number;
  /** Senders of the messages seen here, the newest first, each once (at most RECENT_SENDERS). */
  senders: number[];
}

const RECENT_SENDERS = 10;

/** Notes messages as the newest of their conversations (Recent conversations, topic lists), in one change. */
export function noteRecent(seen: Iterable<[Message, UnreadPlace]>): void {
  let next: Map<string, RecentConversation> | null = null;
  for (const [m, place] of seen) {
    const key = placeKey(place);
    const had = (next ?? store.recent.value).get(key);
    // The same ID as the newest known is the message itself (register names it by ID only, no time).
    const newest = !had || m.id > had.maxId || (m.id === had.maxId && had.timestamp === 0);
    if (had && !newest && had.senders.includes(m.sender_id)) continue;
    next ??= new Map(store.recent.value);
    const senders = had ? had.senders.filter((id) => id !== m.sender_id) : [];
    // The newest message's sender goes first; an older one's goes after those already seen.
    if (newest) senders.unshift(m.sender_id);
    else senders.push(m.sender_id);
    next.set(key, {
      place: newest ? place : had!.place,
      maxId: newest ? m.id : had!.maxId,
      timestamp: newest ? m.timestamp : had!.timestamp,
      senders: senders.slice(0, RECENT_SENDERS),
    });
  }
  if (next) store.recent.value = next;
}

export function updateFeed(key: string, change: (f: Feed) => Feed): void {
  const next = new Map(store.feeds.value);
  next.set(key, change(next.get(key) ?? emptyFeed()));
  store.feeds.value = next;
}

/** Message times in 24-hour form (the `twenty_four_hour_time` setting; time.ts reads it). */
export const twentyFourHour = computed(() => store.userSettings.value.twenty_four_hour_time === true);
