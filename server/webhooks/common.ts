/**
 * What an incoming-webhook integration is (Zulip's WebhookIntegration and its view function): a
 * name for `/api/v1/external/{name}`, the entry `realm_incoming_webhook_bots` lists, and a pure
 * function from the request (payload, headers, parameters) to the message to post. The framework
 * (server/views/webhooks.ts) does authentication, event filtering and the send.
 */
import { HearthError } from '../errors.js';

/** One of `config_options` (bot-creation options) or `url_options` (optional URL parameters). */
export interface ConfigOption {
  key: string;
  label: string;
  validator: string;
}
export interface UrlOption {
  key: string;
  label: string;
  input_type: string;
}

/** The request as an integration reads it. */
export interface WebhookRequest {
  /** The body as text (UTF-8). */
  body: string;
  /** The Content-Type's media type, lower case, without parameters (`application/json`). */
  contentType: string;
  /** A header by name (any case), or undefined. */
  header(name: string): string | undefined;
  /** A parameter from the query string or a form body, or undefined. */
  param(name: string): string | undefined;
}

/** A message to post: the integration's topic (`topic=` overrides it) and Markdown content. */
export interface WebhookMessage {
  topic: string;
  content: string;
  /** The event type `only_events` and `exclude_events` match (integrations that declare `allEventTypes`). */
  eventType?: string;
}

/** What an integration answers: messages to post (none: nothing to post, success), or an unsupported event. */
export type WebhookOutcome = { messages: WebhookMessage[]; answer?: Record<string, unknown> } | { unsupported: string };

export interface Integration {
  name: string;
  displayName: string;
  /** The name Zulip's webhook_view gives it: its client (`Zulip{clientName}Webhook`) and its error messages. */
  clientName: string;
  /** Zulip's categories, for the integrations page. */
  categories: readonly string[];
  /** The event types `only_events`/`exclude_events` may name, or null when the integration has no filtering. */
  allEventTypes: readonly string[] | null;
  configOptions: readonly ConfigOption[];
  urlOptions: readonly UrlOption[];
  /**
   * Errors as the integration's caller expects them: Slack-compatible senders read
   * `{"ok": false, "error": …}` (Zulip's slack_error_handler), every other one Zulip's envelope.
   */
  slackErrors?: boolean;
  /**
   * Zulip's webhook_view(notify_bot_owner_on_invalid_json=…): whether a payload that is not JSON
   * ("Malformed JSON") also has the Notification Bot tell the bot's owner. Default true.
   */
  notifyOnInvalidJson?: boolean;
  handle(req: WebhookRequest): WebhookOutcome;
}

/** Zulip's InvalidJSONError. */
export const malformedJson = () => new HearthError('Malformed JSON', { code: 'INVALID_JSON' });

/** orjson's nesting limit, which Zulip's payload parsing inherits (deeper is "Malformed JSON"). */
export const MAX_JSON_DEPTH = 1024;

/** How deeply the JSON text nests arrays and objects, counted without parsing (strings skipped). */
function nesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/**
 * JSON.parse that answers Zulip's "Malformed JSON" instead of throwing, and refuses nesting past
 * orjson's limit, so nothing that walks the payload afterwards can run out of stack.
 */
export function parseJson(text: string): unknown {
  if (nesting(text) > MAX_JSON_DEPTH) throw malformedJson();
  try {
    return JSON.parse(text);
  } catch {
    throw malformedJson();
  }
}

/** Python's fnmatch.fnmatch on a POSIX system: `*`, `?`, `[seq]`, `[!seq]`, case-sensitive, whole string. */
export function fnmatch(name: string, pattern: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '!') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j++;
      if (j >= pattern.length) re += '\\[';
      else {
        let set = pattern.slice(i + 1, j).replace(/\\/g, '\\\\');
        if (set.startsWith('!')) set = `^${set.slice(1)}`;
        else if (set.startsWith('^')) set = `\\${set}`;
        re += `[${set}]`;
        i = j;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^(?:${re})$`, 's').test(name);
}

/** Zulip's check_send_webhook_message filter: whether `only_events`/`exclude_events` drop this event. */
export function filteredOut(eventType: string, only: string[] | undefined, exclude: string[] | undefined): boolean {
  if (only !== undefined && !only.some((p) => fnmatch(eventType, p))) return true;
  return exclude !== undefined && exclude.some((p) => fnmatch(eventType, p));
}

/**
 * Zulip's MissingHTTPEventHeaderError: an integration that reads its event type from a header got
 * a request without it (400 MISSING_HTTP_EVENT_HEADER, `header` in the answer). The view also tells
 * the bot's owner, naming the integration as Zulip's message does.
 */
export class MissingEventHeaderError extends HearthError {
  constructor(
    readonly header: string,
    readonly integrationName: string,
  ) {
    super(`Missing the HTTP event header '${header}'`, { code: 'MISSING_HTTP_EVENT_HEADER', extra: { header } });
  }
}

/** Zulip's validate_extract_webhook_http_header: the first of `headers` present, else MissingEventHeaderError for the first. */
export function eventHeader(req: WebhookRequest, integrationName: string, ...headers: [string, ...string[]]): string {
  for (const name of headers) {
    const value = req.header(name);
    if (value !== undefined) return value;
  }
  throw new MissingEventHeaderError(headers[0], integrationName);
}

/** A URL option Zulip reads as `Json[bool]` (`true` or `false`), or `fallback` when absent. */
export function jsonBoolParam(req: WebhookRequest, name: string, fallback: boolean): boolean {
  const raw = req.param(name);
  if (raw === undefined) return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new HearthError(`${name} is not valid JSON`, { code: 'REQUEST_VARIABLE_INVALID', extra: { var_name: name } });
  }
  if (typeof parsed !== 'boolean') throw new HearthError(`${name} is not a boolean`, { code: 'REQUEST_VARIABLE_INVALID', extra: { var_name: name } });
  return parsed;
}
