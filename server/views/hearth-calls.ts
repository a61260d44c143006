/**
 * Hearth's own calls (issue 32, server/API.md "Calls"): the call page at /calls/hearth/{room_id}
 * and its signalling under /calls/hearth/{room_id}/… (join, signal, state, heartbeat, leave,
 * decline, and GET for who is in it). Access is by the room's conversation: a channel topic's
 * readers (guests per their channels), or a direct conversation's people; never a deactivated user.
 */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { requireUser } from '../lib/people/require.js';
import type { HearthCallSignalKind } from '../protocol/events/calls.js';
import { CALL_LIMITS, canJoinRoom, CLIENT_ID, maxParticipants, participantForApi, ROOM_ID, roomForApi, roomRecord } from '../lib/calls/rooms.js';
import { hearthCallUrl } from '../lib/realm/video-calls.js';
import type { CallRoomRecord, UserRecord } from '../store/records.js';
import { callDecline, callHeartbeat, callJoin, callLeave, callSignal, callState } from '../actions/hearth-calls.js';
import { baseUrl } from './common.js';
import { servePage } from './web-client.js';

const clientIdParam: ParamType<string> = {
  read(raw, name) {
    if (!CLIENT_ID.test(raw)) throw errors.badRequest(`Invalid ${name}: 8 to 64 of A-Z, a-z, 0-9, _ and -`);
    return raw;
  },
};

const KINDS: readonly HearthCallSignalKind[] = ['offer', 'answer', 'candidate'];
const kindParam: ParamType<HearthCallSignalKind> = {
  read(raw) {
    const kind = KINDS.find((k) => k === raw);
    if (!kind) throw errors.badRequest('Invalid kind: offer, answer or candidate');
    return kind;
  },
};

/** The room named by the path, which the caller may join: else 404 "No such call." or "You cannot join this call." */
function accessRoom(req: ApiRequest): { user: UserRecord; room: CallRoomRecord } {
  const user = requireUser(req);
  const id = req.path.room_id ?? '';
  const room = ROOM_ID.test(id) ? roomRecord(req.app, id) : undefined;
  if (!room) throw errors.notFound('No such call.');
  if (!canJoinRoom(req.app, user, room)) throw errors.badRequest('You cannot join this call.');
  return { user, room };
}

const participantsOf = (req: ApiRequest, roomId: string) =>
  [...(req.app.calls.rooms.get(roomId)?.participants.values() ?? [])].map((p) => participantForApi(req.app, p));

const iceServers = (req: ApiRequest) => req.app.store.realm.data.realm!.settings.hearth_call_ice_servers ?? [];

/** GET /calls/hearth/{room_id}: the chat page, which opens the call (an ID that cannot be a room's: 404). */
export async function hearthCallPage(req: ApiRequest): Promise<void> {
  if (!ROOM_ID.test(req.path.room_id ?? '')) throw errors.notFound('No such call.');
  await servePage(req, 'chat');
}

/** GET /calls/hearth/{room_id}: the room and who is in it (a message's Join button). */
export function getHearthCall(req: ApiRequest): ViewResult {
  const { room } = accessRoom(req);
  return { room: roomForApi(room), participants: participantsOf(req, room.room_id), max_participants: maxParticipants(req.app, room) };
}

/** POST /calls/hearth/{room_id}/join {client_id, queue_id, audio, video}. */
export function joinHearthCall(req: ApiRequest): ViewResult {
  const { user, room } = accessRoom(req);
  const clientId = req.params.require('client_id', clientIdParam);
  const queueId = req.params.require('queue_id', t.string);
  const audio = req.params.get('audio', t.bool, true);
  const video = req.params.get('video', t.bool, room.is_video);
  const queue = req.app.events.get(queueId);
  if (!queue || queue.userId !== user.id) throw errors.badQueue(queueId);
  const others = callJoin(req.app, user, room, { clientId, queueId, audio, video, url: hearthCallUrl(baseUrl(req), room.room_id) });
  return {
    room: roomForApi(room),
    participants: others.map((p) => participantForApi(req.app, p)),
    ice_servers: iceServers(req),
    max_participants: maxParticipants(req.app, room),
  };
}

/** POST /calls/hearth/{room_id}/signal {client_id, to, kind, data}: to that participant's queue only. */
export function signalHearthCall(req: ApiRequest): ViewResult {
  const { user, room } = accessRoom(req);
  const clientId = req.params.require('client_id', clientIdParam);
  const to = req.params.require('to', clientIdParam);
  const kind = req.params.require('kind', kindParam);
  const data = req.params.require('data', t.string);
  const max = kind === 'candidate' ? CALL_LIMITS.candidateBytes : CALL_LIMITS.sdpBytes;
  if (Buffer.byteLength(data, 'utf8') > max) throw errors.badRequest(`A signal of kind ${kind} may be at most ${max} bytes.`);
  callSignal(req.app, user, room.room_id, { clientId, to, kind, data });
  return {};
}

/** POST /calls/hearth/{room_id}/state {client_id, audio, video, screen}. */
export function stateHearthCall(req: ApiRequest): ViewResult {
  const { user, room } = accessRoom(req);
  const clientId = req.params.require('client_id', clientIdParam);
  const audio = req.params.require('audio', t.bool);
  const video = req.params.require('video', t.bool);
  const screen = req.params.get('screen', t.bool, false);
  callState(req.app, user, room.room_id, { clientId, audio, video, screen });
  return {};
}

/** POST /calls/hearth/{room_id}/heartbeat {client_id}: every 3 s; 10 s without one and the page has left. */
export function heartbeatHearthCall(req: ApiRequest): ViewResult {
  const { user, room } = accessRoom(req);
  callHeartbeat(req.app, user, room.room_id, req.params.require('client_id', clientIdParam));
  return {};
}

/** POST /calls/hearth/{room_id}/leave {client_id}. */
export function leaveHearthCall(req: ApiRequest): ViewResult {
  const { user, room } = accessRoom(req);
  callLeave(req.app, user, room, req.params.require('client_id', clientIdParam));
  return {};
}

/** POST /calls/hearth/{room_id}/decline: a rung person declines (nothing when they are not rung). */
export function declineHearthCall(req: ApiRequest): ViewResult {
  const { user, room } = accessRoom(req);
  callDecline(req.app, user, room.room_id);
  return {};
}
