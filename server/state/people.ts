import type { StateSection } from '../events/state.js';
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
export const peopleSection: StateSection = {
  wants: ['realm_user'],
  fetch({ app, user, queue }) {
    const accessible = accessFilter(app, user);
    const incomplete = queue.clientCapabilities.user_list_incomplete === true;
    const active: Record<string, unknown>[] = [];
    const inactive: Record<string, unknown>[] = [];
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
export const profileFieldsSection: StateSection = {
  wants: ['custom_profile_fields'],
  fetch: ({ app }) => ({ custom_profile_fields: listProfileFields(app), custom_profile_field_types: FIELD_TYPES }),
};
