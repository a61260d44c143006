/**
 * Video-call links: `POST /calls/videocall/create` for the organization's provider,
 * and BigBlueButton's own paths as Zulip clients call them.
 */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { bbbConfig, bbbJoin, bbbJoinLink, bbbNotConfigured, jitsiLink, PROVIDER, readJoinLink } from '../lib/realm/video-calls.js';
import { requireUser } from '../lib/people/require.js';

/** Zulip's default Realm.video_chat_provider: Jitsi Meet. */
const providerOf = (req: ApiRequest) => req.app.store.realm.data.realm!.settings.video_chat_provider ?? PROVIDER.JITSI_MEET;

/** POST /calls/videocall/create (`room_name` required): a call link from the provider an administrator configured. */
export function createVideoCall(req: ApiRequest): ViewResult {
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
    case PROVIDER.NONE:
      throw errors.badRequest('Video calls are disabled in this organization: an administrator must choose a call provider.');
    default:
      throw errors.badRequest('The organization\'s video call provider is not available on this server.');
  }
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
