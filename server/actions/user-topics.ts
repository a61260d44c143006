/** Zulip's do_set_user_topic_visibility_policy: stored on the user; `user_topic` and the legacy `muted_topics` events. */
import type { App } from '../context.js';
import { legacyMutedTopics, VISIBILITY } from '../lib/topics/visibility.js';
import type { UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';

export async function doSetTopicPolicy(app: App, user: UserRecord, streamId: number, topic: string, policy: number): Promise<void> {
  await commit(app, (tx) => setTopicPolicyIn(app, tx, user, streamId, topic, policy));
}

/** The same change as part of a larger action (a send or a reaction that makes the user follow the topic). */
export function setTopicPolicyIn(app: App, tx: Transaction, user: UserRecord, streamId: number, topic: string, policy: number): void {
  const key = topic.toLowerCase();
  const now = Math.floor(app.clock.now() / 1000);
  const list = (user.user_topics ?? []).filter((t) => !(t.stream_id === streamId && t.topic_name.toLowerCase() === key));
  if (policy !== VISIBILITY.INHERIT) list.push({ stream_id: streamId, topic_name: topic, visibility_policy: policy, last_updated: now });
  if (list.length) user.user_topics = list;
  else delete user.user_topics;
  tx.touch(app.store.users.collection);
  tx.emit({ type: 'muted_topics', muted_topics: legacyMutedTopics(app, user) }, [user.id]);
  tx.emit({ type: 'user_topic', stream_id: streamId, topic_name: topic, last_updated: now, visibility_policy: policy }, [user.id]);
}
