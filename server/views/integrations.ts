/**
 * `POST /json/hearth/integrations/test` (a Hearth extension, for the organization settings'
 * Integrations section): posts a test message as an incoming-webhook bot. The integration's own
 * sample payload (server/webhooks/samples.ts, the shape the tool sends) goes through the
 * integration as a delivery to `/api/v1/external/{integration}` would, and the messages it makes
 * are sent as the bot to the channel and topic named, through the same path as any message.
 */
import { doSendMessage } from '../actions/messages.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors, HearthError } from '../errors.js';
import { checkChannelSend, findChannel, normaliseTopic } from '../lib/messages/addressee.js';
import { normaliseContent } from '../lib/messages/content.js';
import { accessBotById, BOT_TYPE, requireMemberOrAdmin } from '../lib/people/bots.js';
import { requireUser } from '../lib/people/require.js';
import { t } from '../params/params.js';
import type { WebhookRequest } from '../webhooks/common.js';
import { findIntegration } from '../webhooks/registry.js';
import { SAMPLES } from '../webhooks/samples.js';

/** POST /hearth/integrations/test: `integration`, `bot_id` (an incoming-webhook bot the requester administers), `stream_id`, `topic`. */
export async function testIntegration(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  requireMemberOrAdmin(user);
  const { app, params } = req;
  const name = params.require('integration', t.string);
  const botId = params.require('bot_id', t.int);
  const streamId = params.require('stream_id', t.int);
  const topicRaw = params.get('topic', t.string);

  const integration = findIntegration(name);
  const sample = SAMPLES.get(name);
  if (!integration || !sample) throw errors.invalidVar('integration', 'Unknown integration');
  const bot = accessBotById(app, user, botId);
  if (bot.bot_type !== BOT_TYPE.INCOMING_WEBHOOK) throw errors.badRequest('This bot is not an incoming webhook');
  if (!bot.is_active) throw errors.deactivated();
  const channel = findChannel(app, streamId);

  const headers = new Map(Object.entries(sample.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const request: WebhookRequest = {
    body: JSON.stringify(sample.body),
    contentType: 'application/json',
    header: (h) => headers.get(h.toLowerCase()),
    param: (p) => (p === 'topic' ? topicRaw : undefined),
  };
  const outcome = integration.handle(request);
  if ('unsupported' in outcome) throw new HearthError(`The test payload is not supported by the ${integration.clientName} integration`);
  const ids: number[] = [];
  for (const message of outcome.messages) {
    const topic = normaliseTopic(topicRaw ?? message.topic);
    checkChannelSend(app, bot, channel, topic);
    const sent = await doSendMessage(app, bot, {
      addressee: { kind: 'stream', channel, topic },
      content: normaliseContent(message.content),
      readBySender: false,
      queueId: null,
      localId: null,
      client: `Zulip${integration.clientName}Webhook`,
    });
    ids.push(sent.id);
  }
  return { message_ids: ids };
}
