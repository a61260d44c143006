/**
 * Parsing and checking where a message goes (Zulip's extract_stream_indicator,
 * extract_private_recipients and check_message): `to` in every accepted form,
 * the topic rules and the channel permissions for sending.
 */
import type { App } from '../../context.js';
import { errors, HearthError } from '../../errors.js';
import type { ChannelRecord } from '../../store/channel-records.js';
import type { UserRecord } from '../../store/records.js';
import { LIMITS } from '../../version.js';
import { channelById, channelByName, hasContentAccess } from '../channels/access.js';
import { realmTopicsPolicy } from '../channels/settings.js';
import { isUserInGroupSetting } from '../groups/groups.js';
import { LEGACY_EMPTY_TOPIC } from './format.js';
import { userByKeyFor } from '../people/lookup.js';

export type Addressee =
  | { kind: 'stream'; channel: ChannelRecord; topic: string }
  | { kind: 'direct'; userIds: number[] };

const tryJson = (raw: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
};

/** A channel name or ID from `to` (raw name, JSON string, integer, or a JSON list of one). */
export function parseChannelIndicator(raw: string): string | number {
  const parsed = tryJson(raw);
  if (!parsed.ok) return raw;
  let data = parsed.value;
  if (Array.isArray(data)) {
    if (data.length !== 1) throw errors.badRequest('Expected exactly one channel');
    data = data[0];
  }
  if (typeof data === 'string') return data;
  if (typeof data === 'number' && Number.isSafeInteger(data)) return data;
  throw errors.badRequest('Invalid data type for channel');
}

/** Direct-message recipients from `to`: user IDs or emails (JSON list, or comma-separated emails). */
export function parseDirectRecipients(raw: string): string[] | number[] {
  const parsed = tryJson(raw);
  let data: unknown = parsed.ok ? parsed.value : raw;
  if (typeof data === 'number') data = [data];
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) throw errors.badRequest('Invalid data type for recipients');
  const list = data as unknown[];
  if (list.every((x) => typeof x === 'string')) {
    return [...new Set((list as string[]).map((e) => e.trim()).filter((e) => e !== ''))];
  }
  if (list.every((x) => typeof x === 'number' && Number.isSafeInteger(x))) return [...new Set(list as number[])];
  if (list.every((x) => typeof x === 'string' || typeof x === 'number')) {
    throw errors.badRequest('Recipient lists may contain emails or user IDs, but not both.');
  }
  throw errors.badRequest('Invalid data type for recipients');
}

/** Every participant of a direct message (sender included), ascending. */
export function resolveDirectRecipients(app: App, sender: UserRecord, to: string[] | number[]): number[] {
  if (to.length === 0) throw errors.badRequest('Message must have recipients');
  const ids = new Set<number>([sender.id]);
  for (const r of to) {
    // Zulip's cross-realm bots may be written to (the Notification Bot reads nothing, as there). People the
    // sender may not access (a restricted guest), and addresses the sender may not see, are as unknown as
    // nobody: writing to them would reveal them (and, for a guest, make them accessible).
    const u = userByKeyFor(app, sender, r);
    if (!u) throw errors.badRequest(typeof r === 'number' ? `Invalid user ID ${r}` : `Invalid email '${r}'`);
    if (!u.is_active && u.id !== sender.id) throw errors.badRequest(`'${u.email}' is no longer using Hearth.`);
    ids.add(u.id);
  }
  return [...ids].sort((a, b) => a - b);
}

export function findChannel(app: App, indicator: string | number): ChannelRecord {
  if (typeof indicator === 'number') {
    const c = channelById(app, indicator);
    if (!c) {
      throw new HearthError(`Channel with ID '${indicator}' does not exist`, {
        code: 'STREAM_DOES_NOT_EXIST',
        extra: { stream_id: indicator },
      });
    }
    return c;
  }
  const c = channelByName(app, indicator);
  if (!c) throw errors.streamDoesNotExist(indicator);
  return c;
}

/** Normalises a topic for sending: trimmed, `(no topic)` is the empty topic, at most 60 characters. */
export function normaliseTopic(raw: string): string {
  if (raw.includes('\u0000')) throw errors.badRequest('Topic must not contain null bytes');
  let topic = raw.trim().replace(/[\r\n\t]/g, ' ');
  if (topic === LEGACY_EMPTY_TOPIC) topic = '';
  const chars = [...topic];
  if (chars.length > LIMITS.max_topic_length) topic = `${chars.slice(0, LIMITS.max_topic_length - 3).join('')}...`;
  return topic;
}

/** The channel's effective topics policy (`inherit` resolves to the organization's). */
export function effectiveTopicsPolicy(app: App, channel: ChannelRecord): string {
  return channel.topics_policy === 'inherit' ? realmTopicsPolicy(app) : channel.topics_policy;
}

/** Zulip's access_stream_for_send_message (also checked before channel typing notifications). */
export function checkChannelSendAccess(app: App, sender: UserRecord, channel: ChannelRecord): void {
  const notAuthorized = () => errors.badRequest(`Not authorized to send to channel '${channel.name}'`);
  if (channel.is_archived) throw notAuthorized();
  const send = channel.settings.can_send_message_group;
  if (send !== undefined && !isUserInGroupSetting(app, send, sender.id)) {
    throw errors.badRequest('You do not have permission to post in this channel.');
  }
  if (!hasContentAccess(app, sender, channel)) throw notAuthorized();
}

/** Zulip's access_stream_for_send_message plus the topic rules. */
export function checkChannelSend(app: App, sender: UserRecord, channel: ChannelRecord, topic: string): void {
  checkChannelSendAccess(app, sender, channel);
  const policy = effectiveTopicsPolicy(app, channel);
  if (topic === '' && policy === 'disable_empty_topic') {
    throw errors.badRequest('Sending messages to the general chat is not allowed in this channel.');
  }
  if (topic !== '' && policy === 'empty_topic_only') {
    throw new HearthError('Only the general chat topic is allowed in this channel.', { code: 'TOPICS_NOT_ALLOWED' });
  }
  const create = channel.settings.can_create_topic_group;
  if (
    create !== undefined &&
    app.store.messages.topic(channel.id, topic).length === 0 &&
    !isUserInGroupSetting(app, create, sender.id)
  ) {
    throw errors.badRequest('You do not have permission to create new topics in this channel.');
  }
}
