/** POST /user_topics and the legacy PATCH /users/me/subscriptions/muted_topics (Zulip's user_topics.py). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doSetTopicPolicy } from '../actions/user-topics.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { channelById, channelByName, hasContentAccess } from '../lib/channels/access.js';
import { normaliseTopic } from '../lib/messages/addressee.js';
import { topicPolicy, VISIBILITY } from '../lib/topics/visibility.js';
import type { UserRecord } from '../store/records.js';
import { requireUser } from '../lib/people/require.js';

function readableChannel(req: ApiRequest, user: UserRecord, channel: ReturnType<typeof channelById>) {
  if (!channel || !hasContentAccess(req.app, user, channel)) throw errors.badRequest('Invalid channel ID');
  return channel;
}

export async function setUserTopic(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const channel = readableChannel(req, user, channelById(app, params.require('stream_id', t.int)));
  const topic = normaliseTopic(params.require('topic', t.string));
  const policy = params.require('visibility_policy', t.int);
  if (!(Object.values(VISIBILITY) as number[]).includes(policy)) throw errors.badRequest('Invalid visibility_policy');
  if (topicPolicy(user, channel.id, topic) === policy && policy === VISIBILITY.INHERIT) return {};
  await doSetTopicPolicy(app, user, channel.id, topic, policy);
  return {};
}

export async function legacyMuteTopic(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const streamId = params.get('stream_id', t.int);
  const streamName = params.get('stream', t.string);
  const channel = readableChannel(req, user, streamId !== undefined ? channelById(app, streamId) : streamName !== undefined ? channelByName(app, streamName) : undefined);
  const topic = normaliseTopic(params.require('topic', t.string));
  const op = params.require('op', t.string);
  // Since Zulip 7 (feature level 169) muting a muted topic, or unmuting one that is not, succeeds and changes nothing.
  const muted = topicPolicy(user, channel.id, topic) === VISIBILITY.MUTED;
  if (op === 'add') {
    if (!muted) await doSetTopicPolicy(app, user, channel.id, topic, VISIBILITY.MUTED);
  } else if (op === 'remove') {
    if (muted) await doSetTopicPolicy(app, user, channel.id, topic, VISIBILITY.INHERIT);
  } else throw errors.badRequest(`Invalid op '${op}'`);
  return {};
}
