/**
 * API shapes of channels, subscriptions and channel folders (Zulip's
 * stream_to_dict, build_stream_dict_for_sub and get_channel_folder_dict).
 */
import type { App } from '../../context.js';
import type { Channel, ChannelFolder, Subscription } from '../../protocol/channel.js';
import type { ChannelFolderRecord, ChannelRecord, SubscriptionRecord } from '../../store/channel-records.js';
import { CHANNEL_SETTING_NAMES } from './settings.js';
import { subscriberIds } from './access.js';
import { groupSettingForApi } from '../groups/groups.js';
import { userSetting } from '../people/settings.js';
import { own } from '../own.js';

/** Zulip's deprecated stream_post_policy values, derived from can_send_message_group. */
const POST_POLICY_BY_GROUP: Record<string, number> = {
  'role:everyone': 1,
  'role:administrators': 2,
  'role:fullmembers': 3,
  'role:moderators': 4,
};

function streamPostPolicy(app: App, channel: ChannelRecord): number {
  const value = channel.settings.can_send_message_group;
  if (typeof value !== 'number') return 1;
  const group = app.store.groups.data.groups.find((g) => g.id === value && g.is_system_group);
  return (group && own(POST_POLICY_BY_GROUP, group.name)) ?? 1;
}

/**
 * The channel object as the server sends it: the protocol's `Channel` (what clients read, the web
 * app included: the compiler holds the two together), every field present, plus the fields only
 * other clients read and the group settings by name.
 */
export type ChannelObject = Required<Channel> & {
  topics_policy: string;
  message_retention_days: number | null;
  is_recently_active: boolean;
  stream_weekly_traffic: number | null;
  stream_post_policy: number;
  is_announcement_only: boolean;
  [groupSetting: string]: unknown;
};

/** The personal part of a subscription object (the protocol's `Subscription` less the channel). */
export type SubscriptionSettings = Required<Pick<Subscription, 'color' | 'is_muted' | 'in_home_view' | 'pin_to_top' | (typeof NOTIFICATION_SETTINGS)[number]>>;

/**
 * The channel object (BasicChannel). `subscriberCount` may be passed when the
 * caller already has the subscriber lists (register), to avoid a rescan.
 */
export function formatChannel(app: App, c: ChannelRecord, subscriberCount?: number): ChannelObject {
  const postPolicy = streamPostPolicy(app, c);
  // The history-derived fields come from the messages area (app.channelMessages), falling back to the record.
  const hooks = app.channelMessages;
  const out: ChannelObject = {
    stream_id: c.id,
    name: c.name,
    is_archived: c.is_archived,
    description: c.description,
    rendered_description: c.rendered_description,
    date_created: c.date_created,
    creator_id: c.creator_id,
    invite_only: c.invite_only,
    is_web_public: c.is_web_public,
    history_public_to_subscribers: c.history_public_to_subscribers,
    message_retention_days: c.message_retention_days,
    first_message_id: hooks.firstMessageId ? hooks.firstMessageId(c.id) : c.first_message_id,
    folder_id: c.folder_id,
    topics_policy: c.topics_policy,
    is_recently_active: hooks.isRecentlyActive ? hooks.isRecentlyActive(c.id) : c.is_recently_active,
    stream_weekly_traffic: hooks.weeklyTraffic(c.id),
    subscriber_count: subscriberCount ?? subscriberIds(app, c.id).length,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === 2,
  };
  for (const name of CHANNEL_SETTING_NAMES) out[name] = groupSettingForApi(c.settings[name]!, app);
  return out;
}

export const NOTIFICATION_SETTINGS = [
  'desktop_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
  'push_notifications',
  'audible_notifications',
] as const;

/** The personal part of a subscription object. */
export function subscriptionFields(sub: SubscriptionRecord): SubscriptionSettings {
  return {
    color: sub.color,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    pin_to_top: sub.pin_to_top,
    desktop_notifications: sub.desktop_notifications,
    email_notifications: sub.email_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
    push_notifications: sub.push_notifications,
    audible_notifications: sub.audible_notifications,
  };
}

/** A subscription object: the channel plus the user's settings for it. */
export const formatSubscription = (app: App, c: ChannelRecord, sub: SubscriptionRecord, subscriberCount?: number): ChannelObject & SubscriptionSettings => ({
  ...formatChannel(app, c, subscriberCount),
  ...subscriptionFields(sub),
});

/**
 * Clients without the `notification_settings_null` capability get booleans:
 * null (inherit) becomes the user's default for channel messages. Zulip does
 * this for the four settings below; wildcard_mentions_notify keeps its null.
 */
export const LEGACY_NOTIFICATION_SETTINGS = [
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
] as const;

/**
 * The user's `enable_stream_<setting>` value (Zulip's
 * handle_stream_notifications_compatibility): what a null (inherit) channel
 * setting means for that user; false for spectators and unknown users.
 */
export function userStreamNotificationDefault(app: App, userId: number | null, setting: string): boolean {
  const user = userId === null ? undefined : app.store.users.get(userId);
  return user ? userSetting(app, user, `enable_stream_${setting}`) === true : false;
}

export function withLegacyNotificationSettings(
  app: App,
  userId: number | null,
  sub: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...sub };
  for (const key of LEGACY_NOTIFICATION_SETTINGS) {
    if (key in out && out[key] === null) out[key] = userStreamNotificationDefault(app, userId, key);
  }
  return out;
}

export const formatFolder = (f: ChannelFolderRecord): ChannelFolder => ({
  id: f.id,
  name: f.name,
  description: f.description,
  rendered_description: f.rendered_description,
  order: f.order,
  date_created: f.date_created,
  creator_id: f.creator_id,
  is_archived: f.is_archived,
});

/** Folders in display order (lower `order` first, then by ID). */
export function foldersInOrder(app: App, includeArchived: boolean): ChannelFolderRecord[] {
  return app.store.channelFolders.data.folders
    .filter((f) => includeArchived || !f.is_archived)
    .sort((a, b) => a.order - b.order || a.id - b.id);
}

/** Zulip's palette for new subscriptions (STREAM_ASSIGNMENT_COLORS). */
export const STREAM_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/** A colour the user is not using yet (Zulip's pick_colors), cycling once all are taken. */
export function pickColor(app: App, userId: number, taken: Set<string> = new Set()): string {
  const used = new Set(taken);
  for (const s of app.store.subscriptions.data.subscriptions) if (s.user_id === userId) used.add(s.color);
  const free = STREAM_COLORS.find((c) => !used.has(c));
  return free ?? STREAM_COLORS[used.size % STREAM_COLORS.length]!;
}
