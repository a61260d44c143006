/**
 * Browser sessions (server/API.md: Browser sessions): the cookie, its token and the
 * rules for when a stored session may be used.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SessionRecord } from '../store/sessions.js';
import type { UserRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

export const SESSION_COOKIE = 'hearth_session';
/** The cookie's Max-Age, and how long a session may be used after it was made. */
export const SESSION_LIFETIME_SECONDS = 365 * 24 * 3600;
/** `last_used` is written at most this often per session. */
export const LAST_USED_RESOLUTION_SECONDS = 3600;

/** 32 random bytes, base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newSessionToken = (): string => randomBytes(32).toString('base64url');
export const newCsrfToken = (): string => randomBytes(32).toString('base64url');

/** What sessions.json stores in place of the token. */
export const sessionIdOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The session cookie's token from a Cookie header (the first one named so), or null. */
export function sessionTokenFrom(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    return part.slice(eq + 1).trim();
  }
  return null;
}

/** A stored session's ID for a cookie value, or null when the value cannot be a token of ours. */
export const sessionIdForToken = (token: string): string | null => (TOKEN.test(token) ? sessionIdOf(token) : null);

const attributes = (secure: boolean) => `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

/** The Set-Cookie value that starts a session (Secure only over HTTPS: a LAN server is often plain http). */
export const sessionCookie = (token: string, secure: boolean): string =>
  `${SESSION_COOKIE}=${token}; Max-Age=${SESSION_LIFETIME_SECONDS}; ${attributes(secure)}`;

/** The Set-Cookie value that makes the browser forget the session. */
export const clearedSessionCookie = (secure: boolean): string => `${SESSION_COOKIE}=; Max-Age=0; ${attributes(secure)}`;

/** Whether a stored session may still sign its user in (not expired, user active). */
export function sessionUser(store: Store, session: SessionRecord, now: number): UserRecord | null {
  if (now - session.created >= SESSION_LIFETIME_SECONDS) return null;
  const user = store.users.get(session.user_id);
  return user && user.is_active && !user.is_bot ? user : null;
}

/** The session that authenticated a request (set by the auth step), or null. */
export function requestSession(state: { session?: SessionRecord | null }): SessionRecord | null {
  return state.session ?? null;
}
