/**
 * Read-side channel listings: GET /streams (Zulip's get_streams_for_user), the
 * subscription lists of GET /users/me/subscriptions and register (Zulip's
 * gather_subscriptions_helper) and what spectators see.
 */
import type { App } from '../../context.js';
import type { ChannelRecord } from '../../store/channel-records.js';
import type { UserRecord } from '../../store/records.js';
import { STREAM_COLORS, formatChannel, formatSubscription } from './format.js';
import {
  canSeeSubscribers,
  hasContentAccess,
  hasMetadataAccess,
  isPublic,
  subscriberMap,
} from './access.js';
import { webPublicChannelsEnabled } from './settings.js';
import { isGuest } from '../people/people.js';

export type IncludeSubscribers = 'true' | 'false' | 'partial';

/** Channels with at least this many subscribers may get `partial_subscribers` under `partial`. */
export const MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE = 250;

export interface StreamListOptions {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAll: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
}

const userSubscribedIds = (app: App, userId: number): Set<number> =>
  new Set(
    app.store.subscriptions.data.subscriptions.filter((s) => s.user_id === userId && s.active).map((s) => s.stream_id),
  );

/** GET /streams: the union of the requested sources, sorted by name. */
export function streamsForUser(app: App, user: UserRecord, o: StreamListOptions): Record<string, unknown>[] {
  const subscribed = userSubscribedIds(app, user.id);
  const owner = user.is_bot && user.bot_owner_id !== null ? userSubscribedIds(app, user.bot_owner_id) : new Set<number>();
  const includePublic = o.includePublic && !isGuest(user);
  const counts = subscriberMap(app);
  const picked = app.store.channels.data.channels.filter((c) => {
    if (o.excludeArchived && c.is_archived) return false;
    const isSub = subscribed.has(c.id);
    if (o.includeAll) return hasMetadataAccess(app, user, c, isSub);
    if (o.includeCanAccessContent && hasContentAccess(app, user, c, isSub)) return true;
    if (o.includeSubscribed && isSub) return true;
    if (includePublic && isPublic(c)) return true;
    if (o.includeWebPublic && c.is_web_public) return true;
    return o.includeOwnerSubscribed && owner.has(c.id);
  });
  return picked
    .map((c) => {
      const dict = formatChannel(app, c, counts.get(c.id)!.length);
      if (o.includeDefault) dict.is_default = c.is_default_stream;
      return dict;
    })
    .sort(byName);
}

const byName = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0;

/** How far back `partial_subscribers` looks for activity (the spec: users active in the last 14 days). */
export const PARTIAL_SUBSCRIBERS_ACTIVE_DAYS = 14;

/**
 * Who `partial_subscribers` keeps: every bot, the requester, and every user
 * active in the last 14 days, activity being what Hearth records: a client
 * reporting presence (kept in memory, so since the server started), a sent
 * message, or joining.
 */
export function recentlyActiveIds(app: App, requester: UserRecord): Set<number> {
  const since = Math.floor(app.clock.now() / 1000) - PARTIAL_SUBSCRIBERS_ACTIVE_DAYS * 86_400;
  const presence = app.presence.rows;
  const out = new Set<number>([requester.id]);
  for (const u of app.store.users.all()) {
    if (!u.is_active) continue;
    const seen = presence.get(u.id);
    const lastSeen = seen ? Math.max(seen.active_timestamp, seen.idle_timestamp) : 0;
    if (u.is_bot || Date.parse(u.date_joined) / 1000 >= since || lastSeen >= since) {
      out.add(u.id);
      continue;
    }
    const last = app.store.messages.newestSentBy(u.id);
    const m = last === undefined ? undefined : app.store.messages.get(last);
    if (m && m.timestamp >= since) out.add(u.id);
  }
  return out;
}

export interface SubscriptionLists {
  subscriptions: Record<string, unknown>[];
  unsubscribed: Record<string, unknown>[];
  never_subscribed: Record<string, unknown>[];
}

/**
 * The user's subscribed, formerly subscribed and never subscribed channels,
 * each only when the user may know the channel; `subscribers` (or
 * `partial_subscribers`) only where the user may see them.
 */
export function subscriptionLists(
  app: App,
  user: UserRecord,
  opts: { includeSubscribers: IncludeSubscribers; includeArchived: boolean },
): SubscriptionLists {
  const subs = subscriberMap(app);
  const rows = new Map(
    app.store.subscriptions.data.subscriptions.filter((s) => s.user_id === user.id).map((s) => [s.stream_id, s]),
  );
  const out: SubscriptionLists = { subscriptions: [], unsubscribed: [], never_subscribed: [] };
  let active: Set<number> | undefined;
  for (const c of app.store.channels.data.channels) {
    if (c.is_archived && !opts.includeArchived) continue;
    const row = rows.get(c.id);
    const subscribed = row?.active === true;
    if (!hasMetadataAccess(app, user, c, subscribed)) continue;
    const ids = subs.get(c.id)!;
    const dict = row ? formatSubscription(app, c, row, ids.length) : formatChannel(app, c, ids.length);
    if (opts.includeSubscribers !== 'false') {
      const visible = canSeeSubscribers(app, user, c, subscribed) ? ids : [];
      if (opts.includeSubscribers === 'partial' && ids.length >= MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE) {
        active ??= recentlyActiveIds(app, user);
        const keep = active;
        dict.partial_subscribers = visible.filter((id) => keep.has(id));
      } else dict.subscribers = visible;
    }
    if (subscribed) out.subscriptions.push(dict);
    else if (row) out.unsubscribed.push(dict);
    else out.never_subscribed.push(dict);
  }
  out.subscriptions.sort(byName);
  out.unsubscribed.sort(byName);
  out.never_subscribed.sort(byName);
  return out;
}

/**
 * The active web-public channels spectators may read: none unless web-public
 * channels are enabled (server setting and spectator access; Zulip's
 * allow_web_public_streams_access), even if some were made while they were.
 */
export const webPublicChannels = (app: App): ChannelRecord[] =>
  webPublicChannelsEnabled(app)
    ? app.store.channels.data.channels.filter((c) => c.is_web_public && !c.invite_only && !c.is_archived)
    : [];

/**
 * What a spectator's register holds (Zulip's get_web_public_subs): every
 * web-public channel as if subscribed with a new subscription's settings.
 */
export function spectatorSubscriptions(app: App): Record<string, unknown>[] {
  const counts = subscriberMap(app);
  return webPublicChannels(app)
    .map((c, i) => ({
      ...formatChannel(app, c, counts.get(c.id)!.length),
      color: STREAM_COLORS[i % STREAM_COLORS.length],
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: true,
      email_notifications: true,
      wildcard_mentions_notify: true,
      push_notifications: true,
      audible_notifications: true,
    }))
    .sort(byName);
}
