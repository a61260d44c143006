import type { ApiRequest, ViewResult } from '../context.js';
import { doWelcomeBotReply, isToWelcomeBot } from '../actions/welcome-bot-replies.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { doSendMessage } from '../actions/messages.js';
import {
  checkChannelSend,
  findChannel,
  normaliseTopic,
  parseChannelIndicator,
  parseDirectRecipients,
  resolveDirectRecipients,
  type Addressee,
} from '../lib/messages/addressee.js';
import { parseWidgetContent } from '../lib/messages/widgets.js';
import { checkDirectMessagePermission } from '../lib/messages/direct-permissions.js';
import { requireUser } from '../lib/people/require.js';
import { own } from '../lib/own.js';
import { normaliseContent } from '../lib/messages/content.js';

const TYPES: Record<string, 'stream' | 'direct'> = { stream: 'stream', channel: 'stream', private: 'direct', direct: 'direct' };

/** The topic from `topic` or its legacy name `subject` (not both). */
export function topicParam(req: ApiRequest): string | undefined {
  const { params } = req;
  const topic = params.get('topic', t.string);
  const subject = params.get('subject', t.string);
  if (topic !== undefined && subject !== undefined) throw errors.confusing('topic', 'subject');
  return topic ?? subject;
}

/** POST /messages */
export async function sendMessage(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const typeName = params.require('type', t.string);
  const kind = own(TYPES, typeName);
  if (!kind) throw errors.badRequest('Invalid type');
  const to = params.require('to', t.string);
  const rawTopic = topicParam(req);
  const content = normaliseContent(params.require('content', t.string));
  const queueId = params.get('queue_id', t.string) ?? null;
  const localId = params.get('local_id', t.string) ?? null;
  const readBySender = params.get('read_by_sender', t.bool, !user.is_bot);
  const rawWidget = params.get('widget_content', t.string);
  params.accept('realm_str');

  let addressee: Addressee;
  if (kind === 'stream') {
    const channel = findChannel(app, parseChannelIndicator(to));
    if (rawTopic === undefined) throw errors.badRequest('Missing topic');
    const topic = normaliseTopic(rawTopic);
    checkChannelSend(app, user, channel, topic);
    addressee = { kind, channel, topic };
  } else {
    const userIds = resolveDirectRecipients(app, user, parseDirectRecipients(to));
    checkDirectMessagePermission(app, user, userIds);
    addressee = { kind, userIds };
  }
  // Zulip's check_message checks widget_content once the addressee is known.
  const widget = rawWidget === undefined ? undefined : parseWidgetContent(rawWidget);
  const sent = await doSendMessage(app, user, { addressee, content, readBySender, queueId, localId, widget });
  if (addressee.kind === 'direct' && isToWelcomeBot(app, user, addressee.userIds)) await doWelcomeBotReply(app, user, content);
  // Present only when the send changed the sender's policy for the topic (Zulip 8.0, feature level 218).
  return sent.automaticPolicy === null ? { id: sent.id } : { id: sent.id, automatic_new_visibility_policy: sent.automaticPolicy };
}
