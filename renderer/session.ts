/**
 * The web app's one sign-in path, for the chat (`chat/session.ts` keeps it in a signal) and the
 * admin pages: `POST /json/login` sets the session cookie (HttpOnly: the page cannot read it) and
 * answers the CSRF token, kept in memory only (`csrf` in api.ts); a reloaded page asks
 * `GET /json/session` again. Nothing is stored by the page: no API key, no web storage.
 */
import { ApiError, call, csrf } from './api.js';

/** Who the session signs in, and the CSRF token for changes (from /json/login or /json/session). */
export interface Session {
  user_id: number;
  email: string;
  csrf_token: string;
}

/** The signed-in session (null: signed out, or not known yet). Memory only. */
export const current: { session: Session | null } = { session: null };

function adopt(s: Session): Session {
  const session = { user_id: Number(s.user_id), email: String(s.email), csrf_token: String(s.csrf_token) };
  csrf.token = session.csrf_token;
  current.session = session;
  return session;
}

/** Forgets the session in this page (the server's ended, or is being ended). */
export function forget(): void {
  csrf.token = '';
  current.session = null;
}

/** Whether this browser is signed in (`GET /json/session`): adopts the session, or forgets it on a 401. */
export async function resume(): Promise<Session | null> {
  try {
    return adopt(await call<Session>('GET', '/session'));
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) throw err;
    forget();
    return null;
  }
}

/** `POST /json/login`: the server sets the session cookie (replacing this browser's previous one). */
export async function signIn(username: string, password: string): Promise<Session> {
  return adopt(await call<Session>('POST', '/login', { username, password }));
}

/**
 * `POST /json/logout`: the session ends on the server and the cookie is cleared. Already ended
 * (401): done. Replaced in another tab (CSRF refused): that session is this browser's now, so it
 * is the one signed out. Any other failure throws, still signed in.
 */
export async function signOut(): Promise<void> {
  const logout = () => call('POST', '/logout');
  try {
    await logout();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'CSRF_FAILED' && (await resume())) await logout();
    else if (err.status !== 401) throw err;
  }
  forget();
}
