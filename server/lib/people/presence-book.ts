/**
 * A server's presence rows as data (`app.presence`). What reads and changes them is
 * server/lib/people/presence.ts and server/actions/presence.ts; this file knows nothing of
 * the App, so context.ts can hold it without an import cycle.
 */

export interface PresenceEntry {
  active_timestamp: number;
  idle_timestamp: number;
  /** Zulip's last_update_id of this row. */
  update_id: number;
}

/** A server's presence rows (`app.presence`), by user ID. */
export interface PresenceBook {
  rows: Map<number, PresenceEntry>;
  lastUpdateId: number;
}

export const newPresenceBook = (): PresenceBook => ({ rows: new Map(), lastUpdateId: 0 });
