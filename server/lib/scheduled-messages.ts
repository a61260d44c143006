/**
 * Scheduled messages as the API shows them (Zulip's ScheduledMessage.to_dict)
 * and the `scheduled_messages` register section: the user's own, undelivered,
 * soonest first.
 */
import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';
import { errors } from '../errors.js';
import type { ScheduledMessageRecord, UserRecord } from '../store/records.js';
import { checkChannelSend, findChannel, resolveDirectRecipients, type Addressee } from './messages/addressee.js';
import { checkDirectMessagePermission } from './messages/direct-permissions.js';

export function formatScheduled(m: ScheduledMessageRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    scheduled_message_id: m.id,
    type: m.type,
    to: m.to,
    content: m.content,
    rendered_content: m.rendered,
    scheduled_delivery_timestamp: m.scheduled_at,
    failed: m.failed,
  };
  if (m.type === 'stream') out.topic = m.topic ?? '';
  return out;
}

export function scheduledOf(app: App, userId: number): ScheduledMessageRecord[] {
  return app.store.scheduled.data.scheduled
    .filter((m) => m.sender_id === userId)
    .sort((a, b) => a.scheduled_at - b.scheduled_at || a.id - b.id);
}

/** Zulip's access_scheduled_message: only the sender's own. */
export function accessScheduled(app: App, userId: number, id: number): ScheduledMessageRecord {
  const m = app.store.scheduled.data.scheduled.find((s) => s.id === id && s.sender_id === userId);
  if (!m) throw errors.badRequest('Scheduled message does not exist');
  return m;
}

export const scheduledMessagesSection: StateSection = {
  types: ['scheduled_messages'],
  fetch: ({ app, user }) => ({ scheduled_messages: user ? scheduledOf(app, user.id).map(formatScheduled) : [] }),
};

/**
 * Where a scheduled message goes, checked as a send would be (Zulip's
 * check_message): when it is scheduled or edited, and again at delivery, since
 * permissions may have changed meanwhile.
 */
export function scheduledAddressee(app: App, sender: UserRecord, m: Pick<ScheduledMessageRecord, 'type' | 'to' | 'topic'>): Addressee {
  if (m.type === 'stream') {
    const channel = findChannel(app, m.to as number);
    if (m.topic === undefined) throw errors.badRequest('Missing topic');
    checkChannelSend(app, sender, channel, m.topic);
    return { kind: 'stream', channel, topic: m.topic };
  }
  const userIds = resolveDirectRecipients(app, sender, m.to as number[]);
  checkDirectMessagePermission(app, sender, userIds);
  return { kind: 'direct', userIds };
}

/** `to` as Zulip's extract_stream_id / extract_direct_message_recipient_ids read it (JSON). */
export function parseScheduledTo(type: 'stream' | 'private', raw: string): number | number[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw errors.badRequest('to is not valid JSON');
  }
  if (type === 'stream') {
    if (Array.isArray(value)) {
      if (value.length !== 1) throw errors.badRequest('Expected exactly one channel');
      value = value[0];
    }
    if (!Number.isSafeInteger(value)) throw errors.badRequest('Invalid data type for channel');
    return value as number;
  }
  const list = typeof value === 'number' ? [value] : value;
  if (!Array.isArray(list) || list.some((x) => !Number.isSafeInteger(x))) throw errors.badRequest('Invalid data type for recipients');
  return [...new Set(list as number[])].sort((a, b) => a - b);
}
