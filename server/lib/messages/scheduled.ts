/**
 * Scheduled messages as the API shows them (Zulip's ScheduledMessage.to_dict)
 * and the `scheduled_messages` register section: the user's own, undelivered,
 * soonest first.
 */
import type { App } from '../../context.js';
import type { Reminder, ScheduledMessage } from '../../protocol/scheduled-message.js';
import { errors } from '../../errors.js';
import { topicNarrow } from '../../markdown/urls.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { ScheduledMessageRecord, UserRecord } from '../../store/records.js';
import { LIMITS } from '../../version.js';
import { channelById } from '../channels/access.js';
import { silentMention, unusedFence } from './markdown-syntax.js';
import { userOrSystemBot } from '../people/system-bots.js';
import { checkChannelSend, findChannel, resolveDirectRecipients, type Addressee } from './addressee.js';
import { checkDirectMessagePermission } from './direct-permissions.js';

export function formatScheduled(m: ScheduledMessageRecord): ScheduledMessage {
  const out: ScheduledMessage = {
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

const soonestFirst = (a: ScheduledMessageRecord, b: ScheduledMessageRecord) => a.scheduled_at - b.scheduled_at || a.id - b.id;

/** The user's scheduled messages (reminders apart), soonest first. */
export function scheduledOf(app: App, userId: number): ScheduledMessageRecord[] {
  return app.store.scheduled.data.scheduled.filter((m) => m.sender_id === userId && !m.remind).sort(soonestFirst);
}

export function remindersOf(app: App, userId: number): ScheduledMessageRecord[] {
  return app.store.scheduled.data.scheduled.filter((m) => m.sender_id === userId && m.remind).sort(soonestFirst);
}

/** Zulip's access_scheduled_message: only the sender's own. */
export function accessScheduled(app: App, userId: number, id: number): ScheduledMessageRecord {
  const m = app.store.scheduled.data.scheduled.find((s) => s.id === id && s.sender_id === userId && !s.remind);
  if (!m) throw errors.notFound('Scheduled message does not exist');
  return m;
}

/** Zulip's access_reminder (a 404, as ResourceNotFoundError). */
export function accessReminder(app: App, userId: number, id: number): ScheduledMessageRecord {
  const m = app.store.scheduled.data.scheduled.find((s) => s.id === id && s.sender_id === userId && s.remind);
  if (!m) throw errors.notFound('Reminder does not exist');
  return m;
}

export function formatReminder(m: ScheduledMessageRecord): Reminder {
  return {
    reminder_id: m.id,
    type: 'private',
    to: [m.sender_id],
    content: m.content,
    rendered_content: m.rendered,
    scheduled_delivery_timestamp: m.scheduled_at,
    failed: m.failed,
    reminder_target_message_id: m.remind!.message_id,
  };
}

/** Zulip's MAX_REMINDER_NOTE_LENGTH. */
export const MAX_REMINDER_NOTE_LENGTH = 1000;


/**
 * The Notification Bot's reminder (Zulip's get_reminder_formatted_content):
 * a link to the message, the note, and the message quoted.
 */
export function reminderContent(app: App, m: MessageRecord, note?: string): string {
  const channel = m.stream_id !== null ? channelById(app, m.stream_id) : undefined;
  let content: string;
  if (channel) {
    const link = `#**${channel.name}>${m.topic}@${m.id}**`;
    content = note ? `You requested a reminder for ${link}. Note:\n > ${note}` : `You requested a reminder for ${link}.`;
  } else {
    content = note
      ? `You requested a reminder for the following direct message. Note:\n > ${note}`
      : 'You requested a reminder for the following direct message.';
  }
  const sender = userOrSystemBot(app, m.sender_id);
  const url = channel ? `${topicNarrow(channel.id, channel.name, m.topic)}/near/${m.id}` : `/#narrow/id/${m.id}`;
  content += `\n\n${silentMention({ full_name: sender?.full_name ?? 'Unknown user', id: m.sender_id })} [said](${url}):\n`;
  const fence = unusedFence(m.content);
  const room = LIMITS.max_message_length - (content.length + fence.length * 2 + 8);
  const quoted = [...m.content].length > room ? `${[...m.content].slice(0, Math.max(0, room - 20)).join('')}\n[message truncated]` : m.content;
  return `${content}${fence}quote\n${quoted}\n${fence}`;
}

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
