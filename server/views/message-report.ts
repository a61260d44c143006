/** POST /messages/{message_id}/report (Zulip 11): a notice to the moderation request channel. */
import type { ApiRequest, ViewResult } from '../context.js';
import { doSendNotice } from '../actions/notification-bot.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { settingChannel } from '../lib/realm/settings.js';
import { effectiveTopicsPolicy } from '../lib/messages/addressee.js';
import { MAX_REPORT_DESCRIPTION, REPORT_REASONS, reportContent } from '../lib/messages/reports.js';
import { requireUser } from '../lib/people/require.js';
import { accessMessage } from './messages.js';

export async function reportMessage(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const channel = settingChannel(app, 'moderation_request_channel_id');
  if (!channel) {
    throw errors.badRequest('Moderation request channel must be specified to enable message reporting.');
  }
  const reportType = params.require('report_type', t.string);
  if (!Object.hasOwn(REPORT_REASONS, reportType)) throw errors.invalidVar('report_type');
  const description = params.get('description', t.string, '').trim();
  if ([...description].length > MAX_REPORT_DESCRIPTION) {
    throw errors.badRequest(`description is too long (limit: ${MAX_REPORT_DESCRIPTION} characters)`);
  }
  if (reportType === 'other' && description === '') throw errors.badRequest('For report_type=other, a description must be provided.');
  const m = accessMessage(req, user);
  const reported = app.store.users.get(m.sender_id);
  const topic = effectiveTopicsPolicy(app, channel) === 'empty_topic_only' ? '' : `${reported?.full_name ?? 'Unknown user'} moderation`;
  await doSendNotice(app, { channel, topic, content: reportContent(app, user, m, reportType, description), actingUser: user });
  return {};
}
