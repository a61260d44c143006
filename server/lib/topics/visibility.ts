/**
 * Per-topic visibility (Zulip's UserTopic): 1 muted, 2 unmuted (in a muted
 * channel), 3 followed; 0 (inherit) is the absence of an entry. Topic names
 * match case-insensitively. Also what decides whether an unread channel message
 * counts (Zulip's `unmuted_stream_msg`).
 */
import type { App } from '../../context.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { topicKey } from '../../protocol/conversation-keys.js';
import { channelById, subscriptionOf } from '../channels/access.js';

export const VISIBILITY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

export function topicPolicy(user: UserRecord | undefined, streamId: number, topic: string): number {
  const key = topic.toLowerCase();
  return user?.user_topics?.find((t) => t.stream_id === streamId && t.topic_name.toLowerCase() === key)?.visibility_policy ?? 0;
}

/** Whether a channel message is muted for the user: a muted topic, or a muted channel unless the topic is unmuted or followed. */
export function isMutedFor(app: App, user: UserRecord | undefined, m: MessageRecord): boolean {
  if (m.stream_id === null || !user) return false;
  const policy = topicPolicy(user, m.stream_id, m.topic);
  if (policy === VISIBILITY.MUTED) return true;
  if (policy === VISIBILITY.UNMUTED || policy === VISIBILITY.FOLLOWED) return false;
  return subscriptionOf(app, user.id, m.stream_id)?.is_muted === true;
}

/** The user's topic policies as a lookup (same matching as topicPolicy: the first entry for a channel and case-folded topic). */
export function topicPolicyLookup(user: UserRecord): (streamId: number, topic: string) => number {
  const byKey = new Map<string, number>();
  for (const t of user.user_topics ?? []) {
    const key = topicKey(t.stream_id, t.topic_name);
    if (!byKey.has(key)) byKey.set(key, t.visibility_policy);
  }
  return (streamId, topic) => byKey.get(topicKey(streamId, topic)) ?? VISIBILITY.INHERIT;
}

/**
 * Zulip's exclude_stream_and_topic_mutes (the `in:home` view, and what the
 * `first_unread` anchor skips): whether a message shows as unmuted in a view.
 * Muted topics are left out (only the narrowed channel's when `channelId` is
 * given); outside a channel narrow, channels the user is subscribed to and
 * muted are left out too, except their unmuted and followed topics.
 * Direct messages always stay.
 */
export function unmutedInView(app: App, user: UserRecord, channelId: number | null): (m: MessageRecord) => boolean {
  const policy = topicPolicyLookup(user);
  const mutedChannels = new Set<number>();
  if (channelId === null) {
    for (const s of app.store.subscriptions.data.subscriptions) {
      if (s.user_id === user.id && s.active && s.is_muted) mutedChannels.add(s.stream_id);
    }
  }
  return (m) => {
    if (m.stream_id === null) return true;
    const p = policy(m.stream_id, m.topic);
    if (p === VISIBILITY.MUTED && (channelId === null || m.stream_id === channelId)) return false;
    if (mutedChannels.has(m.stream_id)) return p === VISIBILITY.UNMUTED || p === VISIBILITY.FOLLOWED;
    return true;
  };
}

/** Zulip's legacy `muted_topics`: [channel name, topic, timestamp] of muted topics. */
export function legacyMutedTopics(app: App, user: UserRecord): [string, string, number][] {
  return (user.user_topics ?? [])
    .filter((t) => t.visibility_policy === VISIBILITY.MUTED)
    .map((t) => [channelById(app, t.stream_id)?.name ?? '', t.topic_name, t.last_updated]);
}
