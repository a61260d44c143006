/**
 * Zulip's "automatically follow / unmute topics" (zerver/actions/message_send.py:
 * visibility_policy_for_send_message, should_change_visibility_policy;
 * reactions.py for participation). The user settings
 * `automatically_follow_topics_policy` and
 * `automatically_unmute_topics_in_muted_streams_policy` say when: 1 on
 * participation (sending or reacting), 2 on send, 3 when starting the topic,
 * 4 never. `automatically_follow_topics_where_mentioned` follows topics where
 * the user is personally mentioned. These policies only ever raise a topic's
 * visibility: a followed topic stays followed, a muted one is left alone by
 * mentions.
 */
import type { App } from '../../context.js';
import type { ChannelRecord } from '../../store/channel-records.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { subscriptionOf } from '../channels/access.js';
import { canReadChannelHistory } from '../messages/access.js';
import { userSetting } from '../people/settings.js';
import { topicPolicy, VISIBILITY } from './visibility.js';

/** Zulip's UserProfile.AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_*. */
export const AUTO = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

const followPolicy = (app: App, u: UserRecord) => userSetting(app, u, 'automatically_follow_topics_policy');
const unmutePolicy = (app: App, u: UserRecord) => userSetting(app, u, 'automatically_unmute_topics_in_muted_streams_policy');

/** What a policy may still change: never lower a followed topic, never set what is already set. */
function raise(current: number, wanted: number | null): number | null {
  if (wanted === null || current === wanted || current === VISIBILITY.FOLLOWED) return null;
  return wanted;
}

/** The policy to set for `user` after reacting in `m`'s topic (subscribers only, as in Zulip), or null. */
export function participationPolicy(app: App, user: UserRecord, m: MessageRecord): number | null {
  if (m.stream_id === null || user.is_bot) return null;
  const sub = subscriptionOf(app, user.id, m.stream_id);
  if (!sub?.active) return null;
  let wanted: number | null = null;
  if (followPolicy(app, user) === AUTO.ON_PARTICIPATION) wanted = VISIBILITY.FOLLOWED;
  else if (sub.is_muted && unmutePolicy(app, user) === AUTO.ON_PARTICIPATION) wanted = VISIBILITY.UNMUTED;
  return raise(topicPolicy(user, m.stream_id, m.topic), wanted);
}

/** Whether the sender can see an earlier message in the topic (else they start it). Call before adding the message. */
function topicHasAccessibleMessages(app: App, sender: UserRecord, channel: ChannelRecord, topic: string): boolean {
  const ids = app.store.messages.topic(channel.id, topic);
  if (canReadChannelHistory(app, sender, channel)) return ids.last !== undefined;
  // Protected history: only the sender's own received messages count, so nothing leaks.
  for (const id of ids.descending()) {
    const m = app.store.messages.get(id);
    if (m && app.store.messages.rowFlags(m, sender.id) !== null) return true;
  }
  return false;
}

/** The policy to set for the sender of a new message to `channel` > `topic`, or null. Call before adding the message. */
export function sendPolicy(app: App, sender: UserRecord, channel: ChannelRecord, topic: string): number | null {
  if (sender.is_bot) return null;
  const follow = followPolicy(app, sender);
  const unmute = unmutePolicy(app, sender);
  if (follow === AUTO.NEVER && unmute === AUTO.NEVER) return null;
  const current = topicPolicy(sender, channel.id, topic);
  if (current === VISIBILITY.FOLLOWED) return null;
  const muted = subscriptionOf(app, sender.id, channel.id)?.is_muted === true;
  // Sending is participation as well as sending; following wins over unmuting.
  if (follow === AUTO.ON_PARTICIPATION || follow === AUTO.ON_SEND) return VISIBILITY.FOLLOWED;
  let wanted: number | null = muted && (unmute === AUTO.ON_PARTICIPATION || unmute === AUTO.ON_SEND) ? VISIBILITY.UNMUTED : null;
  if (current !== VISIBILITY.INHERIT) return raise(current, wanted);
  const starts = (follow === AUTO.ON_INITIATION || (muted && unmute === AUTO.ON_INITIATION)) && !topicHasAccessibleMessages(app, sender, channel, topic);
  if (starts && follow === AUTO.ON_INITIATION) return VISIBILITY.FOLLOWED;
  if (starts && muted && unmute === AUTO.ON_INITIATION) wanted = VISIBILITY.UNMUTED;
  return wanted;
}

/**
 * Users who start following the topic because the message mentions them by name:
 * active human recipients with `automatically_follow_topics_where_mentioned`,
 * unless they muted or already follow the topic (a mute takes precedence).
 */
export function mentionFollowers(
  app: App,
  mentionedUserIds: Iterable<number>,
  recipients: Set<number>,
  streamId: number,
  topic: string,
): UserRecord[] {
  const out: UserRecord[] = [];
  for (const id of mentionedUserIds) {
    if (!recipients.has(id)) continue;
    const u = app.store.users.get(id);
    if (!u || !u.is_active || u.is_bot) continue;
    if (userSetting(app, u, 'automatically_follow_topics_where_mentioned') !== true) continue;
    const current = topicPolicy(u, streamId, topic);
    if (current === VISIBILITY.MUTED || current === VISIBILITY.FOLLOWED) continue;
    out.push(u);
  }
  return out;
}
