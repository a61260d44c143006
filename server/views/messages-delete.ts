/** DELETE /messages/{message_id} (Zulip's delete_message_backend). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doDeleteMessages } from '../actions/message-delete.js';
import { errors } from '../errors.js';
import { isInArchivedChannel } from '../lib/messages/action-recipients.js';
import { checkCanDelete } from '../lib/messages/edit-permissions.js';
import { requireUser } from '../lib/people/require.js';
import { accessMessage } from './messages.js';

export async function deleteMessage(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const m = accessMessage(req, user);
  // Zulip's access_message(..., is_modifying_message=True).
  if (isInArchivedChannel(req.app, m)) throw errors.badRequest('Invalid message(s)');
  checkCanDelete(req.app, user, m);
  await doDeleteMessages(req.app, [m], user);
  return {};
}
