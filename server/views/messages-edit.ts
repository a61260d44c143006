/** PATCH /messages/{message_id} (Zulip's update_message_backend). */
import { createHash } from 'node:crypto';
import type { ApiRequest, ViewResult } from '../context.js';
import { doEditMessage, type PropagateMode } from '../actions/message-edit.js';
import { errors, HearthError } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { canReadMessage } from '../lib/messages/access.js';
import { checkChannelSend, normaliseTopic } from '../lib/messages/addressee.js';
import { formatAttachment } from '../lib/uploads/attachments.js';
import {
  checkCanChangeChannel,
  checkCanChangeTopic,
  checkChangeAllTimeLimit,
  checkCanEditContent,
  isResolveChange,
  RESOLVED_PREFIX,
} from '../lib/messages/edit-permissions.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../lib/messages/format.js';
import { checkGroupMentions } from '../lib/messages/mention-permissions.js';
import { renderForStorage } from '../lib/messages/render.js';
import { channelById } from '../lib/channels/access.js';
import { topicKey } from '../store/messages.js';
import type { MessageRecord } from '../store/message-records.js';
import { requireUser } from '../lib/people/require.js';
import { accessMessage } from './messages.js';
import { topicParam } from './messages-send.js';
import { normaliseContent } from '../lib/messages/content.js';

const propagateParam: ParamType<PropagateMode> = {
  read(raw) {
    if (raw === 'change_one' || raw === 'change_later' || raw === 'change_all') return raw;
    throw errors.badRequest('Invalid propagate_mode');
  },
};

export async function updateMessage(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const target = accessMessage(req, user);
  const rawContent = params.get('content', t.string);
  const rawTopic = topicParam(req);
  const streamId = params.get('stream_id', t.int);
  const propagateMode = params.get('propagate_mode', propagateParam, 'change_one');
  const prevContentSha256 = params.get('prev_content_sha256', t.string);
  const notifyOld = params.get('send_notification_to_old_thread', t.bool, false);
  const notifyNew = params.get('send_notification_to_new_thread', t.bool, true);

  if (rawContent === undefined && rawTopic === undefined && streamId === undefined) throw errors.badRequest('Nothing to change');
  if (rawTopic === undefined && streamId === undefined && propagateMode !== 'change_one') {
    throw errors.badRequest('Invalid propagate_mode without topic edit');
  }
  if (target.stream_id === null && rawTopic !== undefined) throw errors.badRequest('Direct messages cannot have topics.');
  if (target.stream_id === null && streamId !== undefined) throw errors.badRequest('Direct messages cannot be moved to channels.');
  if (rawTopic !== undefined && [RESOLVED_PREFIX.trim(), `${RESOLVED_PREFIX}${EMPTY_TOPIC_DISPLAY_NAME}`].includes(rawTopic.trim())) {
    throw errors.badRequest('General chat cannot be marked as resolved');
  }
  if (rawContent !== undefined && streamId !== undefined && streamId !== target.stream_id) {
    throw errors.badRequest('Cannot change message content while changing channel');
  }
  // Zulip's validate_message_edit_payload: a poll or to-do list keeps the text it was made from.
  if (rawContent !== undefined && target.submessages?.length) throw errors.badRequest('Widgets cannot be edited.');
  // Zulip 11 (feature level 379): a client's guard against overwriting an edit it has not seen.
  if (prevContentSha256 !== undefined && prevContentSha256 !== createHash('sha256').update(target.content).digest('hex')) {
    throw new HearthError("'prev_content_sha256' value does not match the expected value.", { code: 'EXPECTATION_MISMATCH' });
  }

  let content: string | undefined;
  if (rawContent !== undefined) {
    checkCanEditContent(app, user, target);
    // Zulip: emptying a message leaves "(deleted)".
    content = rawContent.trim() === '' ? '(deleted)' : normaliseContent(rawContent);
    checkGroupMentions(app, user, renderForStorage(app, target.sender_id, content).mentionedGroupIds);
    if (content === target.content) content = undefined;
  }

  let topic: string | undefined;
  if (rawTopic !== undefined) {
    topic = normaliseTopic(rawTopic);
    if (topic === target.topic) topic = undefined;
    else checkCanChangeTopic(app, user, target, topic, streamId !== undefined ? channelById(app, streamId) : undefined);
  }

  let channel = streamId !== undefined && streamId !== target.stream_id ? channelById(app, streamId) : undefined;
  if (streamId !== undefined && streamId !== target.stream_id) {
    if (!channel) throw errors.badRequest('Invalid channel ID');
    checkCanChangeChannel(app, user, target);
  }
  if (target.stream_id !== null && (topic !== undefined || channel)) {
    const destination = channel ?? channelById(app, target.stream_id)!;
    const destinationTopic = topic ?? target.topic;
    // Resolving a topic is not posting: only real moves follow the destination's send rules.
    if (channel || !isResolveChange(target.topic, destinationTopic)) checkChannelSend(app, user, destination, destinationTopic);
  } else {
    channel = undefined;
  }

  if (content === undefined && topic === undefined && !channel) return { detached_uploads: [] };
  const messages = topic !== undefined || channel ? messagesToMove(req, target, propagateMode) : [];
  // Zulip checks whole-topic moves only (change_later starts at a message that passed its own check); resolving is exempt.
  if (propagateMode === 'change_all' && messages.length && !(topic !== undefined && isResolveChange(target.topic, topic))) {
    checkChangeAllTimeLimit(app, user, messages, { topic: topic !== undefined, channel: channel !== undefined });
  }
  const detached = await doEditMessage(app, user, { target, content, topic, channel, propagateMode, messages, notifyOld, notifyNew });
  // Zulip 10 (feature level 285): the editor's files this edit left unlinked, so the client can offer to delete them.
  return { detached_uploads: detached.map((a) => formatAttachment(app, a)) };
}

/** The messages of the target's topic that a topic change or move applies to, that the editor can read. */
function messagesToMove(req: ApiRequest, target: MessageRecord, mode: PropagateMode): MessageRecord[] {
  if (mode === 'change_one') return [target];
  const { app } = req;
  const user = req.user!;
  const store = app.store.messages;
  const key = topicKey(target.topic);
  const out: MessageRecord[] = [];
  const cache = new Map<number, boolean>();
  for (const id of store.topic(target.stream_id!, target.topic)) {
    if (mode === 'change_later' && id < target.id) continue;
    const m = store.get(id);
    if (m && topicKey(m.topic) === key && canReadMessage(app, user, m, cache)) out.push(m);
  }
  return out;
}
