/** User status (Zulip's UserStatus): text and emoji; register `user_status` keyed by user-ID strings, empty ones left out. */
import type { StateSection } from '../../events/state.js';
import { accessFilter } from './people.js';

export const MAX_STATUS_TEXT = 60;

export const userStatusSection: StateSection = {
  wants: ['user_status'],
  fetch({ app, user }) {
    if (!user) return {};
    const accessible = accessFilter(app, user);
    const out: Record<string, Record<string, string>> = {};
    for (const u of app.store.users.all()) {
      if (!u.is_active || !u.status || (accessible && !accessible(u))) continue;
      if (Object.keys(u.status).length) out[String(u.id)] = { ...u.status } as Record<string, string>;
    }
    return { user_status: out };
  },
};

export const mutedUsersSection: StateSection = {
  wants: ['muted_users'],
  fetch: ({ user }) => (user ? { muted_users: (user.muted_users ?? []).map((m) => ({ ...m })) } : {}),
};
