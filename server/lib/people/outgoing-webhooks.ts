/**
 * Outgoing-webhook bots as Zulip calls them (zerver/actions/message_send.py get_service_bot_events,
 * zerver/lib/outgoing_webhook.py): which bots a message triggers, what is POSTed to a bot's
 * service in each format (Zulip's JSON, Slack's outgoing form), how its answer is read, and the
 * texts of the failure notices. No network and no changes here: the call is made by
 * lib/network/webhook-post.ts, and actions/outgoing-webhook-worker.ts posts what follows.
 */
import type { App } from '../../context.js';
import { renderedOf, type MessageRecord } from '../../store/message-records.js';
import type { OutgoingWebhookCallRecord } from '../../store/outgoing-webhook-records.js';
import type { UserRecord } from '../../store/records.js';
import { topicNarrow } from '../../markdown/urls.js';
import { SERVICE_VERSION } from '../../version.js';
import { formatMessage } from '../messages/format.js';
import { BOT_TYPE, settingsOf } from './bots.js';

/** Zulip's Service interfaces: GENERIC (1) and SLACK (2). */
export const INTERFACE = { GENERIC: 1, SLACK: 2 } as const;

/** Zulip's MAX_REQUEST_RETRIES: a call that times out or cannot connect is tried again, up to 3 times. */
export const MAX_REQUEST_RETRIES = 3;

/** Largest answer read from a bot's service (1 MiB); a longer one is refused. */
export const MAX_REPLY_BYTES = 1024 * 1024;

export const USER_AGENT = `ZulipOutgoingWebhook/${SERVICE_VERSION}`;

export type OutgoingService = NonNullable<ReturnType<typeof settingsOf>['outgoing']>;

/** An active outgoing-webhook bot's service, or null. */
export function outgoingService(bot: UserRecord | undefined): OutgoingService | null {
  if (!bot?.is_active || !bot.is_bot || bot.bot_type !== BOT_TYPE.OUTGOING_WEBHOOK) return null;
  return settingsOf(bot).outgoing ?? null;
}

/**
 * Zulip's get_service_bot_events for outgoing webhooks: nothing for a message a bot sent (no loops);
 * a channel message triggers `mention` for each bot it mentions (a user or group mention, not a
 * silent or wildcard one); a direct message, one-to-one or group, `direct_message` for each bot in it.
 */
export function serviceBotTriggers(
  app: App,
  sender: UserRecord,
  m: { stream_id: number | null; dm?: number[] },
  mentioned: ReadonlySet<number>,
): { botId: number; trigger: OutgoingWebhookCallRecord['trigger'] }[] {
  if (sender.is_bot) return [];
  const ids = m.stream_id !== null ? [...mentioned] : (m.dm ?? []).filter((id) => id !== sender.id);
  const trigger = m.stream_id !== null ? 'mention' : 'direct_message';
  return [...new Set(ids)]
    .sort((a, b) => a - b)
    .filter((id) => outgoingService(app.store.users.get(id)) !== null)
    .map((botId) => ({ botId, trigger }));
}

/** The message as Zulip's GenericOutgoingWebhookService sends it: raw Markdown, with `rendered_content`. */
export function botMessageDict(app: App, bot: UserRecord, m: MessageRecord): Record<string, unknown> {
  const dict = formatMessage(app, bot, m, { applyMarkdown: false, clientGravatar: false, allowEmptyTopicName: true });
  return { ...dict, rendered_content: renderedOf(m) };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** Interface 1: Zulip's JSON body. */
export function genericBody(bot: UserRecord, service: OutgoingService, call: OutgoingWebhookCallRecord): string {
  return JSON.stringify({
    data: str(call.message.content),
    message: call.message,
    bot_email: bot.email,
    bot_full_name: bot.full_name,
    token: service.token,
    trigger: call.trigger,
  });
}

/** Interface 2: Slack's outgoing-webhook form, as Zulip's SlackOutgoingWebhookService fills it. */
export function slackBody(app: App, service: OutgoingService, call: OutgoingWebhookCallRecord): string {
  const m = call.message;
  const host = slackTeamDomain(app);
  return new URLSearchParams([
    ['token', service.token],
    ['team_id', `T${app.store.realm.data.realm?.id ?? 1}`],
    ['team_domain', host],
    ['channel_id', `C${str(m.stream_id)}`],
    ['channel_name', str(m.display_recipient)],
    ['thread_ts', str(m.timestamp)],
    ['timestamp', str(m.timestamp)],
    ['user_id', `U${str(m.sender_id)}`],
    ['user_name', str(m.sender_full_name)],
    ['text', str(m.content)],
    ['trigger_word', call.trigger],
    ['service_id', String(call.bot_id)],
  ]).toString();
}

/** Zulip sends `realm.host`; Hearth's is the configured address's host, else the one it listens on. */
function slackTeamDomain(app: App): string {
  if (app.config.publicUrl && URL.canParse(app.config.publicUrl)) return new URL(app.config.publicUrl).host;
  const listen = app.config.listenAddress;
  if (!listen) return 'localhost';
  const host = listen.host === '0.0.0.0' || listen.host === '::' ? 'localhost' : listen.host;
  return `${host.includes(':') ? `[${host}]` : host}:${listen.port}`;
}

/** What a service's 2xx answer asks for (Zulip's process_success_response and process_success). */
export type Reply = { kind: 'none' } | { kind: 'post'; content: string; widget?: unknown } | { kind: 'error'; message: string };

/** Python's str() of a JSON value, as Zulip's `str(response_json["content"])` reads one. */
function pythonStr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  return JSON.stringify(v);
}

export function readReply(iface: number, text: string): Reply {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'error', message: 'Invalid JSON in response' };
  }
  // zulip_botserver before 2021-05 answered json.dumps("") for "no response required".
  if (json === '') return { kind: 'none' };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { kind: 'error', message: 'Invalid response format' };
  const r = json as Record<string, unknown>;
  let content: string | null = null;
  let widget: unknown;
  if (iface === INTERFACE.SLACK) {
    if ('text' in r) content = pythonStr(r.text);
  } else if (r.response_not_required) {
    return { kind: 'none' };
  } else if ('response_string' in r) {
    content = pythonStr(r.response_string);
  } else if ('content' in r) {
    content = pythonStr(r.content);
    if ('widget_content' in r) widget = r.widget_content;
  }
  if (content === null || content.trim() === '') return { kind: 'none' };
  return widget === undefined ? { kind: 'post', content } : { kind: 'post', content, widget };
}

/**
 * Python's repr() of the answer Zulip quotes in a notice (`b'...'` for the body's bytes, `'...'`
 * for its text), on one line, cut at 1,000 characters so the notice stays a readable message.
 */
export function pythonRepr(text: string, asBytes: boolean): string {
  const cut = text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
  const quote = cut.includes("'") && !cut.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of cut) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (asBytes && code > 0x7e) out += [...Buffer.from(ch)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
    else out += ch;
  }
  return `${asBytes ? 'b' : ''}${quote}${out}${quote}`;
}

/** Where the notice's "[A message](...)" points (Zulip's near_message_url). */
export function nearMessageUrl(app: App, call: OutgoingWebhookCallRecord): string {
  const m = call.message;
  const path =
    m.type === 'stream'
      ? `${topicNarrow(Number(m.stream_id), str(m.display_recipient), str(m.subject))}/near/${call.message_id}`
      : `/#narrow/id/${call.message_id}`;
  return app.config.publicUrl ? `${app.config.publicUrl.replace(/\/$/, '')}${path}` : path;
}

export interface NoticeDetails {
  statusCode?: number;
  /** Already in Python's repr. */
  responseContent?: string;
  failureMessage?: string;
  exception?: { name: string; message: string };
  /** The target was this computer and the organization does not allow it (Hearth's line after Zulip's). */
  loopback?: boolean;
}

/** Zulip's notify_bot_owner: the direct message the bot sends its owner about a failed call. */
export function ownerNotice(app: App, bot: UserRecord, call: OutgoingWebhookCallRecord, d: NoticeDetails): string {
  let text = `[A message](${nearMessageUrl(app, call)}) to your bot @_**${bot.full_name}** triggered an outgoing webhook.`;
  if (d.exception) {
    text += `\nWhen trying to send a request to the webhook service, an exception of type ${d.exception.name} occurred:\n\`\`\`\n${d.exception.message}\n\`\`\``;
  } else if (d.failureMessage) {
    text += `\n${d.failureMessage}`;
  } else if (d.statusCode === 407) {
    text += '\nThe URL configured for the webhook is for a private or disallowed network.';
    if (d.loopback) {
      text += "\nIt names this computer: an owner can allow that with the organization setting `hearth_allow_loopback_webhooks`.";
    }
  } else if (d.statusCode) {
    text += `\nThe webhook got a response with status code *${d.statusCode}*.`;
  }
  if (d.responseContent) text += `\nThe response contains the following payload:\n\`\`\`\n${d.responseContent}\n\`\`\``;
  return text;
}
