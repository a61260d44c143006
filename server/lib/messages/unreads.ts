/**
 * Register data derived from the user's rows: `unread_msgs` (Zulip's
 * aggregate_unread_data), `recent_private_conversations` and
 * `starred_messages`.
 */
import type { App } from '../../context.js';
import { FLAG, WILDCARD_MENTION_BITS } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { displayTopic } from './format.js';
import { topicPolicy, VISIBILITY } from '../topics/visibility.js';

export const MAX_UNREAD_MESSAGES = 50_000;
export const MAX_RECENT_DIRECT = 1000;

const byNum = (a: number, b: number) => a - b;

export function unreadMessages(app: App, user: UserRecord, allowEmptyTopic: boolean): Record<string, unknown> {
  const store = app.store.messages;
  const all = store.unread(user.id);
  const start = Math.max(0, all.length - MAX_UNREAD_MESSAGES);
  const muted = new Set(
    app.store.subscriptions.data.subscriptions
      .filter((s) => s.user_id === user.id && s.is_muted)
      .map((s) => s.stream_id),
  );
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  for (let i = start; i < all.length; i++) {
    const id = all.at(i);
    // Place and rows only: an old unread message's segment is not read for this.
    const m = store.unreadRecord(id);
    if (!m) continue;
    const flags = store.rowFlags(m, user.id) ?? 0;
    const policy = m.stream_id === null || !user.user_topics ? 0 : topicPolicy(user, m.stream_id, m.topic);
    const isMuted =
      m.stream_id !== null &&
      (policy === VISIBILITY.MUTED || (policy !== VISIBILITY.UNMUTED && policy !== VISIBILITY.FOLLOWED && muted.has(m.stream_id)));
    if (flags & FLAG.mentioned) mentions.push(id);
    else if (flags & WILDCARD_MENTION_BITS && !isMuted) mentions.push(id);
    if (m.stream_id !== null) {
      const key = `${m.stream_id}\u0000${m.topic}`;
      let s = streams.get(key);
      if (!s) streams.set(key, (s = { stream_id: m.stream_id, topic: m.topic, unread_message_ids: [] }));
      s.unread_message_ids.push(id);
      if (!isMuted) count++;
      continue;
    }
    count++;
    const dm = m.dm ?? [user.id];
    if (dm.length <= 2) {
      const other = dm.find((x) => x !== user.id) ?? user.id;
      let l = pms.get(other);
      if (!l) pms.set(other, (l = []));
      l.push(id);
    } else {
      const key = dm.join(',');
      let l = huddles.get(key);
      if (!l) huddles.set(key, (l = []));
      l.push(id);
    }
  }
  return {
    count,
    pms: [...pms.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()]
      .map((s) => ({ ...s, topic: displayTopic(s.topic, allowEmptyTopic) }))
      .sort((a, b) => a.stream_id - b.stream_id || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0)),
    huddles: [...huddles.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions: mentions.sort(byNum),
    old_unreads_missing: start > 0,
  };
}

/** The conversations of the user's 1,000 most recent direct messages, newest first. */
export function recentPrivateConversations(app: App, user: UserRecord): Record<string, unknown>[] {
  // Each conversation's newest messages, merged: the 1,000 newest decide which conversations count.
  const newest: { id: number; userIds: number[] }[] = [];
  for (const { userIds, ids } of app.store.messages.conversationsOf(user.id)) {
    for (let i = ids.length - 1; i >= Math.max(0, ids.length - MAX_RECENT_DIRECT); i--) newest.push({ id: ids.at(i), userIds });
  }
  newest.sort((a, b) => b.id - a.id);
  const out = new Map<string, { max_message_id: number; user_ids: number[] }>();
  for (const { id, userIds } of newest.slice(0, MAX_RECENT_DIRECT)) {
    const key = userIds.join(',');
    if (!out.has(key)) out.set(key, { max_message_id: id, user_ids: userIds.filter((x) => x !== user.id) });
  }
  return [...out.values()];
}
