/** POST /typing and POST /messages/{message_id}/typing (Zulip's send_notification_backend, send_message_edit_notification_backend). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doSendEditTyping, doSendTyping } from '../actions/typing.js';
import { errors } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { v } from '../params/validate.js';
import { channelById, hasContentAccess } from '../lib/channels/access.js';
import { isInArchivedChannel } from '../lib/messages/action-recipients.js';
import { checkChannelSendAccess } from '../lib/messages/addressee.js';
import { userByKeyFor } from '../lib/people/lookup.js';
import { checkCanEditMessage } from '../lib/messages/edit-permissions.js';
import { channelTypingAudience } from '../lib/people/typing.js';
import { userSetting } from '../lib/people/settings.js';
import { normaliseTopic } from '../lib/messages/addressee.js';
import { requireUser } from '../lib/people/require.js';
import { accessMessage } from './messages.js';
import { own } from '../lib/own.js';

const TYPES: Record<string, 'direct' | 'stream'> = { direct: 'direct', private: 'direct', stream: 'stream', channel: 'stream' };

const opParam: ParamType<'start' | 'stop'> = {
  read(raw) {
    if (raw === 'start' || raw === 'stop') return raw;
    throw errors.badRequest('Invalid op');
  },
};

/** `to`: a JSON list of user IDs (legacy clients send emails). */
const toParam: ParamType<(number | string)[]> = t.json(v.list((x, name) => {
  if (typeof x === 'number' && Number.isInteger(x)) return x;
  if (typeof x === 'string') return x;
  throw errors.badRequest(`${name} is not an integer`);
}));

export async function sendTyping(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const kind = own(TYPES, params.get('type', t.string) ?? 'direct');
  if (!kind) throw errors.badRequest('Invalid type');
  const op = params.require('op', opParam);
  if (kind === 'direct') {
    const to = params.get('to', toParam);
    if (to === undefined) throw errors.badRequest("Missing 'to' argument");
    if (to.length === 0) throw errors.badRequest("Empty 'to' list");
    if (userSetting(app, user, 'send_private_typing_notifications') === false) {
      throw errors.badRequest('User has disabled typing notifications for direct messages');
    }
    const ids = new Set<number>([user.id]);
    for (const r of to) {
      const u = userByKeyFor(app, user, r);
      if (!u || !u.is_active) throw errors.badRequest(typeof r === 'number' ? `Invalid user ID ${r}` : `Invalid email '${r}'`);
      ids.add(u.id);
    }
    await doSendTyping(app, user, op, { kind, userIds: [...ids].sort((a, b) => a - b) });
    return {};
  }
  const streamId = params.get('stream_id', t.int);
  if (streamId === undefined) throw errors.badRequest("Missing 'stream_id' argument");
  const raw = params.get('topic', t.string);
  if (raw === undefined) throw errors.badRequest('Missing topic');
  // "(no topic)" and the like mean the empty topic, as when sending (feature level 372).
  const topic = normaliseTopic(raw);
  if (userSetting(app, user, 'send_stream_typing_notifications') === false) {
    throw errors.badRequest('User has disabled typing notifications for channel messages');
  }
  const channel = channelById(app, streamId);
  if (!channel || !hasContentAccess(app, user, channel)) throw errors.badRequest('Invalid channel ID');
  // Zulip's send_notification_backend: only someone who may post there says they are typing.
  checkChannelSendAccess(app, user, channel);
  const audience = channelTypingAudience(app, channel.id);
  await doSendTyping(app, user, op, { kind, streamId: channel.id, topic, audience });
  return {};
}

/**
 * POST /messages/{message_id}/typing: the user is editing their message. Zulip
 * requires a message they may modify (not in an archived channel) and may
 * edit right now (no grace period), and their send_*_typing_notifications
 * setting for that kind of message.
 */
export async function sendEditTyping(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const op = params.require('op', opParam);
  const m = accessMessage(req, user);
  if (isInArchivedChannel(app, m)) throw errors.badRequest('Invalid message(s)');
  checkCanEditMessage(app, user, m, 0);
  if (m.stream_id !== null) {
    if (userSetting(app, user, 'send_stream_typing_notifications') === false) {
      throw errors.badRequest('User has disabled typing notifications for channel messages');
    }
  } else if (userSetting(app, user, 'send_private_typing_notifications') === false) {
    throw errors.badRequest('User has disabled typing notifications for direct messages');
  }
  await doSendEditTyping(app, user, op, m);
  return {};
}
