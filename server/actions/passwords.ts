import { hashPassword } from '../auth/secrets.js';
import type { App } from '../context.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';
import { endSessionsOf } from './sessions.js';

/**
 * Sets a user's password (scrypt, as every stored password) and ends their browser
 * sessions, except `keepSession` (the session that made the change, when it is theirs).
 * No event: passwords are never sent to clients.
 */
export async function doSetPassword(app: App, user: UserRecord, password: string, keepSession: string | null = null): Promise<void> {
  const hash = await hashPassword(password);
  await commit(app, (tx) => {
    user.password_hash = hash;
    tx.touch(app.store.users.collection);
    endSessionsOf(app, tx, new Set([user.id]), keepSession);
  });
}
