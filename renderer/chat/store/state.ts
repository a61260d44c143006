/**
 * The one client-side store, as every Zulip client keeps it: filled from `POST /register`
 * and kept current by events (events.ts applies them). Views read these signals and
 * re-render when they change; nothing is counted from what the page happens to show
 * (unread counts come from `unread_msgs` and flag events).
 */
import { computed, signal } from '@preact/signals';
import type { Channel, ChannelFolder, Subscription, UserTopic } from '../../../server/protocol/channel.js';
import { topicKey } from '../../../server/protocol/conversation-keys.js';
import type { Draft } from '../../../server/protocol/draft.js';
import type { Message as WireMessage } from '../../../server/protocol/message.js';
import type { RealmEmoji } from '../../../server/protocol/realm-emoji.js';
import type { Reminder, ScheduledMessage } from '../../../server/protocol/scheduled-message.js';
import type { PresenceTimes as PresenceRow, ProfileField, User, UserStatus } from '../../../server/protocol/user.js';
import type { GroupSettingValue, UserGroup } from '../../../server/protocol/user-group.js';

/** The server's data as the client keeps it: the wire shapes of server/protocol/. */
export type { Channel, Draft, GroupSettingValue, PresenceRow, ProfileField, RealmEmoji, Reminder, ScheduledMessage, Subscription, User, UserGroup, UserStatus, UserTopic };
export type { ChannelFolder };
export type { Reaction, Submessage } from '../../../server/protocol/message.js';

/**
 * A message as the store keeps it: the wire message (server/protocol/), and a local echo's state
 * (an echo knows its direct recipients by ID only).
 */
export interface Message extends Omit<WireMessage, 'display_recipient'> {
  display_recipient: WireMessage['display_recipient'] | { id: number }[];
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

export const emptyFeed = (): Feed => ({ messages: [], foundOldest: false, foundNewest: false, loading: false, error: null });

/**
 * Makes a store: every signal empty, as before the first register. The page makes one (`store`
 * below, which the views import); tests make their own (test/renderer/store-*.test.ts).
 */
export const createStore = () => ({
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
  /** The organization's channel folders, in their display order (register's `channel_folders`, `channel_folder` events). */
  channelFolders: signal<ChannelFolder[]>([]),
});

/** The client store: what `createStore()` makes. */
export type Store = ReturnType<typeof createStore>;

/** This page's one store, fed by register and events (events.ts). */
export const store: Store = createStore();

/** The realm settings message actions follow (without `realm_`), kept in store.messageRules. */
export const MESSAGE_RULES = [
  'allow_message_editing', 'message_content_edit_limit_seconds', 'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds', 'move_messages_between_streams_limit_seconds', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_between_topics_group', 'can_move_messages_between_channels_group',
  'can_resolve_topics_group', 'moderation_request_channel_id', 'enable_read_receipts', 'allow_edit_history',
];

export const placeKey = (p: UnreadPlace) => ('peers' in p ? `dm:${p.peers}` : `topic:${topicKey(p.streamId, p.topic)}`);

export const userName = (id: number) => store.users.value.get(id)?.full_name ?? 'Unknown user';

export const channelName = (id: number) => store.channels.value.get(id)?.name ?? `channel ${id}`;

/** How a topic is shown: the empty topic as Zulip's web app names it. */
export const topicLabel = (topic: string | undefined) => topic || 'general chat';

export const isTopicMuted = (streamId: number, topic: string) => store.mutedTopics.value.has(topicKey(streamId, topic));

const subscriptionOf = (id: number) => store.subscriptions.value.find((s) => s.stream_id === id);

/**
 * Muted as Zulip's views count and show it: the topic muted, or its channel muted and the topic
 * neither unmuted nor followed (`user_topics` visibility policies 2 and 3).
 */
export function mutedInViews(streamId: number, topic: string): boolean {
  if (isTopicMuted(streamId, topic)) return true;
  if (subscriptionOf(streamId)?.is_muted !== true) return false;
  const p = store.userTopics.value.get(topicKey(streamId, topic))?.visibility_policy;
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
    const key = topicKey(place.streamId, place.topic);
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
export function noteRecent(seen: Iterable<[Message, UnreadPlace]>, s: Store = store): void {
  let next: Map<string, RecentConversation> | null = null;
  for (const [m, place] of seen) {
    const key = placeKey(place);
    const had = (next ?? s.recent.value).get(key);
    // The same ID as the newest known is the message itself (register names it by ID only, no time).
    const newest = !had || m.id > had.maxId || (m.id === had.maxId && had.timestamp === 0);
    if (had && !newest && had.senders.includes(m.sender_id)) continue;
    next ??= new Map(s.recent.value);
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
  if (next) s.recent.value = next;
}

export function updateFeed(key: string, change: (f: Feed) => Feed): void {
  const next = new Map(store.feeds.value);
  next.set(key, change(next.get(key) ?? emptyFeed()));
  store.feeds.value = next;
}

/** Message times in 24-hour form (the `twenty_four_hour_time` setting; time.ts reads it). */
export const twentyFourHour = computed(() => store.userSettings.value.twenty_four_hour_time === true);
