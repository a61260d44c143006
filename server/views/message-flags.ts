/**
 * POST /messages/flags, /messages/flags/narrow, /mark_all_as_read,
 * /mark_stream_as_read, /mark_topic_as_read (Zulip's message_flags.py).
 */
import type { ApiRequest, ViewResult } from '../context.js';
import {
  EDITABLE_FLAGS,
  doUpdateMessageFlags,
  unreadWhere,
  type EditableFlag,
  type FlagOp,
} from '../actions/message-flags.js';
import { errors } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { v } from '../params/validate.js';
import { canReadMessage } from '../lib/messages/access.js';
import { MAX_MESSAGES_PER_FETCH, selectRange } from '../lib/messages/fetch.js';
import { channelById, hasContentAccess, isSubscribed } from '../lib/channels/access.js';
import { topicKey } from '../store/messages.js';
import type { MessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { requireUser } from '../lib/people/require.js';
import { anchorParam, checkAnchorExclusion, narrowParam, nonNegative } from './messages.js';

/** Flags that exist but only the server sets. */
const READ_ONLY_FLAGS: ReadonlySet<string> = new Set([
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'has_alert_word',
  'historical',
  'is_private',
  'active_mobile_push_notification',
]);

const flagParam: ParamType<EditableFlag> = {
  read(raw) {
    if (Object.hasOwn(EDITABLE_FLAGS, raw)) return raw as EditableFlag;
    if (READ_ONLY_FLAGS.has(raw)) throw errors.badRequest(`Flag not editable: '${raw}'`);
    throw errors.badRequest(`Invalid flag: '${raw}'`);
  },
};

const opParam: ParamType<FlagOp> = {
  read(raw) {
    if (raw === 'add' || raw === 'remove') return raw;
    throw errors.badRequest(`Invalid message flag operation: '${raw}'`);
  },
};

/**
 * Zulip keeps every unread message in a channel the user is subscribed to:
 * marking others unread is skipped, their channels reported.
 */
function splitUnsubscribed(req: ApiRequest, user: UserRecord, messages: MessageRecord[], op: FlagOp, flag: EditableFlag) {
  if (!(op === 'remove' && flag === 'read')) return { kept: messages, ignored: null };
  const ignored = new Set<number>();
  const kept = messages.filter((m) => {
    if (m.stream_id === null || isSubscribed(req.app, user.id, m.stream_id)) return true;
    ignored.add(m.stream_id);
    return false;
  });
  return { kept, ignored: [...ignored].sort((a, b) => a - b) };
}

/** POST /messages/flags */
export async function updateMessageFlags(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const ids = params.require('messages', t.json(v.list(v.int)));
  const op = params.require('op', opParam);
  const flag = params.require('flag', flagParam);
  const cache = new Map<number, boolean>();
  const messages: MessageRecord[] = [];
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const m = app.store.messages.get(id);
    if (!m || !canReadMessage(app, user, m, cache)) throw errors.badRequest('Invalid message(s)');
    messages.push(m);
  }
  const { kept, ignored } = splitUnsubscribed(req, user, messages, op, flag);
  await doUpdateMessageFlags(app, user, kept, op, flag);
  const keptIds = new Set(kept.map((m) => m.id));
  return {
    messages: ids.filter((id) => keptIds.has(id)),
    ...(ignored ? { ignored_because_not_subscribed_channels: ignored } : {}),
  };
}

/** POST /messages/flags/narrow */
export async function updateMessageFlagsForNarrow(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const anchor = anchorParam(req);
  const includeAnchor = params.get('include_anchor', t.bool, true);
  // Zulip bounds the range to keep transactions small; clients page with first/last_processed_id.
  const numBefore = Math.min(params.require('num_before', nonNegative), MAX_MESSAGES_PER_FETCH);
  const numAfter = Math.min(params.require('num_after', nonNegative), MAX_MESSAGES_PER_FETCH);
  checkAnchorExclusion(numBefore, numAfter, includeAnchor);
  const narrow = params.require('narrow', narrowParam);
  const op = params.require('op', opParam);
  const flag = params.require('flag', flagParam);
  const range = await selectRange(app, user, narrow, { anchor, numBefore, numAfter, includeAnchor });
  const { kept, ignored } = splitUnsubscribed(req, user, range.rows, op, flag);
  const { changed } = await doUpdateMessageFlags(app, user, kept, op, flag);
  return {
    processed_count: range.rows.length,
    updated_count: changed.length,
    first_processed_id: range.rows[0]?.id ?? null,
    last_processed_id: range.rows.at(-1)?.id ?? null,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
    ...(ignored ? { ignored_because_not_subscribed_channels: ignored } : {}),
  };
}

/** POST /mark_all_as_read (deprecated in Zulip for the narrow endpoint; still used by clients). */
export async function markAllAsRead(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const unread = unreadWhere(req.app, user, () => true);
  await doUpdateMessageFlags(req.app, user, unread, 'add', 'read', { all: true });
  return { complete: true };
}

/** A channel the user may read, as Zulip's access_stream_by_id. */
function readableChannel(req: ApiRequest, user: UserRecord, streamId: number) {
  const channel = channelById(req.app, streamId);
  if (!channel || !hasContentAccess(req.app, user, channel)) throw errors.badRequest('Invalid channel ID');
  return channel;
}

/** POST /mark_stream_as_read */
export async function markStreamAsRead(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const channel = readableChannel(req, user, req.params.require('stream_id', t.int));
  const unread = unreadWhere(req.app, user, (m) => m.stream_id === channel.id);
  await doUpdateMessageFlags(req.app, user, unread, 'add', 'read');
  return {};
}

/** POST /mark_topic_as_read */
export async function markTopicAsRead(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const channel = readableChannel(req, user, params.require('stream_id', t.int));
  const topic = params.require('topic_name', t.string);
  const key = topicKey(topic);
  if (app.store.messages.topic(channel.id, topic).length === 0) throw errors.badRequest(`No such topic '${topic}'`);
  const unread = unreadWhere(app, user, (m) => m.stream_id === channel.id && topicKey(m.topic) === key);
  await doUpdateMessageFlags(app, user, unread, 'add', 'read');
  return {};
}
