/**
 * Hearth's own calls (issue 32): making a room (durable, through commit) and the live signalling
 * (in memory on the App, `app.calls`: server/lib/calls/rooms.ts). Signalling events go only to
 * the queues the participants named when they joined; ringing to the rung people's queues; the
 * `room` op to everyone who can read the room's conversation. Nothing here waits on the disk
 * except making and dropping rooms.
 */
import type { App } from '../context.js';
import { errors } from '../errors.js';
import type { HearthCallEvent, HearthCallRingEndReason, HearthCallSignalKind } from '../protocol/events/calls.js';
import {
  maxParticipants,
  participantForApi,
  roomReaders,
  takeAllowance,
  usersIn,
  type LiveParticipant,
  type LiveRoom,
} from '../lib/calls/rooms.js';
import type { CallRoomRecord, UserRecord } from '../store/records.js';
import { commit } from './commit.js';

export const notInCall = () => errors.badRequest('You are not in this call.');

/** Keeps a new room's record (call_rooms.json) before its link is handed out. */
export async function doCreateCallRoom(app: App, room: CallRoomRecord): Promise<CallRoomRecord> {
  return commit(app, (tx) => {
    app.store.callRooms.data.rooms.push(room);
    tx.touch(app.store.callRooms);
    return room;
  });
}

/** Pushes a call event onto one queue (a page's, named at join), if it still exists and takes such events. */
function toQueue(app: App, queueId: string, event: HearthCallEvent): void {
  const q = app.events.get(queueId);
  if (q?.wants(event.type)) q.push(event);
}

/** Sends a call event to every queue of these users. */
function toUsers(app: App, userIds: Iterable<number>, event: HearthCallEvent): void {
  const ids = [...userIds];
  if (ids.length === 0) return;
  const ticket = app.events.begin();
  app.events.send(ticket, event, ids);
  app.events.close(ticket);
}

const toOthers = (app: App, live: LiveRoom, clientId: string, event: HearthCallEvent) => {
  for (const p of live.participants.values()) if (p.client_id !== clientId) toQueue(app, p.queue_id, event);
};

/** After who is in the room changed: the `room` op to its readers, when the set of people differs. */
function announceRoom(app: App, room: CallRoomRecord, before: number[], live: LiveRoom | undefined): void {
  const after = usersIn(live);
  if (before.length === after.length && before.every((id, i) => id === after[i])) return;
  toUsers(app, roomReaders(app, room), { type: 'hearth_call', op: 'room', room_id: room.room_id, participants: after });
}

function endRinging(app: App, live: LiveRoom, reason: HearthCallRingEndReason, toCaller: boolean): void {
  const ringing = live.ringing;
  if (!ringing) return;
  live.ringing = null;
  const event: HearthCallEvent = { type: 'hearth_call', op: 'ring_end', room_id: live.room_id, reason };
  toUsers(app, ringing.rung, event);
  const caller = live.participants.get(ringing.caller_client_id);
  if (toCaller && caller) toQueue(app, caller.queue_id, event);
}

export interface JoinRequest {
  clientId: string;
  queueId: string;
  audio: boolean;
  video: boolean;
  /** The room's link, for the ring. */
  url: string;
}

/**
 * Joins the room (or, for a `client_id` already in it, takes the page's new queue silently: a page
 * that re-registered keeps its peer connections). Answers the others already in the room.
 */
export function callJoin(app: App, user: UserRecord, room: CallRoomRecord, j: JoinRequest): LiveParticipant[] {
  const now = app.clock.now();
  let live = app.calls.rooms.get(room.room_id);
  const existing = live?.participants.get(j.clientId);
  if (existing) {
    if (existing.user_id !== user.id) throw errors.badRequest('This client_id is in use in this call.');
    Object.assign(existing, { queue_id: j.queueId, audio: j.audio, video: j.video, last_seen: now });
    return [...live!.participants.values()].filter((p) => p.client_id !== j.clientId);
  }
  if (live && live.participants.size >= maxParticipants(app, room)) throw errors.badRequest('This call is full.');
  const before = usersIn(live);
  if (!live) {
    live = { room_id: room.room_id, participants: new Map(), ringing: null };
    app.calls.rooms.set(room.room_id, live);
  }
  const others = [...live.participants.values()];
  const p: LiveParticipant = {
    client_id: j.clientId,
    user_id: user.id,
    queue_id: j.queueId,
    audio: j.audio,
    video: j.video,
    screen: false,
    last_seen: now,
    window_start: now,
    signals: 0,
    ops: 0,
  };
  live.participants.set(p.client_id, p);
  toOthers(app, live, p.client_id, { type: 'hearth_call', op: 'join', room_id: room.room_id, participant: participantForApi(app, p) });
  if (live.ringing?.rung.has(user.id)) endRinging(app, live, 'answered', false);
  else if (others.length === 0 && room.conversation.type === 'private') {
    // The first in a direct conversation's room is the caller: the others are rung.
    const rung = room.conversation.user_ids.filter((id) => id !== user.id && app.store.users.get(id)?.is_active === true);
    if (rung.length > 0) {
      live.ringing = { caller_id: user.id, caller_client_id: p.client_id, url: j.url, rung: new Set(rung), started: now };
      toUsers(app, rung, { type: 'hearth_call', op: 'ring', room_id: room.room_id, url: j.url, is_video: room.is_video, caller_id: user.id });
    }
  }
  announceRoom(app, room, before, live);
  return others;
}

/** The participant `clientId` of `user` in the room, or "You are not in this call." */
export function participantOf(app: App, user: UserRecord, roomId: string, clientId: string): { live: LiveRoom; p: LiveParticipant } {
  const live = app.calls.rooms.get(roomId);
  const p = live?.participants.get(clientId);
  if (!live || !p || p.user_id !== user.id) throw notInCall();
  p.last_seen = app.clock.now();
  return { live, p };
}

function spend(app: App, p: LiveParticipant, kind: 'signals' | 'ops'): void {
  const wait = takeAllowance(p, app.clock.now(), kind);
  if (wait > 0) throw errors.rateLimited(wait);
}

/** Passes an offer, answer or ICE candidate to one participant's queue only. */
export function callSignal(app: App, user: UserRecord, roomId: string, s: { clientId: string; to: string; kind: HearthCallSignalKind; data: string }): void {
  const { live, p } = participantOf(app, user, roomId, s.clientId);
  const target = live.participants.get(s.to);
  if (!target || target === p) throw errors.badRequest('No such participant.');
  spend(app, p, 'signals');
  toQueue(app, target.queue_id, { type: 'hearth_call', op: 'signal', room_id: roomId, from: p.client_id, from_user_id: p.user_id, kind: s.kind, data: s.data });
}

export function callState(app: App, user: UserRecord, roomId: string, s: { clientId: string; audio: boolean; video: boolean; screen: boolean }): void {
  const { live, p } = participantOf(app, user, roomId, s.clientId);
  spend(app, p, 'ops');
  Object.assign(p, { audio: s.audio, video: s.video, screen: s.screen });
  toOthers(app, live, p.client_id, { type: 'hearth_call', op: 'state', room_id: roomId, client_id: p.client_id, audio: p.audio, video: p.video, screen: p.screen });
}

export function callHeartbeat(app: App, user: UserRecord, roomId: string, clientId: string): void {
  const { p } = participantOf(app, user, roomId, clientId);
  spend(app, p, 'ops');
}

/** Takes a participant out (leaving, or silent past the heartbeat timeout); the room ends with its last one. */
export function removeParticipant(app: App, room: CallRoomRecord | undefined, live: LiveRoom, clientId: string): void {
  const p = live.participants.get(clientId);
  if (!p) return;
  const before = usersIn(live);
  live.participants.delete(clientId);
  toOthers(app, live, clientId, { type: 'hearth_call', op: 'leave', room_id: live.room_id, client_id: clientId });
  const ended = live.participants.size === 0;
  if (ended) {
    endRinging(app, live, 'cancelled', false);
    app.calls.rooms.delete(live.room_id);
  } else if (live.ringing?.caller_client_id === clientId) {
    // The caller's page left while the others were still rung: nobody is calling them any more.
    endRinging(app, live, 'cancelled', false);
  }
  if (room) announceRoom(app, room, before, ended ? undefined : live);
}

export function callLeave(app: App, user: UserRecord, room: CallRoomRecord, clientId: string): void {
  const { live } = participantOf(app, user, room.room_id, clientId);
  removeParticipant(app, room, live, clientId);
}

/** A rung person declines: their ringing stops (every page of theirs) and the caller hears it. */
export function callDecline(app: App, user: UserRecord, roomId: string): void {
  const live = app.calls.rooms.get(roomId);
  const ringing = live?.ringing;
  if (!live || !ringing || !ringing.rung.has(user.id)) return;
  ringing.rung.delete(user.id);
  const event: HearthCallEvent = { type: 'hearth_call', op: 'ring_end', room_id: roomId, reason: 'declined' };
  toUsers(app, [user.id], event);
  const caller = live.participants.get(ringing.caller_client_id);
  if (caller) toQueue(app, caller.queue_id, event);
  if (ringing.rung.size === 0) live.ringing = null;
}

/** Ringing unanswered past the timeout: `missed`, to the rung and the caller. */
export function endMissedRings(app: App, now: number): void {
  for (const live of app.calls.rooms.values()) {
    if (live.ringing && now - live.ringing.started >= app.config.callRingTimeoutMs) endRinging(app, live, 'missed', true);
  }
}
