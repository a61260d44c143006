/**
 * Who is signed in, as a signal for the views: the web app's one sign-in path (`../session.ts`:
 * a session cookie the page cannot read, plus the CSRF token in memory only).
 */
import { signal } from '@preact/signals';
import * as shared from '../../session.js';

export type { Session } from '../../session.js';

/** undefined: not known yet (asking the server); null: signed out. */
export const session = signal<shared.Session | null | undefined>(undefined);

/** Asks the server whether this browser is signed in. */
export async function checkSession(): Promise<void> {
  session.value = await shared.resume();
}

export async function signIn(username: string, password: string): Promise<void> {
  session.value = await shared.signIn(username, password);
}

export async function signOut(): Promise<void> {
  try {
    await shared.signOut();
  } finally {
    shared.forget();
    session.value = null;
  }
}
