/** POST /streams/{stream_id}/delete_topic (Zulip's delete_in_topic). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doDeleteTopic } from '../actions/topic-delete.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { channelById, hasContentAccess } from '../lib/channels/access.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../lib/messages/format.js';
import { pathInt } from './common.js';
import { requireAdmin } from '../lib/people/require.js';

export async function deleteTopic(req: ApiRequest): Promise<ViewResult> {
  const { app } = req;
  const admin = requireAdmin(req);
  const channel = channelById(app, pathInt(req, 'stream_id'));
  if (!channel || !hasContentAccess(app, admin, channel)) throw errors.badRequest('Invalid channel ID');
  const raw = req.params.require('topic_name', t.string);
  // Zulip's maybe_rename_general_chat_to_empty_topic.
  const topic = raw.trim() === EMPTY_TOPIC_DISPLAY_NAME ? '' : raw.trim();
  const { complete } = await doDeleteTopic(app, admin, channel, topic);
  return { complete };
}
