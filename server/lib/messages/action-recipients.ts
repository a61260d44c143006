/**
 * Who hears of an action on messages of one conversation (deletion,
 * reactions): Zulip's event_recipient_ids_for_action_on_messages, over
 * Hearth's read rule (server/lib/messages/access.ts). Candidates are the
 * users with a row on a message (direct messages: only they) and, for a
 * channel, its active subscribers; each must be active and able to read the
 * message. Checked before the change, while the messages still exist.
 */
import type { App } from '../../context.js';
import type { MessageRecord } from '../../store/message-records.js';
import { channelById, subscriberIds } from '../channels/access.js';
import { canReadMessage } from './access.js';

export function actionRecipients(app: App, messages: MessageRecord[]): Set<number> {
  const out = new Set<number>();
  const store = app.store.messages;
  const candidates = new Set<number>();
  const channels = new Set<number>();
  for (const m of messages) {
    for (const id of store.rowUserIds(m)) candidates.add(id);
    if (m.stream_id !== null) channels.add(m.stream_id);
  }
  for (const s of channels) if (channelById(app, s)) for (const id of subscriberIds(app, s)) candidates.add(id);
  for (const id of candidates) {
    const user = app.store.users.get(id);
    if (!user?.is_active) continue;
    if (messages.some((m) => canReadMessage(app, user, m))) out.add(id);
  }
  return out;
}

/**
 * Zulip's is_modifying_message: messages of an archived channel can be read
 * but not deleted or reacted to ("Invalid message(s)", as for a message one
 * cannot see).
 */
export function isInArchivedChannel(app: App, m: MessageRecord): boolean {
  return m.stream_id !== null && channelById(app, m.stream_id)?.is_archived === true;
}
