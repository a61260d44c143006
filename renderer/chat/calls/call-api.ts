/**
 * Hearth's own calls, the web app's side of the signalling API (server/API.md, "Calls"; the shared
 * design in issue 32): join, signal, state, heartbeat, leave, decline and a room's state, through the
 * one API client (chat/store/api.ts). The events' shapes are the
 * protocol's (server/protocol/events/calls.ts); the answers' are here.
 */
import { get, post } from '../store/api.js';
import type {
  HearthCallConversation as CallConversation,
  HearthCallEvent as CallEvent,
  HearthCallParticipant as CallParticipant,
  HearthCallSignalKind as SignalKind,
} from '../../../server/protocol/events/calls.js';

export type { CallConversation, CallEvent, CallParticipant, SignalKind };

export interface CallRoom {
  room_id: string;
  is_video: boolean;
  conversation: CallConversation;
}

export interface JoinAnswer {
  room: CallRoom;
  participants: CallParticipant[];
  ice_servers: RTCIceServer[];
  max_participants: number;
}

const base = (room: string) => `/calls/hearth/${encodeURIComponent(room)}`;

export const joinRoom = (room: string, p: { client_id: string; queue_id: string; audio: boolean; video: boolean }) =>
  post<JoinAnswer>(`${base(room)}/join`, p);

export const sendSignal = (room: string, p: { client_id: string; to: string; kind: SignalKind; data: string }) =>
  post(`${base(room)}/signal`, p);

export const sendState = (room: string, p: { client_id: string; audio: boolean; video: boolean; screen: boolean }) =>
  post(`${base(room)}/state`, p);

export const sendHeartbeat = (room: string, clientId: string) => post(`${base(room)}/heartbeat`, { client_id: clientId });

export const leaveRoom = (room: string, clientId: string) => post(`${base(room)}/leave`, { client_id: clientId });

export const declineCall = (room: string) => post(`${base(room)}/decline`, {});

export const roomState = (room: string) => get<{ room: CallRoom; participants: CallParticipant[] }>(base(room));

/** The room a call link names (`…/calls/hearth/<room_id>`), or null. */
export function roomOfUrl(url: string): string | null {
  const m = /\/calls\/hearth\/([A-Za-z0-9_-]{10,64})\/?$/.exec(url.split(/[?#]/)[0] ?? '');
  return m ? m[1]! : null;
}
