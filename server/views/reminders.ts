/** Reminders (Zulip 11): GET/POST /reminders, DELETE /reminders/{id}. */
import type { ApiRequest, ViewResult } from '../context.js';
import { doDeleteScheduledMessage, doScheduleReminder } from '../actions/scheduled-messages.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { canReadMessage } from '../lib/messages/access.js';
import { MAX_REMINDER_NOTE_LENGTH, accessReminder, formatReminder, remindersOf } from '../lib/messages/scheduled.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';

export function listReminders(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  return { reminders: remindersOf(req.app, user.id).map(formatReminder) };
}

export async function createReminder(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const messageId = params.require('message_id', t.int);
  const scheduledAt = params.require('scheduled_delivery_timestamp', t.int);
  const rawNote = params.get('note', t.string);
  if (scheduledAt <= Math.floor(app.clock.now() / 1000)) throw errors.badRequest('Scheduled delivery time must be in the future.');
  const message = app.store.messages.get(messageId);
  if (!message || !canReadMessage(app, user, message)) throw errors.badRequest('Invalid message(s)');
  // Zulip's normalize_note_text.
  const note = rawNote?.trimEnd().replace(/^\n+/, '');
  if (note !== undefined && note.length > MAX_REMINDER_NOTE_LENGTH) {
    throw errors.badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  if (note?.includes('\u0000')) throw errors.badRequest('Note must not contain null bytes');
  const id = await doScheduleReminder(app, user, { message, scheduledAt, ...(note ? { note } : {}) });
  return { reminder_id: id };
}

export async function deleteReminder(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  await doDeleteScheduledMessage(req.app, accessReminder(req.app, user.id, pathInt(req, 'reminder_id')));
  return {};
}
