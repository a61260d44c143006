/**
 * Zulip's check_user_group_mention_allowed: a (non-silent) `@*group*` mention
 * needs the sender to hold the group's `can_mention_group` setting. Used by
 * sends and by content edits.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { UserRecord } from '../../store/records.js';
import { HearthError } from '../../errors.js';
import { isUserInGroupSetting, realmGroupSetting } from '../groups/groups.js';
import { holdsGroupSetting } from '../groups/access.js';

/** Zulip's WILDCARD_MENTION_THRESHOLD: wildcards reaching more people need can_mention_many_users_group. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/**
 * Zulip's wildcard_mention_policy checks (feature level 352 form): a channel
 * wildcard in a channel with more than 15 subscribers, or a topic wildcard in a
 * topic with more than 15 participants, needs `can_mention_many_users_group`.
 */
export function checkWildcardMentions(
  app: App,
  sender: UserRecord,
  kind: 'channel' | 'topic',
  reach: number,
): void {
  if (reach <= WILDCARD_MENTION_THRESHOLD) return;
  if (isUserInGroupSetting(app, realmGroupSetting(app, 'can_mention_many_users_group'), sender.id)) return;
  throw kind === 'channel'
    ? new HearthError('You do not have permission to use channel wildcard mentions in this channel.', {
        code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      })
    : new HearthError('You do not have permission to use topic wildcard mentions in this topic.', {
        code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      });
}

export function checkGroupMentions(app: App, sender: UserRecord, groupIds: Iterable<number>): void {
  for (const id of groupIds) {
    const group = app.store.groups.data.groups.find((g) => g.id === id);
    if (!group || holdsGroupSetting(app, sender, group, 'can_mention_group')) continue;
    throw errors.badRequest(`You are not allowed to mention user group '${group.name}'.`);
  }
}
