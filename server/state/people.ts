import type { StateSection } from '../events/state.js';
import { avatarUrl, formatUser, isAdmin, isGuest, isModerator, isOwner } from '../lib/people.js';

/** `realm_user`: who I am, and everyone else (the people issue completes it). */
export const peopleSection: StateSection = {
  types: ['realm_user'],
  fetch({ app, user }) {
    const all = app.store.users.all();
    const active = all.filter((u) => u.is_active).map((u) => formatUser(app, user, u));
    const inactive = all.filter((u) => !u.is_active).map((u) => formatUser(app, user, u));
    const me = user
      ? {
          user_id: user.id,
          email: user.email,
          delivery_email: user.email,
          full_name: user.full_name,
          is_admin: isAdmin(user),
          is_owner: isOwner(user),
          is_moderator: isModerator(user),
          is_guest: isGuest(user),
          user_role: user.role,
          avatar_url: avatarUrl(user),
          avatar_version: user.avatar_version,
        }
      : {};
    return { ...me, realm_users: active, realm_non_active_users: inactive, cross_realm_bots: [] };
  },
};
