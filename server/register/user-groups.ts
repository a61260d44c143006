import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';
import type { ClientEvent, EventOf } from '../events/types.js';
import { realmUserGroups } from '../lib/groups/format.js';

/**
 * `realm_user_groups` (event type `user_group`): every group, system groups
 * included, by ID; deactivated groups only for clients with the
 * `include_deactivated_groups` capability (Zulip, feature level 294).
 */
const userGroupsSection: StateSection = {
  wants: ['realm_user_groups'],
  fetch: ({ app, queue }) => ({
    realm_user_groups: realmUserGroups(app, queue.clientCapabilities.include_deactivated_groups === true),
  }),
};

export const sections = [userGroupsSection];

/**
 * Per-queue shaping of `user_group` events by the `include_deactivated_groups` capability.
 * Internal keys the actions put on the events for this filter never reach clients:
 * `for_reactivation` (an `add` standing in for a reactivation) and `group_deactivated`
 * (a rename of a deactivated group).
 */
function shapeUserGroupEvent(includeDeactivatedGroups: boolean, event: EventOf<'user_group'>): ClientEvent | null {
  const cap = includeDeactivatedGroups;
  switch (event.op) {
    case 'remove':
      // Deactivation reaches capable clients as an update instead.
      return cap ? null : event;
    case 'add': {
      const { for_reactivation, ...out } = event;
      return for_reactivation === true && cap ? null : out;
    }
    case 'update': {
      const { group_deactivated, ...out } = event;
      if ('deactivated' in event.data) return cap ? out : null;
      return group_deactivated === true && !cap ? null : out;
    }
    default:
      return event;
  }
}

export function filters(app: App): void {
  app.events.addFilter('user_group', (queue, event) =>
    shapeUserGroupEvent(queue.capability('include_deactivated_groups'), event),
  );
}
