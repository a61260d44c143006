/**
 * Administrative changes to a user: role (with its system-group and channel
 * access consequences), full name, email, custom profile data.
 */
import type { App } from '../context.js';
import { emitChannelAccessDiff, snapshotChannelAccess } from './channel-access-diff.js';
import { roleGroupIds } from '../lib/groups/groups.js';
import { activeUsers, canSeeEmail } from '../lib/people/people.js';
import { profileFieldEventValue } from '../lib/people/profile-field-values.js';
import type { ProfileFieldRecord, Role, UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { emitUserUpdate } from './users.js';
import { emitUserAccessDiff, snapshotUserAccess } from './users-access.js';
import { emitBotUpdate } from './bot-events.js';

/**
 * Zulip's do_change_user_role: `realm_user` update with `role` to everyone who
 * may access the user, `user_group` remove_members/add_members for the system
 * groups the user leaves and joins, and `stream` create/delete for channels the
 * user starts or stops seeing.
 */
export function changeRole(app: App, tx: Transaction, target: UserRecord, role: Role): void {
  if (target.role === role) return;
  const snapshot = snapshotChannelAccess(app, [target.id]);
  const access = snapshotUserAccess(app, [target.id]);
  const before = roleGroupIds(app, target.role);
  target.role = role;
  emitUserAccessDiff(app, tx, access);
  const after = roleGroupIds(app, role);
  tx.touch(app.store.users.collection);
  emitUserUpdate(app, tx, target, { role });
  // A deactivated user is in no group: their role changes no membership anyone sees.
  const everyone = target.is_active ? activeUsers(app).map((u) => u.id) : [];
  for (const id of before.filter((g) => !after.includes(g))) {
    tx.emit({ type: 'user_group', op: 'remove_members', group_id: id, user_ids: [target.id] }, everyone);
  }
  for (const id of after.filter((g) => !before.includes(g))) {
    tx.emit({ type: 'user_group', op: 'add_members', group_id: id, user_ids: [target.id] }, everyone);
  }
  emitChannelAccessDiff(app, tx, snapshot);
}

export function changeFullName(app: App, tx: Transaction, target: UserRecord, name: string): void {
  if (target.full_name === name) return;
  target.full_name = name;
  tx.touch(app.store.users.collection);
  emitUserUpdate(app, tx, target, { full_name: name });
  // Zulip's do_change_full_name: a bot's administrators also hear it as realm_bot update.
  if (target.is_bot) emitBotUpdate(app, tx, target, { full_name: name });
}

/**
 * A new (real) email address. Viewers who may see it hear `delivery_email` and
 * `new_email` (their API address for the user changes); others keep the
 * `user{id}@` address and hear nothing.
 */
export function changeEmail(app: App, tx: Transaction, target: UserRecord, email: string): void {
  if (target.email === email) return;
  const old = target.email;
  target.email = email;
  app.store.users.reindexEmail(target, old);
  tx.touch(app.store.users.collection);
  for (const viewer of activeUsers(app)) {
    if (!canSeeEmail(app, viewer, target)) continue;
    tx.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: email } }, [viewer.id]);
    tx.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, new_email: email } }, [viewer.id]);
  }
}

export type StoredValue = { value: string; rendered_value?: string } | null;

/** Sets or clears profile values; one `realm_user` update per changed field. */
export function changeProfileData(
  app: App,
  tx: Transaction,
  target: UserRecord,
  changes: { field: ProfileFieldRecord; stored: StoredValue }[],
): void {
  for (const { field, stored } of changes) {
    const key = String(field.id);
    const current = target.profile_data?.[key] ?? null;
    if (JSON.stringify(current) === JSON.stringify(stored)) continue;
    if (stored) (target.profile_data ??= {})[key] = stored;
    else if (target.profile_data) delete target.profile_data[key];
    tx.touch(app.store.users.collection);
    emitUserUpdate(app, tx, target, { custom_profile_field: profileFieldEventValue(field, stored) });
  }
}

export interface UserChanges {
  fullName?: string;
  role?: Role;
  email?: string;
  profile?: { field: ProfileFieldRecord; stored: StoredValue }[];
}

/** PATCH /users/{id}: every validated change in one commit. */
export async function doUpdateUser(app: App, target: UserRecord, ch: UserChanges): Promise<void> {
  await commit(app, (tx) => {
    if (ch.role !== undefined) changeRole(app, tx, target, ch.role);
    if (ch.fullName !== undefined) changeFullName(app, tx, target, ch.fullName);
    if (ch.profile) changeProfileData(app, tx, target, ch.profile);
    if (ch.email !== undefined) changeEmail(app, tx, target, ch.email);
  });
}

/** PATCH/DELETE /users/me/profile_data. */
export async function doUpdateProfileData(
  app: App,
  target: UserRecord,
  changes: { field: ProfileFieldRecord; stored: StoredValue }[],
): Promise<void> {
  await commit(app, (tx) => changeProfileData(app, tx, target, changes));
}
