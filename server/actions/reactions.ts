/**
 * Emoji reactions (Zulip's do_add_reaction / do_remove_reaction): stored on the
 * message record, announced as `reaction` events to everyone who can read the
 * message and has it (Zulip's event_recipient_ids_for_action_on_messages).
 */
import type { App } from '../context.js';
import type { ReactionEvent } from '../events/types.js';
import type { ResolvedEmoji } from '../lib/emoji/reaction.js';
import { actionRecipients } from '../lib/messages/action-recipients.js';
import { apiEmail } from '../lib/people/people.js';
import { FLAG, type MessageRecord, type ReactionRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { participationPolicy } from '../lib/topics/participation.js';
import { commit, type Transaction } from './commit.js';
import { setTopicPolicyIn } from './user-topics.js';

function reactionEvent(app: App, user: UserRecord, m: MessageRecord, op: 'add' | 'remove', r: ResolvedEmoji, viewer: UserRecord): ReactionEvent {
  return {
    type: 'reaction',
    op,
    user_id: user.id,
    // Deprecated in Zulip, still sent: some clients read the reacting user from here.
    user: { user_id: user.id, email: apiEmail(app, viewer, user), full_name: user.full_name },
    message_id: m.id,
    emoji_name: r.emoji_name,
    emoji_code: r.emoji_code,
    reaction_type: r.reaction_type,
  };
}

/** The user's reaction with this emoji (same code and type), if any. */
export const findReaction = (m: MessageRecord, userId: number, r: { emoji_code: string; reaction_type: string }) =>
  (m.reactions ?? []).find((x) => x.user_id === userId && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type);

/** A reaction by anyone with this emoji (same code and type): new ones count as votes for it. */
export const findAnyReaction = (m: MessageRecord, r: { emoji_code: string; reaction_type: string }) =>
  (m.reactions ?? []).find((x) => x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type);

/** `emoji` is validated by the caller, or a vote for an existing reaction (whose name it carries). */
export async function doAddReaction(app: App, user: UserRecord, m: MessageRecord, r: ResolvedEmoji): Promise<void> {
  await commit(app, (tx) => {
    const record: ReactionRecord = { ...r, user_id: user.id };
    (m.reactions ??= []).push(record);
    // Reacting to a message the user never received makes it part of their history.
    if (app.store.messages.rowFlags(m, user.id) === null) app.store.messages.setRowFlags(m, user.id, FLAG.read | FLAG.historical);
    tx.touch(() => app.store.messages.save(m.id));
    // Reacting is taking part in the topic (automatically follow / unmute on participation).
    const policy = participationPolicy(app, user, m);
    if (policy !== null) setTopicPolicyIn(app, tx, user, m.stream_id!, m.topic, policy);
    emitToEach(app, tx, m, (viewer) => reactionEvent(app, user, m, 'add', r, viewer));
  });
}

export async function doRemoveReaction(app: App, user: UserRecord, m: MessageRecord, existing: ReactionRecord): Promise<void> {
  await commit(app, (tx) => {
    m.reactions = (m.reactions ?? []).filter((x) => x !== existing);
    if (!m.reactions.length) delete m.reactions;
    tx.touch(() => app.store.messages.save(m.id));
    emitToEach(app, tx, m, (viewer) => reactionEvent(app, user, m, 'remove', existing as ResolvedEmoji, viewer));
  });
}

/** One event per viewer only where the reacting user's email differs by viewer; otherwise one for all. */
function emitToEach(
  app: App,
  tx: Transaction,
  m: MessageRecord,
  make: (viewer: UserRecord) => ReactionEvent,
): void {
  const groups = new Map<string, { event: ReactionEvent; ids: number[] }>();
  for (const id of actionRecipients(app, [m])) {
    const viewer = app.store.users.get(id)!;
    const event = make(viewer);
    const key = JSON.stringify(event);
    const g = groups.get(key);
    if (g) g.ids.push(id);
    else groups.set(key, { event, ids: [id] });
  }
  for (const { event, ids } of groups.values()) tx.emit(event, ids);
}
