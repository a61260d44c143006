import type { App } from '../context.js';
import type { EventQueue } from '../events/queue.js';
import type { SnapshotContext, StateSection } from '../events/state.js';
import type { ClientEvent, EventOf } from '../events/types.js';
import { canCreateInviteLinks } from '../lib/realm/invites.js';
import { defaultChannelIds } from '../lib/channels/events.js';
import {
  LEGACY_NOTIFICATION_SETTINGS,
  foldersInOrder,
  formatChannel,
  formatFolder,
  userStreamNotificationDefault,
  withLegacyNotificationSettings,
} from '../lib/channels/format.js';
import {
  spectatorSubscriptions,
  streamsForUser,
  subscriptionLists,
  webPublicChannels,
} from '../lib/channels/queries.js';
import {
  REALM_CHANNEL_SETTING_DEFAULTS,
  hasRealmPermission,
  realmGroupSetting,
  realmMessageRetentionDays,
  realmTopicsPolicy,
  webPublicChannelsEnabled,
  type RealmChannelSetting,
} from '../lib/channels/settings.js';
import { groupSettingForApi } from '../lib/groups/groups.js';
import { isGuest } from '../lib/people/people.js';

const archivedCapable = (ctx: SnapshotContext) => ctx.queue.clientCapabilities.archived_channels === true;

/** `subscriptions`, `unsubscribed`, `never_subscribed` (spectators: the web-public channels). */
const subscriptionsSection: StateSection = {
  wants: ['subscription'],
  fetch(ctx) {
    const { app, user } = ctx;
    if (!user) return { subscriptions: spectatorSubscriptions(app), unsubscribed: [], never_subscribed: [] };
    const lists = subscriptionLists(app, user, {
      includeSubscribers: ctx.includeSubscribers,
      includeArchived: archivedCapable(ctx),
    });
    if (ctx.queue.clientCapabilities.notification_settings_null === true) return { ...lists };
    const legacy = (list: Record<string, unknown>[]) => list.map((s) => withLegacyNotificationSettings(app, user.id, s));
    return { ...lists, subscriptions: legacy(lists.subscriptions), unsubscribed: legacy(lists.unsubscribed) };
  },
};

/** `streams`: every channel the user may know (Zulip: include_all, include_web_public). */
const streamsSection: StateSection = {
  wants: ['stream'],
  fetch(ctx) {
    const { app, user } = ctx;
    if (!user) return { streams: webPublicChannels(app).map((c) => formatChannel(app, c)) };
    const streams = streamsForUser(app, user, {
      includePublic: true,
      includeWebPublic: true,
      includeSubscribed: true,
      excludeArchived: !archivedCapable(ctx),
      includeAll: true,
      includeDefault: false,
      includeOwnerSubscribed: false,
      includeCanAccessContent: false,
    });
    return { streams };
  },
};

/** `realm_default_streams`: IDs (feature level 330); guests and spectators get none. */
const defaultStreamsSection: StateSection = {
  wants: ['default_streams'],
  fetch: ({ app, user }) => ({ realm_default_streams: user && !isGuest(user) ? defaultChannelIds(app) : [] }),
};

/** `channel_folders`: all, archived included, in order; spectators only those holding a web-public channel. */
const channelFoldersSection: StateSection = {
  wants: ['channel_folders'],
  fetch({ app, user }) {
    const folders = foldersInOrder(app, true);
    if (user) return { channel_folders: folders.map(formatFolder) };
    const visible = new Set(webPublicChannels(app).map((c) => c.folder_id));
    return { channel_folders: folders.filter((f) => visible.has(f.id)).map(formatFolder) };
  },
};

const REALM_SETTINGS = Object.keys(REALM_CHANNEL_SETTING_DEFAULTS) as RealmChannelSetting[];

/** The organization's channel settings (`realm`) and what they allow the user (`realm_user`). */
const channelRealmSection: StateSection = {
  wants: ['realm'],
  fetch({ app }) {
    const out: Record<string, unknown> = {
      realm_topics_policy: realmTopicsPolicy(app),
      // Deprecated at feature level 392 but still sent by Zulip, and read as a required boolean
      // by the Flutter mobile app: topics are required when the empty topic is disabled.
      realm_mandatory_topics: realmTopicsPolicy(app) === 'disable_empty_topic',
      realm_message_retention_days: realmMessageRetentionDays(app),
      server_web_public_streams_enabled: app.config.webPublicStreamsEnabled,
    };
    for (const name of REALM_SETTINGS) out[`realm_${name}`] = groupSettingForApi(realmGroupSetting(app, name), app);
    return out;
  },
};

const channelPermissionsSection: StateSection = {
  wants: ['realm_user'],
  fetch({ app, user }) {
    if (!user) return {};
    const pub = hasRealmPermission(app, user, 'can_create_public_channel_group');
    const priv = hasRealmPermission(app, user, 'can_create_private_channel_group');
    const web = webPublicChannelsEnabled(app) && hasRealmPermission(app, user, 'can_create_web_public_channel_group');
    return {
      can_create_public_streams: pub,
      can_create_private_streams: priv,
      can_create_web_public_streams: web,
      can_create_streams: pub || priv || web,
      can_subscribe_other_users: hasRealmPermission(app, user, 'can_add_subscribers_group'),
      // Invite links are the only invitations Hearth makes (no email).
      can_invite_others_to_realm: canCreateInviteLinks(app, user),
    };
  },
};

export const sections = [
  channelRealmSection,
  channelPermissionsSection,
  subscriptionsSection,
  streamsSection,
  defaultStreamsSection,
  channelFoldersSection,
];

/**
 * Per-queue shaping of `stream` and `subscription` events by client capability
 * (Zulip's process_stream_creation_event / process_stream_deletion_event and
 * the notification-settings compatibility shim):
 *
 * - `archived_channels`: capable clients keep archived channels, so they get the
 *   `stream` update of `is_archived` and not the `delete` (archiving) or the
 *   `create` + `peer_add` + `subscription` add (unarchiving) that other clients
 *   get instead. Actions mark those with the internal `for_archiving` /
 *   `for_unarchiving` flags, removed here. Other clients never see archived
 *   channels in `stream` create or `subscription` add events, nor the `peer_add`
 *   that follows such a create (internal flag `for_archived_channel`).
 * - `notification_settings_null`: clients without it get booleans instead of
 *   null for the four legacy notification settings.
 */
function filterStreamEvent(queue: EventQueue, event: EventOf<'stream'>): ClientEvent | null {
  const archivedCapable = queue.capability('archived_channels');
  if (event.op === 'delete' && 'for_archiving' in event) {
    if (event.for_archiving && archivedCapable) return null;
    const { for_archiving: _flag, ...rest } = event;
    return rest;
  }
  if (event.op === 'create') {
    if (event.for_unarchiving && archivedCapable) return null;
    const { for_unarchiving: _flag, ...rest } = event;
    if (archivedCapable) return rest;
    const streams = rest.streams.filter((s) => s.is_archived !== true);
    return streams.length ? { ...rest, streams } : null;
  }
  if (event.op === 'update' && event.property === 'is_archived' && !archivedCapable) return null;
  return event;
}

function filterSubscriptionEvent(app: App, queue: EventQueue, event: EventOf<'subscription'>): ClientEvent | null {
  if (event.op === 'peer_add' && 'for_archived_channel' in event) {
    // Peers of an archived channel announced with its `create`: only clients that got that create.
    if (!queue.capability('archived_channels')) return null;
    const { for_archived_channel: _flag, ...rest } = event;
    event = rest;
  }
  if ((event.op === 'peer_add' || event.op === 'add') && 'for_unarchiving' in event) {
    // Sent with an unarchiving `create`, for the clients that get that create.
    if (queue.capability('archived_channels')) return null;
    const { for_unarchiving: _flag, ...rest } = event;
    event = rest;
  }
  const legacy = !queue.capability('notification_settings_null');
  if (event.op === 'add') {
    let subs = event.subscriptions;
    if (!queue.capability('archived_channels')) subs = subs.filter((s) => s.is_archived !== true);
    if (subs.length === 0) return null;
    if (legacy) subs = subs.map((s) => withLegacyNotificationSettings(app, queue.userId, s));
    return { ...event, subscriptions: subs };
  }
  if (
    event.op === 'update' &&
    legacy &&
    event.value === null &&
    (LEGACY_NOTIFICATION_SETTINGS as readonly string[]).includes(event.property)
  ) {
    return { ...event, value: userStreamNotificationDefault(app, queue.userId, event.property) };
  }
  return event;
}

export function filters(app: App): void {
  app.events.addFilter('stream', filterStreamEvent);
  app.events.addFilter('subscription', (queue, event) => filterSubscriptionEvent(app, queue, event));
}
