/** GET /messages/{message_id}/read_receipts (Zulip 6.0, feature level 137). */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { userSetting } from '../lib/people/settings.js';
import { FLAG } from '../store/message-records.js';
import { accessMessage } from './messages.js';
import { requireUser } from '../lib/people/require.js';

/**
 * Who has read a message the requester can read, as Zulip's read_receipts view
 * decides: only users who share read receipts (`send_read_receipts`, bots too),
 * never the sender, nobody deactivated, nobody who muted the requester (they
 * could tell they were muted) and nobody the requester muted.
 */
export function getReadReceipts(req: ApiRequest): ViewResult {
  const { app } = req;
  const user = requireUser(req);
  const m = accessMessage(req, user);
  if (app.store.realm.data.realm?.settings.enable_read_receipts === false) {
    throw errors.badRequest('Read receipts are disabled in this organization.');
  }
  const mutedByMe = new Set((user.muted_users ?? []).map((x) => x.id));
  const userIds: number[] = [];
  for (const id of app.store.messages.rowUserIds(m)) {
    if (id === m.sender_id || mutedByMe.has(id)) continue;
    const flags = app.store.messages.rowFlags(m, id);
    if (flags === null || (flags & FLAG.read) === 0) continue;
    const reader = app.store.users.get(id);
    if (!reader || !reader.is_active) continue;
    if (userSetting(app, reader, 'send_read_receipts') === false) continue;
    if (reader.muted_users?.some((x) => x.id === user.id)) continue;
    userIds.push(id);
  }
  return { user_ids: userIds };
}
