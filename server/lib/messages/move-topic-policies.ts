/**
 * What a move does to people's topic policies (muted, unmuted, followed), as
 * Zulip's do_update_message does:
 * - when the mover moved the whole topic as they can see it (`change_all`, or
 *   nothing they can read is left behind), each policy on the old topic moves
 *   to the new one; people who can no longer read the channel just lose it; a
 *   destination that already had messages keeps the more visible of the two
 *   policies (followed > unmuted > none > muted);
 * - otherwise, when the moved message becomes the first its sender can see in
 *   the destination topic, the sender's "topics I start" setting applies as if
 *   they had started it.
 * Decided before the messages are relocated; applied by the edit action.
 */
import type { App } from '../../context.js';
import type { ChannelRecord } from '../../store/channel-records.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { subscriptionOf } from '../channels/access.js';
import { AUTO } from '../topics/participation.js';
import { userSetting } from '../people/settings.js';
import { topicPolicy, VISIBILITY } from '../topics/visibility.js';
import { canReadMessage } from './access.js';

export interface PolicyChange {
  user: UserRecord;
  streamId: number;
  topic: string;
  policy: number;
}

export interface TopicMove {
  editor: UserRecord;
  target: MessageRecord;
  moved: MessageRecord[];
  propagateMode: string;
  from: { streamId: number; topic: string };
  to: { channel: ChannelRecord; topic: string };
  /** Whether a user keeps read access after the move (false: the move takes the topic away from them). */
  keepsAccess(user: UserRecord): boolean;
}

/** Zulip's get_visibility_policy_after_merge: the more visible policy wins. */
const RANK: Record<number, number> = { [VISIBILITY.FOLLOWED]: 3, [VISIBILITY.UNMUTED]: 2, [VISIBILITY.INHERIT]: 1, [VISIBILITY.MUTED]: 0 };
const merge = (a: number, b: number) => ((RANK[a] ?? 1) >= (RANK[b] ?? 1) ? a : b);

function othersInTopic(app: App, streamId: number, topic: string, moved: Set<number>): MessageRecord[] {
  const out: MessageRecord[] = [];
  for (const id of app.store.messages.topic(streamId, topic)) {
    if (moved.has(id)) continue;
    const m = app.store.messages.get(id);
    if (m) out.push(m);
  }
  return out;
}

function isMutedSubscriber(app: App, user: UserRecord, channel: ChannelRecord): boolean {
  const sub = subscriptionOf(app, user.id, channel.id);
  return sub?.active === true && sub.is_muted;
}

export function policyChangesForMove(app: App, move: TopicMove): PolicyChange[] {
  const { from, to } = move;
  // A change of the topic's case only (same channel): the same topic, nothing moves.
  if (from.streamId === to.channel.id && from.topic.toLowerCase() === to.topic.toLowerCase()) return [];
  const movedIds = new Set(move.moved.map((m) => m.id));
  const cache = new Map<number, boolean>();
  const movedAll =
    move.propagateMode === 'change_all' ||
    !othersInTopic(app, from.streamId, from.topic, movedIds).some((m) => canReadMessage(app, move.editor, m, cache));
  const changes: PolicyChange[] = [];
  if (movedAll) {
    const targetHadMessages = othersInTopic(app, to.channel.id, to.topic, movedIds).length > 0;
    for (const user of app.store.users.all()) {
      const orig = topicPolicy(user, from.streamId, from.topic);
      const target = topicPolicy(user, to.channel.id, to.topic);
      if (orig === VISIBILITY.INHERIT && target === VISIBILITY.INHERIT) continue;
      if (orig !== VISIBILITY.INHERIT && from.streamId !== to.channel.id && !move.keepsAccess(user)) {
        changes.push({ user, streamId: from.streamId, topic: from.topic, policy: VISIBILITY.INHERIT });
        continue;
      }
      if (orig !== VISIBILITY.INHERIT) changes.push({ user, streamId: from.streamId, topic: from.topic, policy: VISIBILITY.INHERIT });
      const next = targetHadMessages ? merge(orig, target) : orig;
      if (next !== target) changes.push({ user, streamId: to.channel.id, topic: to.topic, policy: next });
    }
    return changes;
  }
  // Part of the topic moved: does the target message start the destination topic for its sender?
  const sender = app.store.users.get(move.target.sender_id);
  if (!sender || sender.is_bot || !move.keepsAccess(sender)) return changes;
  const firstSeen = othersInTopic(app, to.channel.id, to.topic, movedIds).find((m) => canReadMessage(app, sender, m));
  if (firstSeen && firstSeen.id < move.target.id) return changes;
  const current = topicPolicy(sender, to.channel.id, to.topic);
  if (userSetting(app, sender, 'automatically_follow_topics_policy') === AUTO.ON_INITIATION) {
    if (current !== VISIBILITY.FOLLOWED) changes.push({ user: sender, streamId: to.channel.id, topic: to.topic, policy: VISIBILITY.FOLLOWED });
  } else if (
    userSetting(app, sender, 'automatically_unmute_topics_in_muted_streams_policy') === AUTO.ON_INITIATION &&
    isMutedSubscriber(app, sender, to.channel) &&
    current !== VISIBILITY.UNMUTED
  ) {
    changes.push({ user: sender, streamId: to.channel.id, topic: to.topic, policy: VISIBILITY.UNMUTED });
  }
  return changes;
}
