/**
 * Presence (Zulip's UserPresence, modern protocol): per user the last time a
 * client reported them active and the last time any client was connected.
 * Kept in memory per server instance, saved to presence.json every five minutes
 * and on a graceful stop (server/lib/runtime/presence-persistence.ts), read back at start.
 * Users with `presence_enabled` off are
 * never shown. Restricted guests see only the users they may access. The register
 * sections and the queue filter: server/register/presence.ts.
 */
import type { App } from '../../context.js';
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
