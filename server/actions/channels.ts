import type { App } from '../context.js';
import type { Event } from '../events/types.js';
import { streamUpdate } from '../lib/channels/events.js';
import { formatChannel, formatSubscription } from '../lib/channels/format.js';
import { SETTINGS_GRANTING_METADATA_ACCESS } from '../lib/channels/settings.js';
import { metadataAccessUserIds, subscriberIds, subscriptionOf } from '../lib/channels/access.js';
import { groupSettingForApi } from '../lib/groups/groups.js';
import { renderChannelDescription } from '../lib/channels/description.js';
import type { ChannelRecord, GroupSettingValue, TopicsPolicy } from '../store/channel-records.js';
import { emitAccessChange, emitChannelCreate, emitChannelDelete, emitDefaultStreams } from './channel-events.js';
import { commit, type Transaction } from './commit.js';

/** What PATCH /streams/{stream_id} changes, validated by the view; absent keys stay as they are. */
export interface ChannelChanges {
  permission?: { invite_only: boolean; history_public_to_subscribers: boolean; is_web_public: boolean };
  is_default_stream?: boolean;
  message_retention_days?: number | null;
  unarchive?: true;
  topics_policy?: TopicsPolicy;
  description?: string;
  name?: string;
  /** null moves the channel out of its folder. */
  folder_id?: number | null;
  settings?: Record<string, GroupSettingValue>;
}

const sendToWatchers = (tx: Transaction, app: App, channel: ChannelRecord, event: Event) =>
  tx.emit(event, metadataAccessUserIds(app, channel));

/** Applies the changes in Zulip's order (update_stream_backend), one event per changed property. */
export async function doUpdateChannel(
  app: App,
  channel: ChannelRecord,
  changes: ChannelChanges,
  actingUserId: number,
): Promise<void> {
  await commit(app, (tx) => {
    tx.touch(app.store.channels);
    if (changes.permission) {
      const before = metadataAccessUserIds(app, channel);
      Object.assign(channel, changes.permission);
      const p = changes.permission;
      const update = streamUpdate(channel, 'invite_only', p.invite_only, {
        history_public_to_subscribers: p.history_public_to_subscribers,
        is_web_public: p.is_web_public,
      });
      emitAccessChange(tx, app, channel, before, [update]);
    }
    if (changes.is_default_stream !== undefined && changes.is_default_stream !== channel.is_default_stream) {
      channel.is_default_stream = changes.is_default_stream;
      emitDefaultStreams(tx, app);
    }
    if (changes.message_retention_days !== undefined) {
      channel.message_retention_days = changes.message_retention_days;
      sendToWatchers(tx, app, channel, streamUpdate(channel, 'message_retention_days', channel.message_retention_days));
    }
    if (changes.unarchive) unarchive(tx, app, channel);
    if (changes.topics_policy !== undefined && changes.topics_policy !== channel.topics_policy) {
      channel.topics_policy = changes.topics_policy;
      sendToWatchers(tx, app, channel, streamUpdate(channel, 'topics_policy', channel.topics_policy));
    }
    if (changes.description !== undefined) {
      channel.description = changes.description;
      channel.rendered_description = renderChannelDescription(app, changes.description, actingUserId);
      sendToWatchers(
        tx,
        app,
        channel,
        streamUpdate(channel, 'description', channel.description, { rendered_description: channel.rendered_description }),
      );
    }
    if (changes.name !== undefined) {
      const event = streamUpdate(channel, 'name', changes.name);
      channel.name = changes.name;
      sendToWatchers(tx, app, channel, event);
    }
    if (changes.folder_id !== undefined && changes.folder_id !== channel.folder_id) {
      channel.folder_id = changes.folder_id;
      sendToWatchers(tx, app, channel, streamUpdate(channel, 'folder_id', channel.folder_id));
    }
    for (const [name, value] of Object.entries(changes.settings ?? {})) changeSetting(tx, app, channel, name, value);
  });
}

function changeSetting(tx: Transaction, app: App, channel: ChannelRecord, name: string, value: GroupSettingValue): void {
  const postPolicyBefore = formatChannel(app, channel).stream_post_policy;
  const grantsAccess = (SETTINGS_GRANTING_METADATA_ACCESS as readonly string[]).includes(name);
  const before = grantsAccess ? metadataAccessUserIds(app, channel) : null;
  channel.settings[name] = value;
  const update = streamUpdate(channel, name, groupSettingForApi(value, app));
  if (before) emitAccessChange(tx, app, channel, before, [update]);
  else sendToWatchers(tx, app, channel, update);
  if (name === 'can_send_message_group') {
    const postPolicy = formatChannel(app, channel).stream_post_policy;
    if (postPolicy !== postPolicyBefore) {
      // Zulip keeps the deprecated fields in step for older clients.
      sendToWatchers(tx, app, channel, streamUpdate(channel, 'stream_post_policy', postPolicy));
      sendToWatchers(tx, app, channel, streamUpdate(channel, 'is_announcement_only', postPolicy === 2));
    }
  }
}

/**
 * Unarchiving (Zulip's do_unarchive_stream): clients with `archived_channels`
 * get the `is_archived` update; the others get the channel afresh, and its
 * subscribers their subscription.
 */
function unarchive(tx: Transaction, app: App, channel: ChannelRecord): void {
  channel.is_archived = false;
  if (channel.invite_only && channel.is_web_public) channel.is_web_public = false;
  const watchers = metadataAccessUserIds(app, channel);
  tx.emit(streamUpdate(channel, 'is_archived', false), watchers);
  emitChannelCreate(tx, app, channel, watchers, { for_unarchiving: true });
  const subscribers = subscriberIds(app, channel.id);
  for (const userId of subscribers) {
    const sub = { ...formatSubscription(app, channel, subscriptionOf(app, userId, channel.id)!), subscribers };
    tx.emit({ type: 'subscription', op: 'add', subscriptions: [sub], for_unarchiving: true }, [userId]);
  }
}

/**
 * DELETE /streams/{stream_id}: archives; messages and subscriptions stay.
 * Clients with `archived_channels` get the `is_archived` update, the others a delete.
 */
export async function doArchiveChannel(app: App, channel: ChannelRecord): Promise<void> {
  await commit(app, (tx) => {
    const watchers = metadataAccessUserIds(app, channel);
    channel.is_archived = true;
    tx.touch(app.store.channels);
    if (channel.is_default_stream) {
      channel.is_default_stream = false;
      emitDefaultStreams(tx, app);
    }
    tx.emit(streamUpdate(channel, 'is_archived', true), watchers);
    emitChannelDelete(tx, channel, watchers, { for_archiving: true });
  });
}

/** POST/DELETE /default_streams. */
export async function doSetDefaultChannel(app: App, channel: ChannelRecord, isDefault: boolean): Promise<void> {
  if (channel.is_default_stream === isDefault) return;
  await commit(app, (tx) => {
    channel.is_default_stream = isDefault;
    tx.touch(app.store.channels);
    emitDefaultStreams(tx, app);
  });
}
