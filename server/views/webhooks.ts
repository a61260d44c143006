/**
 * Incoming webhooks, as Zulip's webhook_view and check_send_webhook_message
 * (`POST /api/v1/external/{integration}`, server/webhooks/ holds the integrations):
 *
 * - The bot's key as `api_key` (query string or form body), or HTTP Basic `email:api_key`.
 *   A key that is not 32 letters and digits is "Malformed API key", an unknown one
 *   "Invalid API key" (both INVALID_API_KEY, 401), a deactivated account USER_DEACTIVATED 401.
 * - `stream` (a name, or an ID when all digits) and `topic` (replacing the integration's);
 *   without `stream`, a direct message to the bot's owner. A channel named that does not exist:
 *   success, nothing posted, and the Notification Bot tells the owner (by ID: the error too).
 * - `only_events` / `exclude_events`: JSON lists of shell-style patterns (fnmatch) matched
 *   against the event type, for integrations that report one.
 * - An integration's missing event header (MissingEventHeaderError) is answered 400 and the
 *   Notification Bot tells the bot's owner, as Zulip's validate_extract_webhook_http_header.
 * - Messages go out as the bot through doSendMessage, as any message.
 * - A payload that is not JSON (INVALID_JSON) also has the Notification Bot tell the bot's owner,
 *   as webhook_view's notify_bot_owner_on_invalid_json, unless the integration opts out; the
 *   caller's answer is the error either way.
 * - The body is read here (up to WEBHOOK_BODY_LIMIT, then 413), as UTF-8; urlencoded forms are
 *   split with URLSearchParams, multipart/form-data is read by formidable (its fields only, as
 *   Django's request.POST: a part without a filename is a field, file parts are ignored); the
 *   integration still sees the raw body. Unknown integrations, and the /json/ mirror, are the
 *   router's JSON 404.
 */
import type Koa from 'koa';
import type { ApiRequest } from '../context.js';
import { errors, HearthError } from '../errors.js';
import { doSendMessage } from '../actions/messages.js';
import {
  doNotifyBotOwner,
  doNotifyEmptyChannel,
  doNotifyInvalidJson,
  doNotifyMissingChannel,
  doNotifyMissingChannelId,
  doNotifyMissingHeader,
} from '../actions/webhook-notices.js';
import { safeEqual } from '../auth/secrets.js';
import { basicUser } from '../http/auth.js';
import { multipartFields } from '../http/body.js';
import { notFound } from '../http/envelope.js';
import { subscriberIds } from '../lib/channels/access.js';
import { checkChannelSend, findChannel, normaliseTopic, resolveDirectRecipients, type Addressee } from '../lib/messages/addressee.js';
import { normaliseContent } from '../lib/messages/content.js';
import { Params, t } from '../params/params.js';
import { v } from '../params/validate.js';
import type { UserRecord } from '../store/records.js';
import { filteredOut, type Integration, MissingEventHeaderError, type WebhookMessage, type WebhookRequest } from '../webhooks/common.js';
import { OwnerNoticeError } from '../webhooks/owner-notice.js';
import { findIntegration } from '../webhooks/registry.js';

/** The largest body a webhook may send: 10 MiB (real payloads are a few KiB; GitHub's largest, a few MiB). */
export const WEBHOOK_BODY_LIMIT = 10 * 1024 * 1024;

const tooLarge = () =>
  new HearthError('Request body too large', { status: 413, headers: { Connection: 'close' } });

/** The request's bytes, refused with 413 past the limit (by Content-Length before reading, else as they come). */
async function readBody(koa: Koa.Context): Promise<Buffer> {
  const declared = Number(koa.get('content-length'));
  if (Number.isFinite(declared) && declared > WEBHOOK_BODY_LIMIT) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of koa.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > WEBHOOK_BODY_LIMIT) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw errors.badRequest('Malformed payload');
  }
}

/** Zulip's validate_api_key for webhooks (the key alone names the account). */
function userByApiKey(req: ApiRequest, key: string): UserRecord {
  const trimmed = key.trim();
  if (!/^[A-Za-z0-9]{32}$/.test(trimmed)) throw new HearthError('Malformed API key', { code: 'INVALID_API_KEY', status: 401 });
  let found: UserRecord | undefined;
  for (const u of req.app.store.users.all()) if (u.api_key !== '' && safeEqual(trimmed, u.api_key)) found = u;
  if (!found) throw new HearthError('Invalid API key', { code: 'INVALID_API_KEY', status: 401 });
  if (!found.is_active) throw errors.deactivated();
  return found;
}

/** The stream, or null when the message was dropped (a channel that does not exist, by name). */
async function channelAddressee(req: ApiRequest, bot: UserRecord, stream: string, topic: string): Promise<Addressee | null> {
  const { app } = req;
  const byId = /^[0-9]+$/.test(stream);
  let channel: ReturnType<typeof findChannel>;
  try {
    channel = findChannel(app, byId ? Number(stream) : stream);
  } catch (err) {
    if (!(err instanceof HearthError)) throw err;
    if (byId) {
      await doNotifyMissingChannelId(app, bot, Number(stream));
      throw err;
    }
    await doNotifyMissingChannel(app, bot, stream.trim());
    return null;
  }
  if (subscriberIds(app, channel.id).length === 0) await doNotifyEmptyChannel(app, bot, channel.name);
  const normalised = normaliseTopic(topic);
  checkChannelSend(app, bot, channel, normalised);
  return { kind: 'stream', channel, topic: normalised };
}

async function post(req: ApiRequest, integration: Integration, bot: UserRecord, params: Params, message: WebhookMessage): Promise<void> {
  const only = params.get('only_events', t.json(v.list(v.str)));
  const exclude = params.get('exclude_events', t.json(v.list(v.str)));
  // As Zulip's check_send_webhook_message: any event type the integration reports is filtered,
  // whether or not its register entry lists the types.
  if (message.eventType !== undefined && filteredOut(message.eventType, only, exclude)) return;
  const stream = params.get('stream', t.string);
  const topic = params.get('topic', t.string) ?? message.topic;
  const content = normaliseContent(message.content);
  let addressee: Addressee | null;
  if (stream === undefined) {
    // A person's key (no owner) writes to themselves.
    const to = bot.is_bot && bot.bot_owner_id !== null ? [bot.bot_owner_id] : [bot.id];
    addressee = { kind: 'direct', userIds: resolveDirectRecipients(req.app, bot, to) };
  } else addressee = await channelAddressee(req, bot, stream, topic);
  if (addressee === null) return;
  await doSendMessage(req.app, bot, {
    addressee,
    content,
    readBySender: !bot.is_bot,
    queueId: null,
    localId: null,
    client: `Zulip${integration.clientName}Webhook`,
  });
}

/** POST /api/v1/external/{integration} */
export async function incomingWebhook(req: ApiRequest): Promise<void> {
  const { koa } = req;
  const integration = koa.path.startsWith('/json/') ? undefined : findIntegration(req.path.integration ?? '');
  if (!integration) {
    koa.status = 404;
    koa.body = notFound();
    return;
  }
  const bytes = await readBody(koa);
  const contentType = (koa.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  const multipart = contentType === 'multipart/form-data';
  // A multipart body may carry binary file parts: its raw text (what a JSON integration reads, and
  // refuses) is decoded leniently; its fields are decoded part by part.
  const body = multipart ? bytes.toString('utf8') : decodeUtf8(bytes);
  let form: Record<string, string> = {};
  if (contentType === 'application/x-www-form-urlencoded') form = Object.fromEntries(new URLSearchParams(body));
  else if (multipart) form = await multipartFields(bytes, koa.get('content-type'), WEBHOOK_BODY_LIMIT);
  const params = Params.from(koa.querystring, form);

  const apiKey = params.get('api_key', t.string);
  const header = koa.get('authorization');
  let bot: UserRecord;
  if (apiKey !== undefined) bot = userByApiKey(req, apiKey);
  else if (header) bot = basicUser(req.app, header, true);
  else throw errors.missing('api_key');

  const request: WebhookRequest = {
    body,
    contentType,
    header: (name) => koa.get(name) || undefined,
    param: (name) => params.get(name, t.string),
  };
  try {
    const outcome = integration.handle(request);
    if ('unsupported' in outcome) throw unsupported(integration, outcome.unsupported);
    for (const message of outcome.messages) await post(req, integration, bot, params, message);
    koa.status = 200;
    koa.body = { result: 'success', msg: '', ...outcome.answer };
  } catch (err) {
    if (err instanceof MissingEventHeaderError) await doNotifyMissingHeader(req.app, bot, koa.path, err.header, err.integrationName);
    if (err instanceof OwnerNoticeError) await doNotifyBotOwner(req.app, bot, err.notice(bot.full_name));
    if (err instanceof HearthError && err.code === 'INVALID_JSON' && integration.notifyOnInvalidJson !== false) {
      // The notice is a courtesy: if it cannot be sent, the caller still gets the "Malformed JSON" it caused.
      await doNotifyInvalidJson(req.app, bot, integration.clientName).catch((noticeErr: unknown) =>
        req.app.log.warn('webhook: the invalid-JSON notice could not be sent', { bot_id: bot.id, error: String(noticeErr) }),
      );
    }
    if (!integration.slackErrors || !(err instanceof HearthError)) throw err;
    // Zulip's slack_error_handler: Slack's error shape, with the error's status.
    koa.status = err.status;
    koa.body = { ok: false, error: err.message };
  }
}

const unsupported = (integration: Integration, eventType: string) =>
  new HearthError(`The '${eventType}' event isn't currently supported by the ${integration.clientName} webhook; ignoring`, {
    code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
    status: 200,
    extra: { webhook_name: integration.clientName, event_type: eventType },
  });
