/**
 * Who may send direct messages (Zulip 9.0+, feature level 270): the
 * organization's `direct_message_permission_group` must hold someone in the
 * conversation (the sender or a recipient) unless everyone else is a bot, and a
 * new conversation needs a sender in `direct_message_initiator_group`.
 * Replies to an existing conversation stay possible for its members.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { conversationKey } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { groupSettingMemberIds, isUserInGroupSetting, realmGroupSetting } from '../groups/groups.js';
import { userOrSystemBot } from '../people/system-bots.js';

/** `userIds`: the conversation, sender included, ascending (as resolveDirectRecipients answers). */
export function checkDirectMessagePermission(app: App, sender: UserRecord, userIds: number[]): void {
  const others = userIds.filter((id) => id !== sender.id && !userOrSystemBot(app, id)?.is_bot);
  if (others.length === 0) return; // to oneself or to bots only
  const permission = realmGroupSetting(app, 'direct_message_permission_group');
  if (![sender.id, ...others].some((id) => isUserInGroupSetting(app, permission, id))) {
    if (groupSettingMemberIds(app, permission).length === 0) {
      throw errors.badRequest('Direct messages are disabled in this organization.');
    }
    throw errors.badRequest('This conversation does not include any users who can authorize it.');
  }
  const initiator = realmGroupSetting(app, 'direct_message_initiator_group');
  if (!isUserInGroupSetting(app, initiator, sender.id) && app.store.messages.conversation(conversationKey(userIds)).length === 0) {
    throw errors.badRequest('You do not have permission to initiate direct message conversations.');
  }
}
