import { unixSeconds } from '../clock.js';
import type { App } from '../context.js';
import { emitChannelCreate, emitChannelDelete, emitDefaultStreams } from './channel-events.js';
import { formatChannel, formatSubscription, pickColor } from '../lib/channels/format.js';
import { hasMetadataAccess, metadataAccessUserIds, subscriberIds, subscriptionOf } from '../lib/channels/access.js';
import { renderChannelDescription } from '../lib/channels/description.js';
import type {
  ChannelRecord,
  GroupSettingValue,
  SubscriptionRecord,
  TopicsPolicy,
} from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { activeGuestIds, emitUserAccessDiff, snapshotUserAccess } from './users-access.js';

/** A channel to create, validated by the view. */
export interface NewChannel {
  name: string;
  description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  message_retention_days: number | null;
  topics_policy: TopicsPolicy;
  folder_id: number | null;
  is_default_stream: boolean;
  settings: Record<string, GroupSettingValue>;
}

export type Pair = { user: UserRecord; channel: ChannelRecord };

export interface SubscribeRequest {
  create: NewChannel[];
  existing: ChannelRecord[];
  users: UserRecord[];
  /** Requested colours by channel name (lowercase #rrggbb). */
  colors: Map<string, string>;
}

function createChannel(tx: Transaction, app: App, creator: UserRecord, spec: NewChannel): ChannelRecord {
  const doc = app.store.channels.data;
  const channel: ChannelRecord = {
    id: doc.nextId++,
    name: spec.name,
    description: spec.description,
    rendered_description: renderChannelDescription(app, spec.description, creator.id),
    invite_only: spec.invite_only,
    is_web_public: spec.is_web_public,
    history_public_to_subscribers: spec.history_public_to_subscribers,
    message_retention_days: spec.message_retention_days,
    date_created: unixSeconds(app.clock),
    creator_id: creator.id,
    is_archived: false,
    folder_id: spec.folder_id,
    topics_policy: spec.topics_policy,
    is_default_stream: spec.is_default_stream,
    first_message_id: null,
    is_recently_active: true,
    settings: { ...spec.settings },
  };
  doc.channels.push(channel);
  tx.touch(app.store.channels);
  // Announced before its first subscriptions (see ./channel-events.ts).
  emitChannelCreate(tx, app, channel, metadataAccessUserIds(app, channel));
  return channel;
}

/**
 * POST /users/me/subscriptions after validation: creates the missing channels,
 * then subscribes every user to every channel (re-activating old rows, which
 * keep their colour and settings), with Zulip's bulk_add_subscriptions events.
 */
export async function doAddSubscriptions(
  app: App,
  acting: UserRecord,
  req: SubscribeRequest,
): Promise<{ subscribed: Pair[]; already: Pair[] }> {
  return commit(app, (tx) => {
    const created = req.create.map((spec) => createChannel(tx, app, acting, spec));
    if (created.some((c) => c.is_default_stream)) emitDefaultStreams(tx, app);
    const channels = [...created, ...req.existing];

    const subscribed: Pair[] = [];
    const already: Pair[] = [];
    const accessBefore = new Map(channels.map((c) => [c.id, metadataAccessUserIds(app, c)]));
    const people = snapshotUserAccess(app, activeGuestIds(app));
    for (const user of req.users) {
      const taken = new Set<string>();
      for (const channel of channels) {
        const row = subscriptionOf(app, user.id, channel.id);
        if (row?.active) {
          already.push({ user, channel });
          continue;
        }
        if (row) row.active = true;
        else {
          const color = req.colors.get(channel.name.toLowerCase()) ?? pickColor(app, user.id, taken);
          taken.add(color);
          app.store.subscriptions.data.subscriptions.push(newSubscription(user.id, channel.id, color));
        }
        subscribed.push({ user, channel });
      }
    }
    if (subscribed.length === 0) return { subscribed, already };
    tx.touch(app.store.subscriptions);
    // Restricted guests meet the channel's people (and its subscribers meet them) before the subscriber lists name them.
    emitUserAccessDiff(app, tx, people);

    const altered = new Map<number, Set<number>>();
    for (const { user, channel } of subscribed) {
      if (!altered.has(channel.id)) altered.set(channel.id, new Set());
      altered.get(channel.id)!.add(user.id);
    }
    // Users who only now may know a channel (a private channel, or a guest on a public one) learn it first.
    for (const channel of channels) {
      const ids = altered.get(channel.id);
      if (!ids) continue;
      const before = accessBefore.get(channel.id)!;
      const newcomers = [...ids].filter((id) => !before.has(id));
      if (newcomers.length) tx.emit({ type: 'stream', op: 'create', streams: [formatChannel(app, channel, 0)] }, newcomers);
    }
    // Each subscribed user gets their new subscriptions, with the full subscriber lists.
    const byUser = new Map<number, ChannelRecord[]>();
    for (const { user, channel } of subscribed) {
      if (!byUser.has(user.id)) byUser.set(user.id, []);
      byUser.get(user.id)!.push(channel);
    }
    for (const [userId, list] of byUser) {
      const subs = list.map((channel) => {
        const subscribers = subscriberIds(app, channel.id);
        return {
          ...formatSubscription(app, channel, subscriptionOf(app, userId, channel.id)!, subscribers.length),
          subscribers,
        };
      });
      tx.emit({ type: 'subscription', op: 'add', subscriptions: subs }, [userId]);
    }
    // Everyone else who may see the subscriber lists hears about the newcomers.
    for (const channel of channels) {
      const ids = altered.get(channel.id);
      if (!ids) continue;
      const peers = [...metadataAccessUserIds(app, channel)].filter((id) => !ids.has(id));
      const userIds = [...ids].sort((a, b) => a - b);
      if (peers.length) tx.emit({ type: 'subscription', op: 'peer_add', stream_ids: [channel.id], user_ids: userIds }, peers);
    }
    return { subscribed, already };
  });
}

const newSubscription = (userId: number, streamId: number, color: string): SubscriptionRecord => ({
  user_id: userId,
  stream_id: streamId,
  active: true,
  color,
  pin_to_top: false,
  is_muted: false,
  desktop_notifications: null,
  email_notifications: null,
  wildcard_mentions_notify: null,
  push_notifications: null,
  audible_notifications: null,
});

/**
 * DELETE /users/me/subscriptions after validation (Zulip's
 * bulk_remove_subscriptions). Rows stay, inactive, to keep personal settings.
 */
export async function doRemoveSubscriptions(
  app: App,
  users: UserRecord[],
  channels: ChannelRecord[],
): Promise<{ removed: Pair[]; notRemoved: Pair[] }> {
  return commit(app, (tx) => {
    const removed: Pair[] = [];
    const notRemoved: Pair[] = [];
    const people = snapshotUserAccess(app, activeGuestIds(app));
    for (const user of users) {
      for (const channel of channels) {
        const row = subscriptionOf(app, user.id, channel.id);
        if (row?.active) {
          row.active = false;
          removed.push({ user, channel });
        } else notRemoved.push({ user, channel });
      }
    }
    if (removed.length === 0) return { removed, notRemoved };
    tx.touch(app.store.subscriptions);

    const altered = new Map<number, Set<number>>();
    for (const { user, channel } of removed) {
      if (!altered.has(channel.id)) altered.set(channel.id, new Set());
      altered.get(channel.id)!.add(user.id);
    }
    for (const user of users) {
      const lost = removed.filter((p) => p.user === user).map((p) => p.channel);
      if (lost.length === 0) continue;
      tx.emit(
        { type: 'subscription', op: 'remove', subscriptions: lost.map((c) => ({ name: c.name, stream_id: c.id })) },
        [user.id],
      );
      for (const channel of lost) {
        if (!hasMetadataAccess(app, user, channel, false)) emitChannelDelete(tx, channel, [user.id]);
      }
    }
    for (const channel of channels) {
      const ids = altered.get(channel.id);
      if (!ids) continue;
      const userIds = [...ids].sort((a, b) => a - b);
      const watchers = metadataAccessUserIds(app, channel);
      const peers = [...watchers].filter((id) => !ids.has(id));
      if (peers.length) tx.emit({ type: 'subscription', op: 'peer_remove', stream_ids: [channel.id], user_ids: userIds }, peers);
      // A removed user who still sees the channel learns about the others removed with them.
      for (const id of ids) {
        const others = userIds.filter((o) => o !== id);
        if (others.length && watchers.has(id)) {
          tx.emit({ type: 'subscription', op: 'peer_remove', stream_ids: [channel.id], user_ids: others }, [id]);
        }
      }
    }
    // Restricted guests lose sight of people they no longer share a channel (or DMs) with.
    emitUserAccessDiff(app, tx, people);
    return { removed, notRemoved };
  });
}

export interface PropertyChange {
  channel: ChannelRecord;
  sub: SubscriptionRecord;
  property: string;
  value: boolean | string | null;
}

/**
 * POST /users/me/subscriptions/properties: personal settings. `in_home_view` is
 * stored as `is_muted`; a change of either sends both update events (Zulip).
 */
export async function doChangeSubscriptionProperties(app: App, userId: number, changes: PropertyChange[]): Promise<void> {
  await commit(app, (tx) => {
    for (const { channel, sub, property, value } of changes) {
      const stored = property === 'in_home_view' ? 'is_muted' : property;
      const storedValue = property === 'in_home_view' ? !value : value;
      (sub as unknown as Record<string, unknown>)[stored] = storedValue;
      if (stored === 'is_muted') {
        tx.emit(
          { type: 'subscription', op: 'update', stream_id: channel.id, property: 'in_home_view', value: !storedValue },
          [userId],
        );
      }
      tx.emit({ type: 'subscription', op: 'update', stream_id: channel.id, property: stored, value: storedValue }, [userId]);
    }
    tx.touch(app.store.subscriptions);
  });
}
