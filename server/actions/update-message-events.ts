/**
 * `update_message` to a message's active recipients, each with their own `flags`: recipients with
 * the same flags share one event (an edit, a move, or a re-rendering after thumbnails are made).
 */
import type { App } from '../context.js';
import type { UpdateMessageEvent } from '../events/types.js';
import { flagNames, type MessageRecord } from '../store/message-records.js';
import type { Transaction } from './commit.js';

export function emitUpdateByFlags(app: App, tx: Transaction, m: MessageRecord, base: Omit<UpdateMessageEvent, 'flags'>): void {
  const store = app.store.messages;
  const byFlags = new Map<string, number[]>();
  for (const userId of store.rowUserIds(m)) {
    if (!app.store.users.get(userId)?.is_active) continue;
    const key = flagNames(store.rowFlags(m, userId)!).join(',');
    (byFlags.get(key) ?? byFlags.set(key, []).get(key)!).push(userId);
  }
  for (const [key, userIds] of byFlags) tx.emit({ ...base, flags: key ? key.split(',') : [] }, userIds);
}
