/** Sends `typing` events (no state changes; through commit so events follow the one path). */
import type { App } from '../context.js';
import { apiEmail } from '../lib/people/people.js';
import { editTypingAudience, receivesTyping } from '../lib/people/typing.js';
import type { MessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';

export type TypingTarget = { kind: 'direct'; userIds: number[] } | { kind: 'stream'; streamId: number; topic: string; audience: number[] };

export async function doSendTyping(app: App, sender: UserRecord, op: 'start' | 'stop', target: TypingTarget): Promise<void> {
  await commit(app, (tx) => {
    if (target.kind === 'direct') {
      // One event per viewer: emails follow each viewer's email visibility. Everyone is named; only those
      // who receive typing notifications hear it (Zulip's do_send_typing_notification).
      for (const viewerId of target.userIds) {
        const viewer = app.store.users.get(viewerId);
        if (!viewer?.is_active || !receivesTyping(app, viewerId)) continue;
        const person = (u: UserRecord) => ({ user_id: u.id, email: apiEmail(app, viewer, u) });
        const recipients = target.userIds.map((id) => app.store.users.get(id)).filter((u): u is UserRecord => u !== undefined);
        tx.emit(
          { type: 'typing', op, message_type: 'direct', sender: person(sender), recipients: recipients.map(person) },
          [viewerId],
        );
      }
      return;
    }
    for (const viewerId of target.audience) {
      const viewer = app.store.users.get(viewerId);
      if (!viewer?.is_active) continue;
      tx.emit(
        {
          type: 'typing',
          op,
          message_type: 'stream',
          sender: { user_id: sender.id, email: apiEmail(app, viewer, sender) },
          stream_id: target.streamId,
          topic: target.topic,
        },
        [viewerId],
      );
    }
  });
}

/** `typing_edit_message`: `editor` started or stopped editing message `m` (one event, the same for everyone). */
export async function doSendEditTyping(app: App, editor: UserRecord, op: 'start' | 'stop', m: MessageRecord): Promise<void> {
  const { recipient, userIds } = editTypingAudience(app, editor, m);
  if (userIds.length === 0) return;
  await commit(app, (tx) => {
    tx.emit(
      { type: 'typing_edit_message', op, sender_id: editor.id, message_id: m.id, recipient },
      [...new Set(userIds)],
    );
  });
}
