/**
 * Channel lookups and Zulip's access rules (zerver/lib/streams.py):
 *
 * - content access (read messages, subscribe others): web-public, subscribed,
 *   or a non-guest on a public channel or in its can_subscribe_group /
 *   can_add_subscribers_group;
 * - metadata access (know it exists, see its settings and subscribers): content
 *   access, or a non-guest organization administrator, or a non-guest in
 *   can_administer_channel_group;
 * - administering: organization administrators, or a non-guest in
 *   can_administer_channel_group.
 *
 * Everything that decides who learns about a channel (events, register,
 * endpoints) goes through these functions.
 */
import type { App } from '../../context.js';
import type { ChannelRecord, SubscriptionRecord } from '../../store/channel-records.js';
import type { UserRecord } from '../../store/records.js';
import { SETTINGS_GRANTING_METADATA_ACCESS } from './settings.js';
import { isUserInGroupSetting } from '../groups/groups.js';
import { isAdmin, isGuest } from '../people/people.js';

export const channelById = (app: App, id: number): ChannelRecord | undefined =>
  app.store.channels.data.channels.find((c) => c.id === id);

/** Channel names are unique case-insensitively (Zulip's name__iexact). */
export function channelByName(app: App, name: string): ChannelRecord | undefined {
  const key = name.trim().toLowerCase();
  return app.store.channels.data.channels.find((c) => c.name.toLowerCase() === key);
}

/** The user's subscription row to the channel, active or not (rows are kept to remember settings). */
export const subscriptionOf = (app: App, userId: number, streamId: number): SubscriptionRecord | undefined =>
  app.store.subscriptions.data.subscriptions.find((s) => s.user_id === userId && s.stream_id === streamId);

export const isSubscribed = (app: App, userId: number, streamId: number): boolean =>
  subscriptionOf(app, userId, streamId)?.active === true;

const isActiveUser = (app: App, userId: number) => app.store.users.get(userId)?.is_active === true;

/** Active subscribers (deactivated users excluded), ascending. */
export function subscriberIds(app: App, streamId: number): number[] {
  return app.store.subscriptions.data.subscriptions
    .filter((s) => s.stream_id === streamId && s.active && isActiveUser(app, s.user_id))
    .map((s) => s.user_id)
    .sort((a, b) => a - b);
}

/** Active subscribers of every channel in one pass (register, GET /streams). */
export function subscriberMap(app: App): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const c of app.store.channels.data.channels) out.set(c.id, []);
  for (const s of app.store.subscriptions.data.subscriptions) {
    if (s.active && isActiveUser(app, s.user_id)) out.get(s.stream_id)?.push(s.user_id);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

export const isPublic = (c: ChannelRecord) => !c.invite_only;

/**
 * Membership in one of the channel's settings. The settings that grant access or
 * administration never include guests (Zulip: allow_everyone_group=False).
 */
export function inChannelSetting(app: App, user: UserRecord, channel: ChannelRecord, setting: string): boolean {
  const value = channel.settings[setting];
  return value !== undefined && isUserInGroupSetting(app, value, user.id);
}

const inNonGuestSetting = (app: App, user: UserRecord, channel: ChannelRecord, setting: string) =>
  !isGuest(user) && inChannelSetting(app, user, channel, setting);

export function hasContentAccess(
  app: App,
  user: UserRecord,
  channel: ChannelRecord,
  subscribed = isSubscribed(app, user.id, channel.id),
): boolean {
  if (channel.is_web_public || subscribed) return true;
  if (isGuest(user)) return false;
  if (isPublic(channel)) return true;
  return (
    inChannelSetting(app, user, channel, 'can_subscribe_group') ||
    inChannelSetting(app, user, channel, 'can_add_subscribers_group')
  );
}

export function hasMetadataAccess(
  app: App,
  user: UserRecord,
  channel: ChannelRecord,
  subscribed = isSubscribed(app, user.id, channel.id),
): boolean {
  if (channel.is_web_public || subscribed) return true;
  if (isGuest(user)) return false;
  if (isPublic(channel) || isAdmin(user)) return true;
  return SETTINGS_GRANTING_METADATA_ACCESS.some((s) => inChannelSetting(app, user, channel, s));
}

/**
 * Whether the user may see the channel's subscriber list. For Zulip's rules
 * (validate_user_access_to_subscribers) this is exactly metadata access.
 */
export const canSeeSubscribers = hasMetadataAccess;

/** Organization administrators administer every channel; others through can_administer_channel_group. */
export const canAdminister = (app: App, user: UserRecord, channel: ChannelRecord): boolean =>
  isAdmin(user) || inNonGuestSetting(app, user, channel, 'can_administer_channel_group');

/** May the user add other users (to a channel they have content access to)? */
export function canAddSubscribers(app: App, user: UserRecord, channel: ChannelRecord): boolean {
  if (isAdmin(user)) return true;
  if (isGuest(user)) return false;
  return (
    inChannelSetting(app, user, channel, 'can_administer_channel_group') ||
    inChannelSetting(app, user, channel, 'can_add_subscribers_group')
  );
}

/**
 * May the user unsubscribe others from all these channels (Zulip's
 * bulk_can_remove_subscribers_from_streams)? Administering every one of them is
 * enough; otherwise each needs metadata access and can_remove_subscribers_group.
 */
export function canRemoveSubscribers(app: App, user: UserRecord, channels: ChannelRecord[]): boolean {
  if (isAdmin(user)) return true;
  if (isGuest(user)) return false;
  if (channels.every((c) => canAdminister(app, user, c))) return true;
  return channels.every(
    (c) => hasMetadataAccess(app, user, c) && inChannelSetting(app, user, c, 'can_remove_subscribers_group'),
  );
}

/** Every active user who may know the channel exists: the recipients of its events. */
export function metadataAccessUserIds(app: App, channel: ChannelRecord): Set<number> {
  const subscribed = new Set(subscriberIds(app, channel.id));
  const out = new Set<number>();
  for (const u of app.store.users.all()) {
    if (u.is_active && hasMetadataAccess(app, u, channel, subscribed.has(u.id))) out.add(u.id);
  }
  return out;
}

/** Active users who are not guests (public-channel audiences). */
export const activeNonGuestIds = (app: App): number[] =>
  app.store.users
    .all()
    .filter((u) => u.is_active && !isGuest(u))
    .map((u) => u.id);

export const activeUserIds = (app: App): number[] =>
  app.store.users
    .all()
    .filter((u) => u.is_active)
    .map((u) => u.id);

/**
 * ChannelDirectory.canAccess (drafts, typing, messages): an active channel the
 * user has content access to (Zulip's access_stream_by_id).
 */
export function canAddressChannel(app: App, userId: number, streamId: number): boolean {
  const user = app.store.users.get(userId);
  const channel = channelById(app, streamId);
  if (!user || !user.is_active || !channel || channel.is_archived) return false;
  return hasContentAccess(app, user, channel);
}
