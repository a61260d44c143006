/**
 * Presence (Zulip's UserPresence, modern protocol): per user the last time a
 * client reported them active and the last time any client was connected.
 * Kept in memory per server instance, saved to presence.json every five minutes
 * and on a graceful stop (server/lib/runtime/presence-persistence.ts), read back at start.
 * Users with `presence_enabled` off are
 * never shown. Restricted guests see only the users they may access.
 */
import type { App } from '../../context.js';
import type { StateSection } from '../../events/state.js';
import type { UserRecord } from '../../store/records.js';
import { accessFilter, apiEmail } from './people.js';
import { userSetting } from './settings.js';

export const PING_INTERVAL_SECONDS = 60;
export const OFFLINE_THRESHOLD_SECONDS = 140;

import type { PresenceEntry } from './presence-book.js';
export { newPresenceBook, type PresenceBook, type PresenceEntry } from './presence-book.js';

const visible = (app: App, u: UserRecord | undefined): u is UserRecord =>
  u !== undefined && u.is_active && userSetting(app, u, 'presence_enabled') !== false;

/** Modern format keyed by user-ID strings (rows newer than `sinceUpdateId`, within the history limit). */
export function modernPresences(app: App, viewer: UserRecord | null, opts: { sinceUpdateId?: number; historyDays?: number } = {}) {
  const book = app.presence;
  const accessible = accessFilter(app, viewer);
  const cutoff = Math.floor(app.clock.now() / 1000) - (opts.historyDays ?? 14) * 86_400;
  const out: Record<string, { active_timestamp: number; idle_timestamp: number }> = {};
  for (const [id, row] of book.rows) {
    const u = app.store.users.get(id);
    if (!visible(app, u) || (accessible && !accessible(u))) continue;
    if (opts.sinceUpdateId !== undefined && row.update_id <= opts.sinceUpdateId) continue;
    if (row.idle_timestamp < cutoff) continue;
    out[String(id)] = { active_timestamp: row.active_timestamp, idle_timestamp: row.idle_timestamp };
  }
  return out;
}

/** Zulip's legacy per-client form for one row. */
export function legacyEntry(row: PresenceEntry, now: number) {
  const status = now - row.active_timestamp <= OFFLINE_THRESHOLD_SECONDS ? 'active' : 'idle';
  const timestamp = status === 'active' ? row.active_timestamp : row.idle_timestamp;
  return {
    aggregated: { client: 'website', status, timestamp },
    website: { client: 'website', status, timestamp, pushable: false },
  };
}

/** Legacy format keyed by API email. */
export function legacyPresences(app: App, viewer: UserRecord | null) {
  const book = app.presence;
  const accessible = accessFilter(app, viewer);
  const now = Math.floor(app.clock.now() / 1000);
  const out: Record<string, unknown> = {};
  for (const [id, row] of book.rows) {
    const u = app.store.users.get(id);
    if (!visible(app, u) || (accessible && !accessible(u))) continue;
    out[apiEmail(app, viewer, u)] = legacyEntry(row, now);
  }
  return out;
}

export const presenceSection: StateSection = {
  wants: ['presence'],
  fetch({ app, user, queue, presenceHistoryLimitDays, presenceSinceUpdateId }) {
    return {
      presences: queue.slimPresence
        ? modernPresences(app, user, { historyDays: presenceHistoryLimitDays, sinceUpdateId: presenceSinceUpdateId })
        : legacyPresences(app, user),
      presence_last_update_id: app.presence.lastUpdateId,
      server_timestamp: app.clock.now() / 1000,
    };
  },
};

/** Presence timings and switch: Zulip sends them with the organization (want("realm")). */
export const presenceRealmSection: StateSection = {
  wants: ['realm'],
  fetch: () => ({
    server_presence_ping_interval_seconds: PING_INTERVAL_SECONDS,
    server_presence_offline_threshold_seconds: OFFLINE_THRESHOLD_SECONDS,
    realm_presence_disabled: false,
  }),
};

/** Presence events in the form each queue asked for (modern with `simplified_presence_events`). */
export function installPresenceFilter(app: App): void {
  app.events.addFilter('presence', (queue, event) => {
    const e = event as unknown as { user_id: number; row: PresenceEntry };
    if (queue.capability('simplified_presence_events')) {
      return { type: 'presence', presences: { [String(e.user_id)]: { active_timestamp: e.row.active_timestamp, idle_timestamp: e.row.idle_timestamp } } };
    }
    const u = app.store.users.get(e.user_id)!;
    const viewer = queue.userId === null ? null : (app.store.users.get(queue.userId) ?? null);
    const now = app.clock.now() / 1000;
    const { website } = legacyEntry(e.row, Math.floor(now));
    return { type: 'presence', user_id: u.id, email: apiEmail(app, viewer, u), server_timestamp: now, presence: { website } };
  });
}
