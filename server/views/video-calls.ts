/**
 * Video-call links: `POST /calls/videocall/create` for the organization's provider,
 * and BigBlueButton's own paths as Zulip clients call them.
 */
import { nanoid } from 'nanoid';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { bbbConfig, bbbJoin, bbbJoinLink, bbbNotConfigured, hearthCallUrl, jitsiLink, PROVIDER, readJoinLink } from '../lib/realm/video-calls.js';
import { requireUser } from '../lib/people/require.js';
import { normaliseTopic } from '../lib/messages/addressee.js';
import { userByIdFor } from '../lib/people/lookup.js';
import { doCreateCallRoom } from '../actions/hearth-calls.js';
import type { CallRoomRecord, UserRecord } from '../store/records.js';
import { baseUrl } from './common.js';
import { LIMITS } from '../version.js';

/** Zulip's default Realm.video_chat_provider: Jitsi Meet. */
const providerOf = (req: ApiRequest) => req.app.store.realm.data.realm!.settings.video_chat_provider ?? PROVIDER.JITSI_MEET;

/** POST /calls/videocall/create (`room_name` required): a call link from the provider an administrator configured. */
export async function createVideoCall(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const roomName = req.params.require('room_name', t.string);
  const voiceOnly = req.params.get('voice_only', t.bool, false);
  const settings = req.app.store.realm.data.realm!.settings;
  switch (providerOf(req)) {
    case PROVIDER.JITSI_MEET:
      return { url: jitsiLink(settings, roomName) };
    case PROVIDER.BIG_BLUE_BUTTON: {
      const config = bbbConfig(settings);
      if (!config) throw bbbNotConfigured();
      return { url: bbbJoinLink(config, user, roomName, voiceOnly) };
    }
    case PROVIDER.HEARTH: {
      const room = await doCreateCallRoom(req.app, {
        room_id: nanoid(),
        conversation: callConversation(req, user),
        is_video: !voiceOnly,
        creator_id: user.id,
        created: req.app.clock.now(),
      });
      return { url: hearthCallUrl(baseUrl(req), room.room_id) };
    }
    case PROVIDER.NONE:
      throw errors.badRequest('Video calls are disabled in this organization: an administrator must choose a call provider.');
    default:
      throw errors.badRequest('The organization\'s video call provider is not available on this server.');
  }
}

/**
 * The conversation a Hearth call belongs to (its readers may join): `stream_id` and `topic`, or
 * `user_ids` (a direct conversation's other people; the creator is added).
 */
function callConversation(req: ApiRequest, user: UserRecord): CallRoomRecord['conversation'] {
  const streamId = req.params.get('stream_id', t.int);
  const topic = req.params.get('topic', t.string);
  const userIds = req.params.get('user_ids', t.json(v.list(v.int, { max: 100 })));
  if (streamId !== undefined) {
    if (userIds !== undefined) throw errors.confusing('stream_id', 'user_ids');
    if (topic === undefined) throw errors.missing('topic');
    if (!req.app.channels.canAccess(user.id, streamId)) throw errors.badRequest('Invalid channel ID');
    if (topic.length > LIMITS.max_topic_length) throw errors.badRequest(`Topic is longer than ${LIMITS.max_topic_length} characters.`);
    return { type: 'stream', stream_id: streamId, topic: normaliseTopic(topic) };
  }
  if (userIds === undefined) {
    throw errors.badRequest('A Hearth call belongs to a conversation: send stream_id and topic, or user_ids.');
  }
  const ids = new Set([user.id]);
  for (const id of userIds) {
    const other = userByIdFor(req.app, user, id);
    if (!other || !other.is_active) throw errors.badRequest(`Invalid user ID ${id}`);
    // Bots take no calls (a direct conversation with one is a call with nobody to ring).
    if (!other.is_bot) ids.add(other.id);
  }
  return { type: 'private', user_ids: [...ids].sort((a, b) => a - b) };
}

/** GET /calls/bigbluebutton/create (`meeting_name`, `voice_only`): Zulip's signed join link. */
export function createBigBlueButtonCall(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const meetingName = req.params.require('meeting_name', t.string);
  const voiceOnly = req.params.get('voice_only', t.bool, false);
  const config = bbbConfig(req.app.store.realm.data.realm!.settings);
  if (!config) throw bbbNotConfigured();
  return { url: bbbJoinLink(config, user, meetingName, voiceOnly) };
}

/**
 * GET /calls/bigbluebutton/join?bigbluebutton=...: checks the link's signature, creates the
 * meeting on the BigBlueButton server and redirects there (moderator: the call's creator).
 */
export async function joinBigBlueButtonCall(req: ApiRequest): Promise<void> {
  const user = requireUser(req);
  const config = bbbConfig(req.app.store.realm.data.realm!.settings);
  if (!config) throw bbbNotConfigured();
  const meeting = readJoinLink(config, req.params.require('bigbluebutton', t.string));
  if (!meeting) throw errors.badRequest('Invalid signature.');
  const url = await bbbJoin(config, meeting, user);
  req.koa.set('Cache-Control', 'no-store');
  req.koa.redirect(url);
}
