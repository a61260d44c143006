/**
 * Browser sessions (POST /json/login, /json/logout; server/API.md: Browser sessions).
 * No events: sessions are never sent to clients.
 */
import { unixSeconds } from '../clock.js';
import type { App } from '../context.js';
import { newCsrfToken, newSessionToken, SESSION_LIFETIME_SECONDS, sessionIdOf } from '../auth/sessions.js';
import type { UserRecord } from '../store/records.js';
import type { SessionRecord } from '../store/sessions.js';
import { commit, type Transaction } from './commit.js';

/**
 * Starts a session for `user`: answers the cookie's token (stored only as its
 * SHA-256) and the record, or null when the account was deactivated or its
 * password changed since `passwordHash` was checked. `replacing` is the session
 * the browser's cookie named before, if any (the new cookie overwrites it, so it
 * goes). Expired sessions of anyone are dropped in the same write.
 */
export async function doCreateSession(
  app: App,
  user: UserRecord,
  passwordHash: string,
  replacing: string | null,
): Promise<{ token: string; session: SessionRecord } | null> {
  const token = newSessionToken();
  const now = unixSeconds(app.clock);
  const session: SessionRecord = { id: sessionIdOf(token), user_id: user.id, csrf_token: newCsrfToken(), created: now, last_used: now };
  const made = await commit(app, (tx) => {
    const current = app.store.users.get(user.id);
    if (!current?.is_active || current.password_hash !== passwordHash) return false;
    const { sessions } = app.store;
    sessions.removeWhere((s) => s.id === replacing || now - s.created >= SESSION_LIFETIME_SECONDS);
    sessions.add(session);
    tx.touch(sessions.collection);
    return true;
  });
  return made ? { token, session } : null;
}

/** Ends one session (logout, or a session found unusable). */
export async function doEndSession(app: App, id: string): Promise<void> {
  await commit(app, (tx) => {
    if (app.store.sessions.removeWhere((s) => s.id === id)) tx.touch(app.store.sessions.collection);
  });
}

/** Records that a session was used (callers do it at most once an hour per session). */
export async function doTouchSession(app: App, id: string): Promise<void> {
  const now = unixSeconds(app.clock);
  await commit(app, (tx) => {
    const session = app.store.sessions.get(id);
    if (!session || session.last_used >= now) return;
    session.last_used = now;
    tx.touch(app.store.sessions.collection);
  });
}

/**
 * Inside another action's transaction: ends every session of these users
 * (deactivation, a new password), except `keep` (the session that made the change).
 */
export function endSessionsOf(app: App, tx: Transaction, userIds: ReadonlySet<number>, keep: string | null = null): void {
  if (app.store.sessions.removeWhere((s) => userIds.has(s.user_id) && s.id !== keep)) tx.touch(app.store.sessions.collection);
}
