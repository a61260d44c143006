/** The hooks other areas call (server/context.ts): channel message statistics and message read access. */
import type { App, ChannelMessageStats, MessageAccess } from '../../context.js';
import { channelById } from '../channels/access.js';
import { canReadById } from './access.js';

const DAY = 86_400;

/** Python's round(n, 2 - len(str(n))) for a non-negative integer: two significant digits, halves to even. */
function twoSignificantDigits(n: number): number {
  const digits = String(n).length;
  if (digits <= 2) return n;
  const unit = 10 ** (digits - 2);
  const q = Math.floor(n / unit);
  const rest = n - q * unit;
  const up = rest * 2 > unit || (rest * 2 === unit && q % 2 === 1);
  return (up ? q + 1 : q) * unit;
}

/**
 * Zulip's get_average_weekly_stream_traffic: null for channels younger than a
 * week (whole days); otherwise messages of the last 28 days per week (a
 * quarter of them from 28 days of age, else scaled by the age), rounded down,
 * at least 1 when there was any traffic, to two significant digits.
 */
export function weeklyTraffic(app: App, streamId: number): number | null {
  const c = channelById(app, streamId);
  if (!c) return null;
  const now = Math.floor(app.clock.now() / 1000);
  const ageDays = Math.floor((now - c.date_created) / DAY);
  if (ageDays < 7) return null;
  const since = now - 28 * DAY;
  // IDs grow with time: binary search for the first message of the window (O(log n), register calls this per channel).
  const ids = app.store.messages.channel(streamId);
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((app.store.messages.get(ids.at(mid))?.timestamp ?? 0) < since) lo = mid + 1;
    else hi = mid;
  }
  const n = ids.length - lo;
  const average = ageDays >= 28 ? Math.floor(n / 4) : Math.floor((n * 7) / ageDays);
  return twoSignificantDigits(average === 0 && n > 0 ? 1 : average);
}

/** `app.channelMessages` (`app` is asked for on each call: createApp builds the hooks with the App). */
export function channelMessageStats(app: () => App): ChannelMessageStats {
  return {
    hasNamedTopics: (streamId) => app().store.messages.hasNamedTopics(streamId),
    weeklyTraffic: (streamId) => weeklyTraffic(app(), streamId),
    // The oldest message still stored (deletions included); the record keeps the value events announced.
    firstMessageId: (streamId) => app().store.messages.channel(streamId).first ?? null,
  };
}

/** `app.messageAccess`. */
export const messageAccess = (app: () => App): MessageAccess => ({
  canRead: (userId, messageId) => canReadById(app(), userId, messageId),
});
