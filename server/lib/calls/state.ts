/**
 * Who is in Hearth's calls, held by the App (`app.calls`; the rules are in rooms.ts, the timer in
 * actions/hearth-call-sweeper.ts). Apart from rooms.ts so context.ts can name it without a cycle.
 */
import type { SavedCallParticipant } from '../../store/call-records.js';

/** One page in a call: what a graceful stop saves of it (store/call-records.ts), and when it was last heard from. */
export interface LiveParticipant extends Omit<SavedCallParticipant, 'room_id'> {
  /** Last heartbeat (or any call from the page), ms since the epoch. */
  last_seen: number;
  /** The current minute's window (its start) and what was sent in it. */
  window_start: number;
  signals: number;
  ops: number;
}

/** A direct conversation's call ringing its other people until one answers, all decline, or it is missed. */
export interface Ringing {
  caller_id: number;
  caller_client_id: string;
  url: string;
  /** Those still rung. */
  rung: Set<number>;
  started: number;
}

export interface LiveRoom {
  room_id: string;
  /** In the order they joined. */
  participants: Map<string, LiveParticipant>;
  ringing: Ringing | null;
}

/** The App's calls: live rooms by ID and the sweeper's timer (actions/hearth-call-sweeper.ts). */
export interface HearthCalls {
  rooms: Map<string, LiveRoom>;
  timer: NodeJS.Timeout | null;
  /** When empty rooms were last looked at for dropping. */
  lastPrune: number;
  /** People in one room with video, and voice only (a mesh: each pair its own connection); tests lower them. */
  limits: { video: number; voice: number };
}

/** A room's people at most: with video, and voice only (rooms.ts CALL_LIMITS names them too). */
export const DEFAULT_ROOM_LIMITS = { video: 6, voice: 16 } as const;

export const newHearthCalls = (): HearthCalls => ({ rooms: new Map(), timer: null, lastPrune: 0, limits: { ...DEFAULT_ROOM_LIMITS } });
