/**
 * The page's calls (issue 32): the call it is in or about to join (one at a time, kept while the
 * person moves around the chat), an incoming ring, and who is in the rooms of call links seen in
 * messages. Fed by the 'hearth_call' events of the page's event queue (apply-event.ts) and by the
 * address: `/calls/hearth/<room_id>` opens that room's lobby. Loaded with the chat; the lobby, the
 * call view and the WebRTC code are a chunk of their own (CallView.tsx, join.ts), loaded when a call
 * is opened or a ring accepted.
 */
import { signal } from '@preact/signals';
import type { CallEvent } from './call-api.js';
import type { CallSession } from './call-session.js';
import { roomOfUrl } from './call-api.js';
import { userName } from '../store/state.js';

/** The room whose lobby (camera and microphone choice) is open, not joined yet. */
export const lobby = signal<string | null>(null);
/** The call this page is in (joining, in, or just refused). */
export const activeCall = signal<CallSession | null>(null);
/** The call view drawn over the chat ('full') or as a small box while the person reads on ('mini'). */
export const callSize = signal<'full' | 'mini'>('full');
/** A direct call ringing this person. */
export const ringing = signal<Extract<CallEvent, { op: 'ring' }> | null>(null);
/** Who is in the rooms of call links in messages, by room ID ('room' events and GET answers). */
export const roomPeople = signal<ReadonlyMap<string, readonly number[]>>(new Map());
/** A short notice for the page's toast ("Missed call from …"), numbered so the same words show again. */
export const callNotice = signal<{ text: string; seq: number } | null>(null);

export const notice = (text: string) => (callNotice.value = { text, seq: (callNotice.value?.seq ?? 0) + 1 });

/** This page's own ID in calls: random, made once per page (a reload is a new participant). */
export const page = { clientId: randomId() };

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(36).padStart(2, '0')).join('').slice(0, 24);
}

export const CALL_PATH = /^\/calls\/hearth\/([A-Za-z0-9_-]{10,64})\/?$/;

/** The call the page's address names (`/calls/hearth/<room_id>`), opened at its lobby. */
export function openFromAddress(): void {
  const m = CALL_PATH.exec(location.pathname);
  if (m && activeCall.value?.roomId !== m[1]) openLobby(m[1]!);
}

/** Opens a room's lobby, with the room's address in the address bar (the hash stays). */
export function openLobby(roomId: string): void {
  if (activeCall.value && activeCall.value.phase.value !== 'left' && activeCall.value.phase.value !== 'refused') {
    if (activeCall.value.roomId === roomId) callSize.value = 'full';
    else notice('Leave the call you are in first.');
    return;
  }
  activeCall.value = null;
  lobby.value = roomId;
  showAddress(roomId);
}

/** The call drawn in full, its address in the address bar (the chat's hash stays). */
export function showAddress(roomId: string): void {
  callSize.value = 'full';
  const path = `/calls/hearth/${roomId}`;
  if (location.pathname !== path) history.pushState(history.state, '', `${path}${location.hash}`);
}

/** The address a call link in a message points at, when it is one of this server's calls. */
export function callRoomOfLink(a: HTMLAnchorElement): string | null {
  return a.origin === location.origin ? roomOfUrl(a.pathname) : null;
}

/** Leaves the call (or closes the lobby) and puts the chat's own address back. */
export function closeCall(): void {
  activeCall.value?.leave();
  activeCall.value = null;
  lobby.value = null;
  if (CALL_PATH.test(location.pathname)) history.pushState(history.state, '', `/${location.hash}`);
}

/** A 'hearth_call' event from the page's event queue. */
export function onCallEvent(e: CallEvent): void {
  if (e.op === 'ring') {
    if (activeCall.value?.roomId !== e.room_id) ringing.value = e;
    return;
  }
  if (e.op === 'ring_end') {
    const rang = ringing.value;
    if (rang?.room_id === e.room_id) {
      ringing.value = null;
      if (e.reason === 'missed') notice(`Missed call from ${userName(rang.caller_id)}.`);
    }
  }
  if (e.op === 'room') {
    roomPeople.value = new Map(roomPeople.value).set(e.room_id, e.participants);
    return;
  }
  activeCall.value?.onEvent(e);
}

/** A room's people as a GET answered them (the Join button on a call link). */
export function noteRoomPeople(roomId: string, userIds: number[]): void {
  roomPeople.value = new Map(roomPeople.value).set(roomId, userIds);
}
