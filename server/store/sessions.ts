import type { Collection } from './collection.js';

/**
 * One browser session (`POST /json/login`). The cookie's token itself is never
 * stored: `id` is the SHA-256 (hex) of it, so the file does not hold credentials.
 */
export interface SessionRecord {
  /** SHA-256 hex of the cookie's token. */
  id: string;
  user_id: number;
  /** What the page sends back as `X-CSRFToken` on unsafe requests. */
  csrf_token: string;
  /** Unix seconds. */
  created: number;
  /** Unix seconds; updated at most once an hour. */
  last_used: number;
}

export interface SessionsDoc {
  sessions: SessionRecord[];
}

const isSession = (s: SessionRecord): boolean =>
  typeof s === 'object' &&
  s !== null &&
  typeof s.id === 'string' &&
  Number.isInteger(s.user_id) &&
  typeof s.csrf_token === 'string' &&
  Number.isInteger(s.created) &&
  Number.isInteger(s.last_used);

export const isSessionsDoc = (d: SessionsDoc): boolean => Array.isArray(d.sessions) && d.sessions.every(isSession);

/** The sessions collection with an in-memory index by ID (rebuilt at load). */
export class SessionTable {
  private readonly byId = new Map<string, SessionRecord>();

  constructor(readonly collection: Collection<SessionsDoc>) {
    for (const s of collection.data.sessions) this.byId.set(s.id, s);
  }

  get(id: string): SessionRecord | undefined {
    return this.byId.get(id);
  }

  all(): readonly SessionRecord[] {
    return this.collection.data.sessions;
  }

  /** Adds a session in memory; the caller saves the collection. */
  add(session: SessionRecord): void {
    this.collection.data.sessions.push(session);
    this.byId.set(session.id, session);
  }

  /** Removes the sessions `drop` picks, in memory; says how many went (the caller saves when any did). */
  removeWhere(drop: (s: SessionRecord) => boolean): number {
    const doc = this.collection.data;
    const kept: SessionRecord[] = [];
    for (const s of doc.sessions) {
      if (drop(s)) this.byId.delete(s.id);
      else kept.push(s);
    }
    const removed = doc.sessions.length - kept.length;
    if (removed) doc.sessions = kept;
    return removed;
  }
}
