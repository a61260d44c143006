import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { canReadChannelHistory } from '../lib/messages/access.js';
import { displayTopic } from '../lib/messages/format.js';
import { channelById, hasContentAccess } from '../lib/channels/access.js';
import { topicKey } from '../store/messages.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';

/**
 * GET /users/me/{stream_id}/topics (Zulip's get_topic_history_for_stream):
 * every topic with its newest message ID, newest first; with protected
 * history only the messages the user received count.
 */
export function getTopics(req: ApiRequest): ViewResult {
  const { app } = req;
  const user = requireUser(req);
  const channel = channelById(app, pathInt(req, 'stream_id'));
  if (!channel || !hasContentAccess(app, user, channel)) throw errors.badRequest('Invalid channel ID');
  const allowEmpty = req.params.get('allow_empty_topic_name', t.bool, false);
  const store = app.store.messages;
  const topics: { name: string; max_id: number }[] = [];
  if (canReadChannelHistory(app, user, channel)) {
    for (const { maxId } of store.topicsOf(channel.id)) {
      topics.push({ name: store.get(maxId)!.topic, max_id: maxId });
    }
  } else {
    const seen = new Map<string, { name: string; max_id: number }>();
    const ids = store.channel(channel.id);
    for (let i = ids.length - 1; i >= 0; i--) {
      const m = store.get(ids.at(i))!;
      const key = topicKey(m.topic);
      if (seen.has(key) || store.rowFlags(m, user.id) === null) continue;
      seen.set(key, { name: m.topic, max_id: m.id });
    }
    topics.push(...seen.values());
  }
  topics.sort((a, b) => b.max_id - a.max_id);
  return { topics: topics.map((x) => ({ name: displayTopic(x.name, allowEmpty), max_id: x.max_id })) };
}
