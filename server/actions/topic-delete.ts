/**
 * Deleting a whole topic (Zulip's delete_in_topic): the messages the acting
 * administrator can read go newest first, in batches that each land on disk
 * before the next starts, so a long topic makes progress even when the request
 * answers `complete: false` and the client repeats it. Once nothing is left,
 * the topic's mute/follow settings go too (with protected history: only for
 * users who can read none of what remains).
 */
import type { App } from '../context.js';
import { canReadChannelHistory } from '../lib/messages/access.js';
import { VISIBILITY } from '../lib/topics/visibility.js';
import type { MessageRecord } from '../store/message-records.js';
import type { ChannelRecord } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { topicKey } from '../store/messages.js';
import { commit } from './commit.js';
import { doDeleteMessages } from './message-delete.js';
import { setTopicPolicyIn } from './user-topics.js';

/** Messages per batch: one durable write and one delete_message event per batch. */
export const TOPIC_DELETE_BATCH = 500;

export interface TopicDeleteResult {
  complete: boolean;
  deleted: number;
}

export async function doDeleteTopic(app: App, admin: UserRecord, channel: ChannelRecord, topic: string): Promise<TopicDeleteResult> {
  const started = performance.now();
  const fullHistory = canReadChannelHistory(app, admin, channel);
  let deleted = 0;
  for (;;) {
    const batch = newestDeletable(app, admin, channel, topic, fullHistory);
    if (!batch.length) break;
    await doDeleteMessages(app, batch, admin);
    deleted += batch.length;
    // At least one batch per request, so repeating the request always gets somewhere.
    if (performance.now() - started >= app.config.topicDeleteBudgetMs) {
      if (newestDeletable(app, admin, channel, topic, fullHistory, 1).length) return { complete: false, deleted };
      break;
    }
  }
  await clearTopicPolicies(app, channel, topic);
  return { complete: true, deleted };
}

function newestDeletable(
  app: App,
  admin: UserRecord,
  channel: ChannelRecord,
  topic: string,
  fullHistory: boolean,
  limit = TOPIC_DELETE_BATCH,
): MessageRecord[] {
  const store = app.store.messages;
  // Re-read each time: sends and deletes may have landed between batches.
  const ids = store.topic(channel.id, topic);
  const out: MessageRecord[] = [];
  for (let i = ids.length - 1; i >= 0 && out.length < limit; i--) {
    const m = store.get(ids.at(i));
    if (m && (fullHistory || store.rowFlags(m, admin.id) !== null)) out.push(m);
  }
  return out;
}

async function clearTopicPolicies(app: App, channel: ChannelRecord, topic: string): Promise<void> {
  const key = topicKey(topic);
  const store = app.store.messages;
  const remaining = store.topic(channel.id, topic);
  const stale = [...app.store.users.all()].filter((u) =>
    u.user_topics?.some((t) => t.stream_id === channel.id && topicKey(t.topic_name) === key),
  );
  const keep = (u: UserRecord) => {
    if (!remaining.length) return false;
    if (canReadChannelHistory(app, u, channel)) return true;
    for (let i = 0; i < remaining.length; i++) {
      const m = store.get(remaining.at(i));
      if (m && store.rowFlags(m, u.id) !== null) return true;
    }
    return false;
  };
  const clear = stale.filter((u) => !keep(u));
  if (!clear.length) return;
  await commit(app, (tx) => {
    for (const u of clear) {
      const row = u.user_topics!.find((t) => t.stream_id === channel.id && topicKey(t.topic_name) === key)!;
      setTopicPolicyIn(app, tx, u, channel.id, row.topic_name, VISIBILITY.INHERIT);
    }
  });
}
