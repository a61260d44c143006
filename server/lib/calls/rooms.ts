/**
 * Hearth's own calls (issue 32): the rooms' rules and who is in them. A room's record is durable
 * (`call_rooms.json`, made by POST /calls/videocall/create); who is in it lives in memory on the
 * App (`app.calls`), each participant a page with its own random `client_id` and the event queue
 * it named at join, which is where its signalling goes. The media never touches the server.
 */
import type { App } from '../../context.js';
import type { HearthCallConversation, HearthCallParticipant } from '../../protocol/events/calls.js';
import type { CallRoomRecord, UserRecord } from '../../store/records.js';
import { channelById, hasContentAccess, subscriberIds } from '../channels/access.js';
import { DEFAULT_ROOM_LIMITS, type LiveParticipant, type LiveRoom } from './state.js';

export type { HearthCalls, LiveParticipant, LiveRoom, Ringing } from './state.js';
export { newHearthCalls } from './state.js';

/** The mesh's limits and the signalling's bounds (server/API.md "Calls"). */
export const CALL_LIMITS = {
  /** People in a room with video, and in a voice-only one: each pair has its own connection (the defaults of app.calls.limits). */
  ...DEFAULT_ROOM_LIMITS,
  /** An offer's or answer's SDP, and one ICE candidate, in UTF-8 bytes. */
  sdpBytes: 64 * 1024,
  candidateBytes: 2 * 1024,
  /** Signals a participant may send a minute; heartbeats and state changes a minute. */
  signalsPerMinute: 400,
  opsPerMinute: 120,
  /** An empty room older than this is dropped from call_rooms.json. */
  roomMaxAgeMs: 30 * 24 * 3600_000,
} as const;

export const ROOM_ID = /^[A-Za-z0-9_-]{21}$/;
export const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The room's limit: 6 with video, 16 voice only (`app.calls.limits`, which a test may lower). */
export const maxParticipants = (app: App, room: CallRoomRecord): number => (room.is_video ? app.calls.limits.video : app.calls.limits.voice);

export const roomRecord = (app: App, roomId: string): CallRoomRecord | undefined =>
  app.store.callRooms.data.rooms.find((r) => r.room_id === roomId);

/** Whether the user may join (and see) the room: an active user who can read its conversation. */
export function canJoinRoom(app: App, user: UserRecord, room: CallRoomRecord): boolean {
  if (!user.is_active) return false;
  const c = room.conversation;
  if (c.type === 'private') return c.user_ids.includes(user.id);
  const channel = channelById(app, c.stream_id);
  return channel !== undefined && !channel.is_archived && hasContentAccess(app, user, channel);
}

/** Everyone who can read the room's conversation: who hears the `room` op. */
export function roomReaders(app: App, room: CallRoomRecord): number[] {
  const c = room.conversation;
  if (c.type === 'private') return c.user_ids.filter((id) => app.store.users.get(id)?.is_active === true);
  const channel = channelById(app, c.stream_id);
  if (!channel) return [];
  const subscribed = new Set(subscriberIds(app, channel.id));
  return app.store.users
    .all()
    .filter((u) => u.is_active && hasContentAccess(app, u, channel, subscribed.has(u.id)))
    .map((u) => u.id);
}

export const conversationForApi = (room: CallRoomRecord): HearthCallConversation =>
  room.conversation.type === 'stream' ? { ...room.conversation } : { type: 'private', user_ids: [...room.conversation.user_ids] };

export const roomForApi = (room: CallRoomRecord) => ({
  room_id: room.room_id,
  is_video: room.is_video,
  conversation: conversationForApi(room),
});

export function participantForApi(app: App, p: LiveParticipant): HearthCallParticipant {
  return {
    client_id: p.client_id,
    user_id: p.user_id,
    full_name: app.store.users.get(p.user_id)?.full_name ?? '',
    audio: p.audio,
    video: p.video,
    screen: p.screen,
  };
}

/** The distinct users in a live room, in the order they joined. */
export const usersIn = (live: LiveRoom | undefined): number[] => [...new Set([...(live?.participants.values() ?? [])].map((p) => p.user_id))];

/**
 * Counts one signal (or other op) of a participant in its minute; answers the seconds to wait
 * when over the limit, else 0.
 */
export function takeAllowance(p: LiveParticipant, now: number, kind: 'signals' | 'ops'): number {
  if (now - p.window_start >= 60_000) {
    p.window_start = now;
    p.signals = 0;
    p.ops = 0;
  }
  const limit = kind === 'signals' ? CALL_LIMITS.signalsPerMinute : CALL_LIMITS.opsPerMinute;
  if (p[kind] >= limit) return Math.max(1, Math.ceil((p.window_start + 60_000 - now) / 1000));
  p[kind]++;
  return 0;
}
