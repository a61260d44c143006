/**
 * Personal message flags (Zulip's do_update_message_flags, do_mark_all_as_read,
 * do_mark_stream_messages_as_read): the user's flags change (a line in the flags journal; a
 * segment is written only for a message given a row), and the user's clients hear
 * `update_message_flags` with `op` and the legacy `operation`; removing `read` carries
 * `message_details` so clients can rebuild their unread counts.
 */
import type { App } from '../context.js';
import type { UnreadMessageDetails, UpdateMessageFlagsEvent } from '../events/types.js';
import { isMutedFor } from '../lib/topics/visibility.js';
import { FLAG, WILDCARD_MENTION_BITS, type MessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';

export type FlagOp = 'add' | 'remove';

/** Flags a user may change (Zulip's UserMessage editable flags). */
export const EDITABLE_FLAGS = { read: FLAG.read, starred: FLAG.starred, collapsed: FLAG.collapsed } as const;
export type EditableFlag = keyof typeof EDITABLE_FLAGS;

/**
 * Whether a channel message counts towards the user's unread total (Zulip's
 * `unmuted_stream_msg`): neither the topic nor (unless the topic is unmuted or
 * followed) the channel is muted for them.
 */
export function countsAsUnmuted(app: App, userId: number, m: MessageRecord): boolean {
  return !isMutedFor(app, app.store.users.get(userId), m);
}

/** What a client needs to show a message as unread again. */
function messageDetails(app: App, user: UserRecord, m: MessageRecord, flags: number): UnreadMessageDetails {
  const mentioned = (flags & (FLAG.mentioned | WILDCARD_MENTION_BITS)) !== 0;
  const out: UnreadMessageDetails =
    m.stream_id === null
      ? { type: 'private', user_ids: (m.dm ?? []).filter((id) => id !== user.id) }
      : { type: 'stream', stream_id: m.stream_id, topic: m.topic, unmuted_stream_msg: countsAsUnmuted(app, user.id, m) };
  if (mentioned) out.mentioned = true;
  return out;
}

export interface FlagChange {
  /** IDs whose flag changed, ascending. */
  changed: number[];
}

/**
 * Sets or clears one editable flag on messages the view has checked the user may
 * read. Messages without a row get one (historical) when the flag is added and is
 * not `read` (Zulip creates historical rows for starring or collapsing what the
 * user can see but never received); `read` needs a row.
 */
export async function doUpdateMessageFlags(
  app: App,
  user: UserRecord,
  messages: MessageRecord[],
  op: FlagOp,
  flag: EditableFlag,
  opts: { all?: boolean } = {},
): Promise<FlagChange> {
  const bit = EDITABLE_FLAGS[flag];
  const store = app.store.messages;
  return commit(app, (tx) => {
    const changed: MessageRecord[] = [];
    /** Messages given a row (their records change); the flags themselves are a line in the flags journal. */
    const newRows: number[] = [];
    const details: Record<string, UnreadMessageDetails> = {};
    for (const m of messages) {
      const old = store.rowFlags(m, user.id);
      if (old === null) {
        if (op === 'remove' || flag === 'read') continue;
        if (store.setRowFlags(m, user.id, FLAG.read | FLAG.historical | bit)) newRows.push(m.id);
        changed.push(m);
        continue;
      }
      const next = op === 'add' ? old | bit : old & ~bit;
      if (next === old) continue;
      store.setRowFlags(m, user.id, next);
      changed.push(m);
      if (op === 'remove' && flag === 'read') details[String(m.id)] = messageDetails(app, user, m, next);
    }
    if (!changed.length && !opts.all) return { changed: [] };
    const ids = changed.map((m) => m.id).sort((a, b) => a - b);
    if (ids.length) tx.touch(() => store.save(...newRows));
    const event: UpdateMessageFlagsEvent = {
      type: 'update_message_flags',
      op,
      operation: op,
      flag,
      messages: opts.all ? [] : ids,
      all: opts.all === true,
    };
    if (op === 'remove' && flag === 'read') event.message_details = details;
    tx.emit(event, [user.id]);
    return { changed: ids };
  });
}

/** The user's unread messages matching `keep`, as records (ascending). */
export function unreadWhere(app: App, user: UserRecord, keep: (m: MessageRecord) => boolean): MessageRecord[] {
  const store = app.store.messages;
  const out: MessageRecord[] = [];
  for (const id of store.unread(user.id)) {
    const m = store.get(id);
    if (m && keep(m)) out.push(m);
  }
  return out;
}
