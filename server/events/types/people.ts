/**
 * The people area's events as the server's actions emit them, where they differ from the wire
 * forms (server/protocol/events/people.ts): a presence change, which the presence filter gives
 * each queue in one of the two wire forms.
 */

/** A presence row as kept in memory (lib/people/presence.ts). */
export interface PresenceRow {
  active_timestamp: number;
  idle_timestamp: number;
  update_id: number;
}

export interface PresenceChangeEvent {
  type: 'presence';
  user_id: number;
  row: PresenceRow;
}
