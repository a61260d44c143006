/**
 * The worker that makes the queued calls to outgoing-webhook bots (Zulip's OutgoingWebhookWorker
 * and do_rest_call), off every request's path: one call per bot at a time, a few at once, each
 * taken off the queue in the same commit as the first message it leads to. What follows a call is
 * Zulip's: the bot's reply in the conversation; for an answer that is not 2xx, not JSON or too
 * large, a "Failure! ..." message there and a notice to the bot's owner; a call that timed out or
 * could not connect is tried again (up to MAX_REQUEST_RETRIES), then "Failure! Bot is unavailable"
 * and the notice. Calls in flight when the server stops stay queued and are made at the next start.
 * Each call's outcome is kept as the bot's last call (`hearth_last_call`), in the commit that follows it.
 */
import type { App } from '../context.js';
import { HearthError } from '../errors.js';
import { findChannel, resolveDirectRecipients, type Addressee } from '../lib/messages/addressee.js';
import { normaliseContent } from '../lib/messages/content.js';
import { parseWidgetContent } from '../lib/messages/widgets.js';
import { isOwnAddress } from '../lib/network/lan-urls.js';
import { postWebhook, type PostOutcome } from '../lib/network/webhook-post.js';
import {
  genericBody,
  INTERFACE,
  MAX_REPLY_BYTES,
  MAX_REQUEST_RETRIES,
  outgoingService,
  ownerNotice,
  pythonRepr,
  readReply,
  slackBody,
  USER_AGENT,
  type NoticeDetails,
  type OutgoingService,
} from '../lib/people/outgoing-webhooks.js';
import type { OutgoingWebhookCallRecord, OutgoingWebhookLastCall } from '../store/outgoing-webhook-records.js';
import type { UserRecord } from '../store/records.js';
import { emitBotUpdate } from './bot-events.js';
import { commit, type Transaction } from './commit.js';
import { doSendMessage } from './messages.js';
import { removeOutgoingWebhookCall } from './outgoing-webhook-queue.js';

/** Calls made at once (each to a different bot). */
const MAX_PARALLEL = 4;

/** A message the call leads to: in the triggering conversation (`reply` or "Failure! ..."), or to the bot's owner. */
interface Post {
  to: 'conversation' | 'owner';
  content: string;
  /** A reply's `widget_content`, as the service sent it. */
  widget?: unknown;
  /** A bot's own reply, whose refusal is itself reported (Zulip: JsonableError while sending it). */
  reply?: { responseText: string };
}

export function startOutgoingWebhooks(app: App): void {
  const st = app.outgoingWebhooks;
  st.running = true;
  st.wake = () => pump(app);
  pump(app);
}

/** Stops the worker: calls in flight are dropped unanswered (they stay queued); resolves once each has let go. */
export async function stopOutgoingWebhooks(app: App): Promise<void> {
  const st = app.outgoingWebhooks;
  st.running = false;
  st.wake = () => undefined;
  if (st.timer) clearTimeout(st.timer);
  st.timer = null;
  const calls = [...st.inFlight.values()];
  for (const c of calls) c.controller.abort();
  await Promise.all(calls.map((c) => c.done));
}

/** Starts every call that is due and whose bot has none in flight; sets a timer for the next retry. */
function pump(app: App): void {
  const st = app.outgoingWebhooks;
  if (!st.running) return;
  if (st.timer) clearTimeout(st.timer);
  st.timer = null;
  const now = app.clock.now();
  const busy = new Set([...st.inFlight.values()].map((c) => c.botId));
  let next = Number.POSITIVE_INFINITY;
  for (const call of app.store.outgoingWebhooks.data.calls) {
    if (st.inFlight.size >= MAX_PARALLEL) break;
    if (st.inFlight.has(call.id) || busy.has(call.bot_id)) continue;
    if (call.next_at > now) {
      next = Math.min(next, call.next_at);
      continue;
    }
    busy.add(call.bot_id);
    const controller = new AbortController();
    const done = makeCall(app, call, controller.signal).then(
      () => {
        st.inFlight.delete(call.id);
        pump(app);
      },
      (err: unknown) => {
        // A refused write (the disk): the call stays queued, tried again after a pause rather than at once.
        app.log.error('outgoing webhook call failed', { call_id: call.id, error: String(err) });
        st.inFlight.delete(call.id);
        if (st.running) setTimeout(() => pump(app), app.config.outgoingWebhookRetryMs).unref();
      },
    );
    st.inFlight.set(call.id, { botId: call.bot_id, controller, done });
  }
  if (next !== Number.POSITIVE_INFINITY) {
    st.timer = setTimeout(() => pump(app), Math.max(0, next - now));
    st.timer.unref();
  }
}

const allowsLoopback = (app: App) => app.store.realm.data.realm?.settings.hearth_allow_loopback_webhooks === true;

async function makeCall(app: App, call: OutgoingWebhookCallRecord, signal: AbortSignal): Promise<void> {
  const bot = app.store.users.get(call.bot_id);
  const service = outgoingService(bot);
  // A bot deactivated, or no longer an outgoing webhook, since the message: nothing to call.
  if (!bot || !service) return finish(app, call, bot, [], null);
  if (service.interface === INTERFACE.SLACK && call.message.type !== 'stream') {
    return finish(app, call, bot, [failure("Slack outgoing webhooks don't support direct messages.")], {
      ok: false,
      text: 'not called: the Slack format takes no direct messages',
    });
  }
  const started = Date.now();
  const outcome = await postWebhook({
    url: service.base_url,
    body: service.interface === INTERFACE.SLACK ? slackBody(app, service, call) : genericBody(bot, service, call),
    contentType: service.interface === INTERFACE.SLACK ? 'application/x-www-form-urlencoded' : 'application/json',
    userAgent: USER_AGENT,
    timeoutMs: app.config.outgoingWebhookTimeoutMs,
    maxBytes: MAX_REPLY_BYTES,
    allowLoopback: allowsLoopback(app),
    isOwn: (address) => isOwnAddress(address, app.config.networkInterfaces()),
    signal,
  });
  if (outcome.kind === 'aborted') return;
  app.log.info('outgoing webhook call', { bot_id: bot.id, call_id: call.id, outcome: outcome.kind, ms: Date.now() - started });
  if (outcome.kind === 'timeout' || outcome.kind === 'connection') {
    const live = app.store.outgoingWebhooks.data.calls.find((c) => c.id === call.id);
    if (!live) return;
    if (live.failed_tries + 1 <= MAX_REQUEST_RETRIES) {
      await commit(app, (tx) => {
        live.failed_tries += 1;
        live.next_at = app.clock.now() + app.config.outgoingWebhookRetryMs;
        noteLastCall(app, tx, bot, { ok: false, text: `${lastCallOf(service, outcome).text}, trying again` });
        tx.touch(app.store.outgoingWebhooks);
      });
      return;
    }
    app.log.warn('outgoing webhook: maximum retries exceeded', { bot_id: bot.id, message_id: call.message_id });
  }
  return finish(app, call, bot, postsFor(app, bot, service, call, outcome), lastCallOf(service, outcome));
}

type CallSummary = Omit<OutgoingWebhookLastCall, 'timestamp'>;

/** The short account of a call kept as the bot's last call: "HTTP 200", "HTTP 500", "timed out" … */
function lastCallOf(service: OutgoingService, outcome: PostOutcome): CallSummary {
  switch (outcome.kind) {
    case 'response': {
      const http = `HTTP ${outcome.status}`;
      if (outcome.status < 200 || outcome.status > 299) return { ok: false, text: http };
      const reply = readReply(service.interface, outcome.body.toString('utf8'));
      return reply.kind === 'error' ? { ok: false, text: `${http}: ${reply.message}` } : { ok: true, text: http };
    }
    case 'timeout':
      return { ok: false, text: 'timed out' };
    case 'connection':
      return { ok: false, text: 'could not connect' };
    case 'loopback':
      return { ok: false, text: 'refused: the address is this server’s own computer' };
    case 'too_large':
      return { ok: false, text: 'answer larger than 1 MiB' };
    case 'exception':
      return { ok: false, text: `${outcome.name}: ${outcome.message}`.slice(0, 200) };
    case 'aborted':
      return { ok: false, text: 'stopped' };
  }
}

/** Keeps the call's outcome as the bot's last call, and tells its administrators (`realm_bot` update). */
function noteLastCall(app: App, tx: Transaction, bot: UserRecord, summary: CallSummary): void {
  const doc = app.store.outgoingWebhooks.data;
  doc.last_calls ??= {};
  const last = { timestamp: Math.floor(app.clock.now() / 1000), ...summary };
  doc.last_calls[String(bot.id)] = last;
  tx.touch(app.store.outgoingWebhooks);
  emitBotUpdate(app, tx, bot, { hearth_last_call: { ...last } });
}

const failure = (text: string): Post => ({ to: 'conversation', content: `Failure! ${text}` });


/** Zulip's do_rest_call, from the call's outcome to the messages that follow it. */
function postsFor(app: App, bot: UserRecord, service: OutgoingService, call: OutgoingWebhookCallRecord, outcome: PostOutcome): Post[] {
  const owner = (d: NoticeDetails): Post => ({ to: 'owner', content: ownerNotice(app, bot, call, d) });
  switch (outcome.kind) {
    case 'response': {
      const text = outcome.body.toString('utf8');
      if (outcome.status < 200 || outcome.status > 299) {
        return [
          failure(`Third party responded with ${outcome.status}`),
          owner({ statusCode: outcome.status, responseContent: outcome.body.length ? pythonRepr(text, true) : undefined }),
        ];
      }
      const reply = readReply(service.interface, text);
      if (reply.kind === 'none') return [];
      if (reply.kind === 'error') return refusedReply(app, bot, call, reply.message, text);
      return [{ to: 'conversation', content: reply.content, widget: reply.widget, reply: { responseText: text } }];
    }
    case 'timeout':
      return [failure('Bot is unavailable'), owner({ failureMessage: `Request timed out after ${app.config.outgoingWebhookTimeoutMs / 1000} seconds.` })];
    case 'connection':
      return [failure('Bot is unavailable'), owner({ failureMessage: 'A connection error occurred. Is my bot server down?' })];
    case 'loopback':
      return [failure('Third party responded with 407'), owner({ statusCode: 407, loopback: true })];
    case 'too_large':
      return [
        failure('The response was larger than 1 MiB.'),
        owner({ failureMessage: 'The response was larger than 1 MiB, so it was not read.' }),
      ];
    case 'exception':
      return [
        failure(`An exception of type *${outcome.name}* occurred for message \`${String(call.message.content ?? '')}\`! See the Hearth server logs for more information.`),
        owner({ exception: { name: outcome.name, message: outcome.message } }),
      ];
    case 'aborted':
      return [];
  }
}

/** Zulip: a 2xx answer that cannot be posted (not JSON, wrong shape, a refused message) is a failure with a notice. */
function refusedReply(app: App, bot: UserRecord, call: OutgoingWebhookCallRecord, message: string, responseText: string): Post[] {
  return [
    failure(message),
    {
      to: 'owner',
      content: ownerNotice(app, bot, call, {
        failureMessage: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${message}`,
        responseContent: pythonRepr(responseText, false),
      }),
    },
  ];
}

/**
 * Sends what the call led to, the first message taking the call off the queue (and keeping the
 * call's outcome, `last`, as the bot's last call) in its own commit.
 */
async function finish(app: App, call: OutgoingWebhookCallRecord, bot: UserRecord | undefined, posts: Post[], last: CallSummary | null): Promise<void> {
  let removed = false;
  const remove = (tx: Transaction) => {
    removeOutgoingWebhookCall(app, tx, call);
    if (bot && last) noteLastCall(app, tx, bot, last);
    removed = true;
  };
  const queue = [...posts];
  for (let p = queue.shift(); p && bot; p = queue.shift()) {
    try {
      await postAsBot(app, bot, call, p, removed ? undefined : remove);
    } catch (err) {
      if (!(err instanceof HearthError) || err.status >= 500) throw err;
      if (p.reply) queue.unshift(...refusedReply(app, bot, call, err.message, p.reply.responseText));
      else app.log.warn('outgoing webhook: a notice could not be sent', { bot_id: bot.id, error: err.message });
    }
  }
  if (!removed && app.store.outgoingWebhooks.data.calls.some((c) => c.id === call.id)) await commit(app, remove);
}

function dmRecipients(call: OutgoingWebhookCallRecord): number[] {
  const list = Array.isArray(call.message.display_recipient) ? (call.message.display_recipient as { id?: unknown }[]) : [];
  return list.map((r) => Number(r.id)).filter((id) => Number.isInteger(id));
}

/** Zulip's send_response_message: as the bot, to the message's topic or conversation (no channel access check), or to its owner. */
async function postAsBot(app: App, bot: UserRecord, call: OutgoingWebhookCallRecord, p: Post, inSameCommit?: (tx: Transaction) => void): Promise<void> {
  let addressee: Addressee;
  if (p.to === 'owner') {
    if (bot.bot_owner_id === null) return;
    addressee = { kind: 'direct', userIds: resolveDirectRecipients(app, bot, [bot.bot_owner_id]) };
  } else if (call.message.type === 'stream') {
    const channel = findChannel(app, Number(call.message.stream_id));
    if (channel.is_archived) throw new HearthError('Not authorized to send to channel');
    addressee = { kind: 'stream', channel, topic: String(call.message.subject ?? '') };
  } else {
    addressee = { kind: 'direct', userIds: resolveDirectRecipients(app, bot, dmRecipients(call)) };
  }
  // Zulip takes widget_content as JSON text (check_widget_content); anything else is not JSON content.
  const widget = p.widget === undefined ? undefined : parseWidgetContent(typeof p.widget === 'string' ? p.widget : '\u0000');
  await doSendMessage(app, bot, {
    addressee,
    content: normaliseContent(p.content),
    readBySender: false,
    queueId: null,
    localId: null,
    client: 'OutgoingWebhookResponse',
    widget,
    inSameCommit,
  });
}
