import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';
import type { User } from '../protocol/user.js';
import { accessFilter, formatUser, inaccessibleUser, ownUserFields } from '../lib/people/people.js';
import { FIELD_TYPES, listProfileFields } from '../lib/people/profile-fields.js';
import { systemBots } from '../lib/people/system-bots.js';

/**
 * `realm_user`: the requester's own fields, `realm_users` (active),
 * `realm_non_active_users` and `cross_realm_bots` (the Notification Bot once it
 * has posted: server/lib/people/system-bots.ts). A guest limited by can_access_all_users_group gets only the
 * users they may access; without `user_list_incomplete` the others appear as
 * Zulip's "Unknown user" placeholders. `avatar_url` is always sent (Hearth's
 * avatars are never third-party, so `client_gravatar` and
 * `user_avatar_url_field_optional` leave it in place).
 */
const peopleSection: StateSection = {
  wants: ['realm_user'],
  fetch({ app, user, queue }) {
    const accessible = accessFilter(app, user);
    const incomplete = queue.clientCapabilities.user_list_incomplete === true;
    const active: User[] = [];
    const inactive: User[] = [];
    for (const u of app.store.users.all()) {
      if (accessible && !accessible(u)) {
        if (!incomplete) active.push(inaccessibleUser(app, u.id));
        continue;
      }
      (u.is_active ? active : inactive).push(formatUser(app, user, u));
    }
    return {
      ...(user ? ownUserFields(user) : {}),
      realm_users: active,
      realm_non_active_users: inactive,
      cross_realm_bots: systemBots(app).map((b) => ({ ...formatUser(app, user, b), is_system_bot: true })),
    };
  },
};

/** `custom_profile_fields` and the type table (`custom_profile_field_types`). */
const profileFieldsSection: StateSection = {
  wants: ['custom_profile_fields'],
  fetch: ({ app }) => ({ custom_profile_fields: listProfileFields(app), custom_profile_field_types: FIELD_TYPES }),
};

/** `alert_words`: the words that flag a message for the user (server/lib/people/alert-words.ts). */
const alertWordsSection: StateSection = {
  wants: ['alert_words'],
  fetch: ({ user }) => (user ? { alert_words: user.alert_words ?? [] } : {}),
};

const mutedUsersSection: StateSection = {
  wants: ['muted_users'],
  fetch: ({ user }) => (user ? { muted_users: (user.muted_users ?? []).map((m) => ({ ...m })) } : {}),
};

/** `user_status` (Zulip's UserStatus): text and emoji keyed by user-ID strings, empty ones left out. */
const userStatusSection: StateSection = {
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

export const sections = [peopleSection, profileFieldsSection, alertWordsSection, mutedUsersSection, userStatusSection];

/**
 * Per-queue shaping of `realm_user` events: the "Unknown user" add that a
 * restricted guest gets for a user they may not access (`unknown_user`, an
 * internal flag) is dropped for clients with `user_list_incomplete`; the
 * `remove` for a user they stop accessing (`incomplete_only`) reaches only those.
 */
export function filters(app: App): void {
  app.events.addFilter('realm_user', (queue, event) => {
    const incomplete = queue.capability('user_list_incomplete');
    if ('unknown_user' in event) {
      if (incomplete) return null;
      const { unknown_user: _flag, ...rest } = event;
      return rest as typeof event;
    }
    if ('incomplete_only' in event) {
      if (!incomplete) return null;
      const { incomplete_only: _flag, ...rest } = event;
      return rest as typeof event;
    }
    return event;
  });
}
