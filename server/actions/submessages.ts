/**
 * Submessages (Zulip's do_add_submessage): a widget's events (votes, options, tasks, ticks), stored in
 * order on the message record, announced as `submessage` events to everyone who can read the message
 * and would hear of actions on it (event_recipient_ids_for_action_on_messages). The widget itself is
 * made with its message (server/actions/messages.ts, `widgetSubmessage`).
 */
import type { App } from '../context.js';
import type { SubmessageEvent } from '../events/types.js';
import { actionRecipients } from '../lib/messages/action-recipients.js';
import { participationPolicy } from '../lib/topics/participation.js';
import type { MessageRecord, SubmessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';
import { setTopicPolicyIn } from './user-topics.js';

/** A new submessage record (its ID taken now); push it on `m.submessages` in the same commit. */
export function newSubmessage(app: App, senderId: number, msgType: string, content: string): SubmessageRecord {
  return { id: app.store.messages.nextSubmessageId(), sender_id: senderId, msg_type: msgType, content };
}

/** `content` is validated by the caller (server/lib/messages/widget-state.ts). */
export async function doAddSubmessage(app: App, user: UserRecord, m: MessageRecord, msgType: string, content: string): Promise<number> {
  return commit(app, (tx) => {
    const sub = newSubmessage(app, user.id, msgType, content);
    (m.submessages ??= []).push(sub);
    tx.touch(() => app.store.messages.save(m.id));
    // Taking part in a widget is taking part in the topic (automatically follow / unmute on participation).
    const policy = participationPolicy(app, user, m);
    if (policy !== null) setTopicPolicyIn(app, tx, user, m.stream_id!, m.topic, policy);
    const event: SubmessageEvent = {
      type: 'submessage',
      msg_type: msgType,
      message_id: m.id,
      submessage_id: sub.id,
      sender_id: user.id,
      content,
    };
    // The sender hears of it too, even without a row or a subscription (a reader of a public channel's
    // history), so their other windows show their vote; Zulip leaves them out until they reload.
    const recipients = actionRecipients(app, [m]);
    recipients.add(user.id);
    tx.emit(event, recipients);
    return sub.id;
  });
}
