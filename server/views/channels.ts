import { doArchiveChannel, doSetDefaultChannel } from '../actions/channels.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { formatChannel } from '../lib/channels/format.js';
import { streamsForUser } from '../lib/channels/queries.js';
import {
  canSeeSubscribers,
  channelById,
  channelByName,
  hasContentAccess,
  hasMetadataAccess,
  isSubscribed,
  subscriberIds,
} from '../lib/channels/access.js';
import { accessUserById } from '../lib/people/access.js';
import { isGuest } from '../lib/people/people.js';
import type { ChannelRecord } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { channelToAdminister } from './channel-update.js';
import { pathInt } from './common.js';
import { requireAdmin } from '../lib/people/require.js';
import { requireUser } from '../lib/people/require.js';

/**
 * A channel the user may know (metadata access) or, with `content`, read;
 * anything else is "Invalid channel ID", exactly like a channel that does not
 * exist (Zulip's access_stream_by_id).
 */
function accessChannel(
  req: ApiRequest,
  user: UserRecord,
  id: number,
  opts: { content: boolean; activeOnly: boolean },
): ChannelRecord {
  const c = channelById(req.app, id);
  const ok =
    c !== undefined &&
    !(opts.activeOnly && c.is_archived) &&
    (opts.content ? hasContentAccess(req.app, user, c) : hasMetadataAccess(req.app, user, c));
  if (!ok) throw errors.badRequest('Invalid channel ID');
  return c!;
}

/** GET /streams with Zulip's include options (defaults: public and subscribed, archived excluded). */
export function listStreams(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const p = req.params;
  const includeAllActive = p.get('include_all_active', t.bool, false);
  const streams = streamsForUser(req.app, user, {
    includePublic: p.get('include_public', t.bool, true),
    includeWebPublic: p.get('include_web_public', t.bool, false),
    includeSubscribed: p.get('include_subscribed', t.bool, true),
    excludeArchived: p.get('exclude_archived', t.bool, true),
    includeAll: p.get('include_all', t.bool, false) || includeAllActive,
    includeDefault: p.get('include_default', t.bool, false),
    includeOwnerSubscribed: p.get('include_owner_subscribed', t.bool, false),
    includeCanAccessContent: p.get('include_can_access_content', t.bool, false),
  });
  return { streams };
}

/** GET /streams/{stream_id}: needs only metadata access; archived channels are included. */
export function getStream(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const c = accessChannel(req, user, pathInt(req, 'stream_id'), { content: false, activeOnly: false });
  return { stream: formatChannel(req.app, c) };
}

/** GET /get_stream_id?stream=NAME: needs content access; unknown and inaccessible names answer alike. */
export function getStreamId(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const name = req.params.require('stream', t.string);
  const c = channelByName(req.app, name);
  if (!c || c.is_archived || !hasContentAccess(req.app, user, c)) {
    throw errors.badRequest(`Invalid channel name '${name}'`);
  }
  return { stream_id: c.id };
}

/**
 * GET /users/{user_id}/subscriptions/{stream_id} (Zulip's get_subscription_backend):
 * whether a user (not a bot; active) is subscribed to a channel the requester may know.
 */
export function getSubscriptionStatus(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  // Bots are targets too (Zulip 12, feature level 458).
  const target = accessUserById(req.app, user, pathInt(req, 'user_id'), { forAdmin: false, allowBots: true });
  const c = accessChannel(req, user, pathInt(req, 'stream_id'), { content: false, activeOnly: false });
  return { is_subscribed: isSubscribed(req.app, target.id, c.id) };
}

/**
 * GET /users/{user_id}/channels (Zulip 12, feature level 440): the channels the target is
 * subscribed to, of those whose subscribers the requester may see; bots are targets too.
 */
export function getUserChannels(req: ApiRequest): ViewResult {
  const { app } = req;
  const user = requireUser(req);
  const target = accessUserById(app, user, pathInt(req, 'user_id'), { forAdmin: false, allowBots: true, allowDeactivated: true });
  const ids = app.store.subscriptions.data.subscriptions
    .filter((s) => s.user_id === target.id && s.active)
    .map((s) => channelById(app, s.stream_id))
    .filter((c) => c !== undefined && canSeeSubscribers(app, user, c))
    .map((c) => c!.id)
    .sort((a, b) => a - b);
  return { subscribed_channel_ids: ids };
}

/**
 * GET /streams/{stream_id}/email_address: Hearth has no incoming-email gateway,
 * so, like a Zulip server without EMAIL_GATEWAY_PATTERN, the address is empty.
 * Needs content access, as Zulip's access_stream_by_id.
 */
export function getStreamEmailAddress(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  accessChannel(req, user, pathInt(req, 'stream_id'), { content: true, activeOnly: true });
  req.params.get('sender_id', t.int);
  return { email: '' };
}

/** GET /streams/{stream_id}/members: active subscribers, for those who may see them. */
export function getSubscribers(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const c = accessChannel(req, user, pathInt(req, 'stream_id'), { content: false, activeOnly: false });
  return { subscribers: subscriberIds(req.app, c.id) };
}

/** DELETE /streams/{stream_id}: archive (history is kept; subscriptions stay). */
export async function archiveStream(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const c = channelToAdminister(req, user);
  if (c.is_archived) throw errors.badRequest('Channel is already deactivated');
  await doArchiveChannel(req.app, c);
  return {};
}

/**
 * GET /default_streams (a Hearth addition; Zulip only has them in register):
 * the default channels as channel objects, sorted by name. Guests see none.
 */
export function listDefaultStreams(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  if (isGuest(user)) return { default_streams: [] };
  const list = req.app.store.channels.data.channels
    .filter((c) => c.is_default_stream)
    .map((c) => formatChannel(req.app, c))
    .sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
  return { default_streams: list };
}

/** POST /default_streams: administrators; private channels cannot be defaults. */
export async function addDefaultStream(req: ApiRequest): Promise<ViewResult> {
  const user = requireAdmin(req);
  const c = accessChannel(req, user, req.params.require('stream_id', t.int), { content: true, activeOnly: true });
  if (c.invite_only) throw errors.badRequest('Private channels cannot be made default.');
  await doSetDefaultChannel(req.app, c, true);
  return {};
}

/** DELETE /default_streams: administrators. */
export async function removeDefaultStream(req: ApiRequest): Promise<ViewResult> {
  const user = requireAdmin(req);
  const c = accessChannel(req, user, req.params.require('stream_id', t.int), { content: false, activeOnly: true });
  await doSetDefaultChannel(req.app, c, false);
  return {};
}
