/** Calls to outgoing-webhook bots waiting to be made (`outgoing_webhooks.json`). */

/**
 * One call to an outgoing-webhook bot's service (Zulip's `outgoing_webhooks` queue event): written
 * with the message that triggered it, in the same commit, and removed once the call has ended
 * (answered, or failed for good), so calls waiting when the server stops are made after it starts.
 */
export interface OutgoingWebhookCallRecord {
  id: number;
  /** The outgoing-webhook bot (its service is read when the call is made). */
  bot_id: number;
  message_id: number;
  /** Zulip's triggers: `mention` (a channel message mentioning the bot) or `direct_message`. */
  trigger: 'mention' | 'direct_message';
  /** The message as Zulip builds it for the bot (raw Markdown and `rendered_content`), when it was sent. */
  message: Record<string, unknown>;
  /** Attempts that timed out or could not connect (Zulip's `failed_tries`; given up past 3). */
  failed_tries: number;
  /** Not before this time (ms since the epoch): a retry waits a moment. */
  next_at: number;
}

/** How a bot's latest call went (a Hearth extension, shown to the bot's administrators as `hearth_last_call`). */
export interface OutgoingWebhookLastCall {
  /** When the call ended, in seconds since the epoch. */
  timestamp: number;
  /** Whether the service answered 2xx with a reply Hearth could use (or none). */
  ok: boolean;
  /** A short account: "HTTP 200", "HTTP 500", "timed out", "could not connect" … */
  text: string;
}

export interface OutgoingWebhooksDoc {
  nextId: number;
  calls: OutgoingWebhookCallRecord[];
  /** Each bot's latest call, by bot ID (absent in files written before it was kept). */
  last_calls?: Record<string, OutgoingWebhookLastCall>;
}
