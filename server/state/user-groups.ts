import type { StateSection } from '../events/state.js';
import { realmUserGroups } from '../lib/groups/format.js';

/**
 * `realm_user_groups` (event type `user_group`): every group, system groups
 * included, by ID; deactivated groups only for clients with the
 * `include_deactivated_groups` capability (Zulip, feature level 294).
 */
export const userGroupsSection: StateSection = {
  wants: ['realm_user_groups'],
  fetch: ({ app, queue }) => ({
    realm_user_groups: realmUserGroups(app, queue.clientCapabilities.include_deactivated_groups === true),
  }),
};
