/**
 * PATCH /settings (Zulip's json_change_settings): each changed setting stored
 * and announced to the user's clients as a `user_settings` update (since Zulip 12 there is no
 * legacy event for older clients: server/lib/people/settings.ts).
 */
import type { App } from '../context.js';
import type { UserSettingsUpdateEvent } from '../events/types.js';
import { hashPassword } from '../auth/secrets.js';
import type { UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { changeFullName } from './users-update.js';
import { endSessionsOf } from './sessions.js';

export interface SettingsChange {
  settings: Record<string, unknown>;
  fullName?: string;
  newPassword?: string;
  /** With a new password: the browser session that made the change, which stays (every other one ends). */
  keepSession?: string | null;
}

export async function doChangeSettings(app: App, user: UserRecord, ch: SettingsChange): Promise<void> {
  const passwordHash = ch.newPassword !== undefined ? await hashPassword(ch.newPassword) : undefined;
  await commit(app, (tx) => {
    if (ch.fullName !== undefined) changeFullName(app, tx, user, ch.fullName);
    if (passwordHash !== undefined) {
      user.password_hash = passwordHash;
      tx.touch(app.store.users.collection);
      endSessionsOf(app, tx, new Set([user.id]), ch.keepSession ?? null);
    }
    for (const [name, value] of Object.entries(ch.settings)) {
      if (name === 'timezone') {
        if (user.timezone === value) continue;
        user.timezone = value as string;
        // Zulip: everyone who may see the user learns the new timezone.
        tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, timezone: value } }, null);
      } else {
        const stored = (user.user_settings ??= {});
        if (stored[name] === value) continue;
        stored[name] = value;
        if (name === 'enable_drafts_synchronization' && value === false) dropDrafts(app, tx, user.id);
      }
      tx.touch(app.store.users.collection);
      const event: UserSettingsUpdateEvent = { type: 'user_settings', op: 'update', property: name, value };
      if (name === 'default_language') event.language_name = languageName(value as string);
      tx.emit(event, [user.id]);
    }
  });
}

/**
 * Zulip: turning drafts synchronization off deletes the user's stored drafts, without
 * `drafts` remove events (their clients keep their local copies; nothing was deleted there).
 */
function dropDrafts(app: App, tx: Transaction, userId: number): void {
  const doc = app.store.drafts.data;
  const kept = doc.drafts.filter((d) => d.user_id !== userId);
  if (kept.length === doc.drafts.length) return;
  doc.drafts = kept;
  tx.touch(app.store.drafts);
}

function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
