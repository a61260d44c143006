/**
 * Signing in and out: a session cookie the page cannot read, plus the CSRF token the
 * server hands back (kept in memory only; a reload asks the server for it again).
 */
import { signal } from '@preact/signals';
import { ApiError, call, csrf } from './api.js';

export interface Session {
  user_id: number;
  email: string;
  csrf_token: string;
}

/** undefined: not known yet (asking the server); null: signed out. */
export const session = signal<Session | null | undefined>(undefined);

function adopt(s: Session): Session {
  csrf.token = s.csrf_token;
  session.value = s;
  return s;
}

/** Asks the server whether this browser is signed in. */
export async function checkSession(): Promise<void> {
  try {
    adopt(await call<Session & Record<string, unknown>>('GET', '/session'));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) session.value = null;
    else throw err;
  }
}

export async function signIn(username: string, password: string): Promise<void> {
  adopt(await call<Session & Record<string, unknown>>('POST', '/login', { username, password }));
}

export async function signOut(): Promise<void> {
  try {
    await call('POST', '/logout');
  } finally {
    csrf.token = '';
    session.value = null;
  }
}
