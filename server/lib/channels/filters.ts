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
import type { App } from '../../context.js';
import type { EventQueue } from '../../events/queue.js';
import type { ClientEvent, EventOf } from '../../events/types.js';
import { LEGACY_NOTIFICATION_SETTINGS, userStreamNotificationDefault, withLegacyNotificationSettings } from './format.js';

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

export function installChannelFilters(app: App): void {
  app.events.addFilter('stream', filterStreamEvent);
  app.events.addFilter('subscription', (queue, event) => filterSubscriptionEvent(app, queue, event));
}
