/** Rooms of Hearth's own calls (`call_rooms.json`; server/lib/calls/, issue 32). */

/** A call room: made by `POST /calls/videocall/create` on the Hearth provider, so its link works after a restart. */
export interface CallRoomRecord {
  /** nanoid-like, 21 characters of [A-Za-z0-9_-]: unguessable. */
  room_id: string;
  /** The conversation whose readers may join: a channel topic, or a direct conversation's user IDs (the creator's included, ascending). */
  conversation: { type: 'stream'; stream_id: number; topic: string } | { type: 'private'; user_ids: number[] };
  is_video: boolean;
  creator_id: number;
  /** When it was made (ms since the epoch): an empty room older than 30 days is dropped. */
  created: number;
}

/** A participant as a graceful stop left them, put back at the next start (their pages keep heartbeating). */
export interface SavedCallParticipant {
  room_id: string;
  client_id: string;
  user_id: number;
  queue_id: string;
  audio: boolean;
  video: boolean;
  screen: boolean;
}

export interface CallRoomsDoc {
  rooms: CallRoomRecord[];
  /** Only between a graceful stop and the next start: who was in a call. */
  live?: SavedCallParticipant[];
}
