import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';
import { apiEmail } from '../lib/people/people.js';
import {
  OFFLINE_THRESHOLD_SECONDS,
  PING_INTERVAL_SECONDS,
  legacyEntry,
  legacyPresences,
  modernPresences,
} from '../lib/people/presence.js';

/** `presences`: modern (slim) or legacy, as the queue asked (server/lib/people/presence.ts). */
const presenceSection: StateSection = {
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
const presenceRealmSection: StateSection = {
  wants: ['realm'],
  fetch: () => ({
    server_presence_ping_interval_seconds: PING_INTERVAL_SECONDS,
    server_presence_offline_threshold_seconds: OFFLINE_THRESHOLD_SECONDS,
    realm_presence_disabled: false,
  }),
};

export const sections = [presenceSection, presenceRealmSection];

/** Presence events in the form each queue asked for (modern with `simplified_presence_events`). */
export function filters(app: App): void {
  app.events.addFilter('presence', (queue, e) => {
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
