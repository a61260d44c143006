/**
 * Queuing calls to outgoing-webhook bots with the message that triggers them (Zulip's
 * `outgoing_webhooks` queue events from do_send_messages): the calls are written in the message's
 * own commit, so a message acknowledged to its sender always has its calls on disk, and the
 * worker (actions/outgoing-webhook-worker.ts) makes them once that commit is durable.
 */
import type { App } from '../context.js';
import { botMessageDict, serviceBotTriggers } from '../lib/people/outgoing-webhooks.js';
import { FLAG, type MessageRecord } from '../store/message-records.js';
import type { OutgoingWebhookCallRecord } from '../store/outgoing-webhook-records.js';
import type { UserRecord } from '../store/records.js';
import type { Transaction } from './commit.js';

/** Queues this message's calls in the transaction; returns how many (the caller wakes the worker after the commit). */
export function queueOutgoingWebhookCalls(app: App, tx: Transaction, sender: UserRecord, m: MessageRecord, mentioned: ReadonlySet<number>): number {
  const triggers = serviceBotTriggers(app, sender, m, mentioned);
  if (triggers.length === 0) return 0;
  const doc = app.store.outgoingWebhooks.data;
  for (const { botId, trigger } of triggers) {
    const bot = app.store.users.get(botId)!;
    doc.calls.push({ id: doc.nextId++, bot_id: botId, message_id: m.id, trigger, message: botMessageDict(app, bot, m), failed_tries: 0, next_at: 0 });
  }
  tx.touch(app.store.outgoingWebhooks);
  return triggers.length;
}

/**
 * Takes a call off the queue (it has ended) and, as Zulip's do_flag_service_bots_messages_as_processed,
 * marks the message read for the bot where it has the message (no event: nobody reads as the bot here).
 */
export function removeOutgoingWebhookCall(app: App, tx: Transaction, call: OutgoingWebhookCallRecord): void {
  const doc = app.store.outgoingWebhooks.data;
  doc.calls = doc.calls.filter((c) => c.id !== call.id);
  tx.touch(app.store.outgoingWebhooks);
  const m = app.store.messages.get(call.message_id);
  const flags = m ? app.store.messages.rowFlags(m, call.bot_id) : null;
  if (m && flags !== null && (flags & FLAG.read) === 0) {
    // Read is a journal line, not a segment write.
    app.store.messages.setRowFlags(m, call.bot_id, flags | FLAG.read);
    tx.touch(() => app.store.messages.saveFlags());
  }
}
