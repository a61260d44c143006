/**
 * `delete_message` events in both of Zulip's forms: one event with
 * `message_ids` for clients with the `bulk_message_deletion` capability, one
 * event per message (`message_id`) for the others. Both forms are emitted; the
 * queue filter (server/register/messages.ts) lets each queue see only its form.
 */
import { BULK_FORM, type DeleteMessageEvent, type DeleteWhere } from '../events/types.js';
import type { MessageRecord } from '../store/message-records.js';
import type { Transaction } from './commit.js';

/**
 * Emits the deletion of messages that shared one conversation (one channel
 * topic, or one DM conversation). `topic` overrides the event's topic (Zulip's
 * do_delete_messages sends the lower-cased topic it grouped by).
 */
export function emitMessagesDeleted(tx: Transaction, messages: MessageRecord[], userIds: Iterable<number>, topic?: string): void {
  if (!messages.length) return;
  const to = [...new Set(userIds)];
  const first = messages[0]!;
  const where: DeleteWhere =
    first.stream_id === null
      ? { message_type: 'private' }
      : { message_type: 'stream', stream_id: first.stream_id, topic: topic ?? first.topic };
  const bulk: DeleteMessageEvent = { type: 'delete_message', message_ids: messages.map((m) => m.id).sort((a, b) => a - b), ...where };
  bulk[BULK_FORM] = true;
  tx.emit(bulk, to);
  for (const m of messages) {
    const single: DeleteMessageEvent = { type: 'delete_message', message_id: m.id, ...where };
    single[BULK_FORM] = false;
    tx.emit(single, to);
  }
}
