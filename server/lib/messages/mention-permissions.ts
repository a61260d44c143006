/**
 * Zulip's check_user_group_mention_allowed: a (non-silent) `@*group*` mention
 * needs the sender to hold the group's `can_mention_group` setting. Used by
 * sends and by content edits.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { UserRecord } from '../../store/records.js';
import { holdsGroupSetting } from '../user-group-access.js';

export function checkGroupMentions(app: App, sender: UserRecord, groupIds: Iterable<number>): void {
  for (const id of groupIds) {
    const group = app.store.groups.data.groups.find((g) => g.id === id);
    if (!group || holdsGroupSetting(app, sender, group, 'can_mention_group')) continue;
    throw errors.badRequest(`You are not allowed to mention user group '${group.name}'.`);
  }
}
