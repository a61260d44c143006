/**
 * Hearth's own calls (issue 32, server/API.md "Calls"): the signalling of a room on the Hearth
 * call provider. `join`, `leave`, `signal` and `state` go only to the queues the room's
 * participants named when they joined; `ring` and `ring_end` to the rung people's queues (and the
 * caller's); `room` to everyone who can read the room's conversation.
 */

/** One person's page in a call (the page's own random `client_id`). */
export interface HearthCallParticipant {
  client_id: string;
  user_id: number;
  full_name: string;
  audio: boolean;
  video: boolean;
  screen: boolean;
}

/** The conversation a call room belongs to: a channel topic, or a direct conversation (every member, the creator too). */
export type HearthCallConversation = { type: 'stream'; stream_id: number; topic: string } | { type: 'private'; user_ids: number[] };

export type HearthCallSignalKind = 'offer' | 'answer' | 'candidate';

export type HearthCallRingEndReason = 'answered' | 'declined' | 'missed' | 'cancelled';

export type HearthCallEvent =
  | { type: 'hearth_call'; op: 'join'; room_id: string; participant: HearthCallParticipant }
  | { type: 'hearth_call'; op: 'leave'; room_id: string; client_id: string }
  | {
      type: 'hearth_call';
      op: 'signal';
      room_id: string;
      from: string;
      from_user_id: number;
      kind: HearthCallSignalKind;
      data: string;
    }
  | { type: 'hearth_call'; op: 'state'; room_id: string; client_id: string; audio: boolean; video: boolean; screen: boolean }
  | { type: 'hearth_call'; op: 'ring'; room_id: string; url: string; is_video: boolean; caller_id: number }
  | { type: 'hearth_call'; op: 'ring_end'; room_id: string; reason: HearthCallRingEndReason }
  | { type: 'hearth_call'; op: 'room'; room_id: string; participants: number[] };
