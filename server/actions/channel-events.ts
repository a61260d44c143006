/**
 * Sending the channels area's events, inside a transaction (what a `stream` update says is
 * server/lib/channels/events.ts). Every event about a channel goes only
 * to users with metadata access to it (lib/channels/access.ts), so a private channel
 * never reaches anyone who may not know it exists.
 *
 * The protocol for a user who starts knowing a channel: a `stream` create
 * whose channel object has `subscriber_count: 0` (no subscribers known yet),
 * followed by a `subscription` peer_add listing the current subscribers, so a
 * client counting from peer events (as the spec asks) ends up exact. A newly
 * created channel is announced before its first subscriptions, which then
 * arrive the same way.
 */
import type { App } from '../context.js';
import type { StreamUpdateEvent } from '../events/types.js';
import { activeNonGuestIds, metadataAccessUserIds, subscriberIds } from '../lib/channels/access.js';
import { defaultChannelIds, streamUpdate } from '../lib/channels/events.js';
import { formatChannel } from '../lib/channels/format.js';
import type { ChannelRecord } from '../store/channel-records.js';
import type { Transaction } from './commit.js';

type Flag = { for_unarchiving?: boolean };

export function emitChannelCreate(
  tx: Transaction,
  app: App,
  channel: ChannelRecord,
  userIds: Iterable<number>,
  flag: Flag = {},
): void {
  const to = [...userIds];
  if (to.length === 0) return;
  tx.emit({ type: 'stream', op: 'create', streams: [formatChannel(app, channel, 0)], ...flag }, to);
  const subs = subscriberIds(app, channel.id);
  if (subs.length > 0) {
    // An archived channel's create reaches only archived_channels clients (server/register/channels.ts); so must its peers.
    const archived = channel.is_archived ? { for_archived_channel: true } : {};
    tx.emit({ type: 'subscription', op: 'peer_add', stream_ids: [channel.id], user_ids: subs, ...flag, ...archived }, to);
  }
}

export function emitChannelDelete(
  tx: Transaction,
  channel: ChannelRecord,
  userIds: Iterable<number>,
  flag: { for_archiving?: boolean } = {},
): void {
  const to = [...userIds];
  if (to.length === 0) return;
  tx.emit({ type: 'stream', op: 'delete', streams: [{ stream_id: channel.id }], stream_ids: [channel.id], ...flag }, to);
}

/**
 * A `stream` update of one property to everyone who may know the channel. For
 * other areas too: the messages area announces `first_message_id` and
 * `is_recently_active` changes with it, as Zulip's do_send_messages does.
 */
export function emitStreamPropertyUpdate(
  tx: Transaction,
  app: App,
  channel: ChannelRecord,
  property: string,
  value: unknown,
): void {
  tx.emit(streamUpdate(channel, property, value), metadataAccessUserIds(app, channel));
}

/**
 * After a change that may move who knows the channel (privacy, the settings
 * granting metadata access): those who lost access get a delete, those who
 * gained it get the channel afresh, the rest get the update events.
 */
export function emitAccessChange(
  tx: Transaction,
  app: App,
  channel: ChannelRecord,
  before: Set<number>,
  updates: StreamUpdateEvent[],
): void {
  const after = metadataAccessUserIds(app, channel);
  const lost = [...before].filter((id) => !after.has(id));
  const gained = [...after].filter((id) => !before.has(id));
  const kept = [...after].filter((id) => before.has(id));
  for (const event of updates) if (kept.length) tx.emit(event, kept);
  emitChannelCreate(tx, app, channel, gained);
  emitChannelDelete(tx, channel, lost);
}

/** `default_streams` to everyone who sees default channels (not guests: they see none). */
export function emitDefaultStreams(tx: Transaction, app: App): void {
  tx.emit({ type: 'default_streams', default_streams: defaultChannelIds(app) }, activeNonGuestIds(app));
}
