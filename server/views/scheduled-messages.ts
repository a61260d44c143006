/**
 * Scheduled messages (Zulip's zerver/views/scheduled_messages.py):
 * GET/POST /scheduled_messages, PATCH/DELETE /scheduled_messages/{id}.
 */
import type { ApiRequest, ViewResult } from '../context.js';
import {
  doDeleteScheduledMessage,
  doEditScheduledMessage,
  doScheduleMessage,
} from '../actions/scheduled-messages.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { normaliseTopic } from '../lib/messages/addressee.js';
import { checkContentWidget } from '../lib/messages/widgets.js';
import { accessScheduled, formatScheduled, parseScheduledTo, scheduledAddressee, scheduledOf } from '../lib/messages/scheduled.js';
import type { ScheduledMessageRecord, UserRecord } from '../store/records.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';
import { topicParam } from './messages-send.js';
import { normaliseContent } from '../lib/messages/content.js';
import { own } from '../lib/own.js';

const TYPES: Record<string, 'stream' | 'private'> = { stream: 'stream', channel: 'stream', private: 'private', direct: 'private' };

function typeParam(raw: string): 'stream' | 'private' {
  const type = own(TYPES, raw);
  if (!type) throw errors.badRequest('Invalid type');
  return type;
}

function futureTime(req: ApiRequest, value: number): number {
  if (value <= Math.floor(req.app.clock.now() / 1000)) throw errors.badRequest('Scheduled delivery time must be in the future.');
  return value;
}

/** What `to` means for the stored record: direct recipients without the sender (unless only the sender). */
function storedTo(user: UserRecord, type: 'stream' | 'private', to: number | number[]): number | number[] {
  if (type === 'stream') return to;
  const others = (to as number[]).filter((id) => id !== user.id);
  return others.length ? others : [user.id];
}

export function listScheduledMessages(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  return { scheduled_messages: scheduledOf(req.app, user.id).map(formatScheduled) };
}

export async function createScheduledMessage(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const type = typeParam(params.require('type', t.string));
  const to = parseScheduledTo(type, params.require('to', t.string));
  const content = normaliseContent(params.require('content', t.string));
  checkContentWidget(content);
  const rawTopic = topicParam(req);
  const scheduledAt = futureTime(req, params.require('scheduled_delivery_timestamp', t.int));
  const target: Pick<ScheduledMessageRecord, 'type' | 'to' | 'topic'> = {
    type,
    to,
    ...(type === 'stream' && rawTopic !== undefined ? { topic: normaliseTopic(rawTopic) } : {}),
  };
  const addressee = scheduledAddressee(app, user, target);
  // Zulip's legacy default: read for the sender, unless it goes to the sender alone (or a bot sends it).
  const toSelfOnly = addressee.kind === 'direct' && addressee.userIds.length === 1;
  const readBySender = params.get('read_by_sender', t.bool, !user.is_bot && !toSelfOnly);
  const id = await doScheduleMessage(app, user, {
    type,
    to: storedTo(user, type, to),
    ...(target.topic !== undefined ? { topic: target.topic } : {}),
    content,
    scheduledAt,
    readBySender,
  });
  return { scheduled_message_id: id };
}

export async function updateScheduledMessage(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const m = accessScheduled(app, user.id, pathInt(req, 'scheduled_message_id'));
  const rawType = params.get('type', t.string);
  const rawTo = params.get('to', t.string);
  const rawTopic = topicParam(req);
  const rawContent = params.get('content', t.string);
  const rawTime = params.get('scheduled_delivery_timestamp', t.int);
  if ([rawType, rawTo, rawTopic, rawContent, rawTime].every((x) => x === undefined)) throw errors.badRequest('Nothing to change');
  const type = rawType !== undefined ? typeParam(rawType) : m.type;
  if (rawType !== undefined && rawTo === undefined) throw errors.badRequest('Recipient required when updating type of scheduled message.');
  if (rawType !== undefined && type === 'stream' && rawTopic === undefined) {
    throw errors.badRequest('Topic required when updating scheduled message type to channel.');
  }
  const scheduledAt = rawTime !== undefined ? futureTime(req, rawTime) : undefined;
  // A message the server failed to send needs a new time.
  if (m.failed && scheduledAt === undefined) throw errors.badRequest('Scheduled delivery time must be in the future.');

  const change: Partial<Pick<ScheduledMessageRecord, 'type' | 'to' | 'topic' | 'content' | 'scheduled_at'>> = {};
  if (rawType !== undefined) change.type = type;
  if (rawTo !== undefined) change.to = parseScheduledTo(type, rawTo);
  // Topics are ignored for direct messages, as in Zulip.
  if (rawTopic !== undefined && type === 'stream') change.topic = normaliseTopic(rawTopic);
  if (rawContent !== undefined) {
    change.content = normaliseContent(rawContent);
    checkContentWidget(change.content);
  }
  if (scheduledAt !== undefined) change.scheduled_at = scheduledAt;
  if (change.type !== undefined || change.to !== undefined || change.topic !== undefined || change.content !== undefined) {
    const target = {
      type,
      to: change.to ?? m.to,
      ...(type === 'stream' ? { topic: change.topic ?? (m.type === 'stream' ? m.topic : undefined) } : {}),
    };
    scheduledAddressee(app, user, target);
  }
  if (change.to !== undefined) change.to = storedTo(user, type, change.to);
  await doEditScheduledMessage(app, m, change);
  return {};
}

export async function deleteScheduledMessage(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const m = accessScheduled(req.app, user.id, pathInt(req, 'scheduled_message_id'));
  await doDeleteScheduledMessage(req.app, m);
  return {};
}
