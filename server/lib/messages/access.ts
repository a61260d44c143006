/**
 * Who may read a message (Zulip's has_message_access) and whose history a
 * channel narrow includes (can_access_stream_history):
 * - a direct message: only its participants (those with a row);
 * - a channel message in a channel with protected history: only users with a
 *   row (they received it);
 * - otherwise: content access to the channel (web-public; subscribed; a
 *   non-guest on a public channel or in its can_subscribe_group /
 *   can_add_subscribers_group), or a row (e.g. after unsubscribing).
 * Spectators read web-public channels only, when spectator access is on.
 */
import type { App } from '../../context.js';
import type { ChannelRecord } from '../../store/channel-records.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { channelById, hasContentAccess } from '../channels/access.js';
import { webPublicChannelsEnabled } from '../channels/settings.js';

/** Whether the user may read the whole history of the channel (channel narrows include it). */
export function canReadChannelHistory(app: App, user: UserRecord | null, channel: ChannelRecord): boolean {
  if (!user) return channel.is_web_public && webPublicChannelsEnabled(app);
  if (!channel.history_public_to_subscribers) return false;
  return hasContentAccess(app, user, channel);
}

/**
 * Read access, with a per-call cache of channel decisions (`cache`) for loops
 * over many messages.
 */
export function canReadMessage(
  app: App,
  user: UserRecord | null,
  m: MessageRecord,
  cache?: Map<number, boolean>,
): boolean {
  if (user && app.store.messages.rowFlags(m, user.id) !== null) return true;
  if (m.stream_id === null) return false;
  let ok = cache?.get(m.stream_id);
  if (ok === undefined) {
    const channel = channelById(app, m.stream_id);
    ok = channel !== undefined && canReadChannelHistory(app, user, channel);
    cache?.set(m.stream_id, ok);
  }
  return ok;
}

/** The `app.messageAccess.canRead` hook (uploads and other areas). */
export function canReadById(app: App, userId: number | null, messageId: number): boolean {
  const m = app.store.messages.get(messageId);
  if (!m) return false;
  const user = userId === null ? null : (app.store.users.get(userId) ?? null);
  if (userId !== null && (!user || !user.is_active)) return false;
  return canReadMessage(app, user, m);
}
