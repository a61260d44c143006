/**
 * POST /submessage (Zulip's process_submessage): an event of a message's widget (poll vote, new
 * option or question; to-do task, strike or title). Zulip's checks and messages, then Hearth's:
 * only "widget" submessages, on a message that has a poll or a to-do list, within WIDGET_LIMITS and
 * naming options and tasks that exist (server/lib/messages/widget-state.ts).
 */
import type { ApiRequest, ViewResult } from '../context.js';
import { doAddSubmessage } from '../actions/submessages.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { isInArchivedChannel } from '../lib/messages/action-recipients.js';
import { canReadMessage } from '../lib/messages/access.js';
import { checkWidgetEvent } from '../lib/messages/widget-state.js';
import { fmt, WIDGET_LIMITS } from '../lib/messages/widgets.js';
import { requireUser } from '../lib/people/require.js';

export async function addSubmessage(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const messageId = params.require('message_id', t.int);
  const msgType = params.require('msg_type', t.string);
  const content = params.require('content', t.string);
  // access_message(..., is_modifying_message=True): archived channels' messages stay as they are.
  const m = app.store.messages.get(messageId);
  if (!m || !canReadMessage(app, user, m) || isInArchivedChannel(app, m)) throw errors.badRequest('Invalid message(s)');
  // Zulip's verify_submessage_sender: the message's sender attaches the first submessage.
  if (m.sender_id !== user.id && !m.submessages?.some((s) => s.sender_id === m.sender_id)) {
    throw errors.badRequest('You cannot attach a submessage to this message.');
  }
  if (msgType !== 'widget') throw errors.badRequest('Invalid msg_type: only "widget" submessages are accepted');
  if (content.length > WIDGET_LIMITS.content) {
    throw errors.badRequest(`Submessage content is too long (at most ${fmt(WIDGET_LIMITS.content)} characters).`);
  }
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    throw errors.badRequest('Invalid json for submessage');
  }
  checkWidgetEvent(m, data, user.id);
  await doAddSubmessage(app, user, m, msgType, content);
  return {};
}
