import { hashPassword, newApiKey } from '../auth/secrets.js';
import { unixSeconds } from '../clock.js';
import type { App } from '../context.js';
import { errors } from '../errors.js';
import { ensureSystemGroups, roleGroupIds } from '../lib/groups.js';
import { formatUser } from '../lib/people.js';
import { DEFAULT_REALM_SETTINGS, type Role, type UserRecord } from '../store/records.js';
import { commit } from './commit.js';

export interface NewUser {
  email: string;
  fullName: string;
  password: string | null;
  role: Role;
}

/** Fields of a fresh human account; the password is hashed before the commit starts. */
async function userFields(app: App, u: NewUser): Promise<Omit<UserRecord, 'id'>> {
  return {
    email: u.email,
    full_name: u.fullName,
    role: u.role,
    is_active: true,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    api_key: newApiKey(),
    password_hash: u.password === null ? null : await hashPassword(u.password),
    date_joined: new Date(app.clock.now()).toISOString(),
    timezone: '',
    avatar_version: 1,
    is_imported_stub: false,
  };
}

/** Creates a user and tells every client (`realm_user` add). */
export async function doCreateUser(app: App, u: NewUser): Promise<UserRecord> {
  const fields = await userFields(app, u);
  // The view checked the address before the hash; a concurrent request may have taken it since.
  if (app.store.users.byEmailAddress(u.email)) throw errors.badRequest(`Email '${u.email}' already in use`);
  return commit(app, (tx) => {
    const user = app.store.users.add(fields);
    tx.touch(app.store.users.collection);
    for (const viewer of app.store.users.all()) {
      if (!viewer.is_active) continue;
      tx.emit({ type: 'realm_user', op: 'add', person: formatUser(app, viewer, user) }, [viewer.id]);
    }
    // The new account joins its role's system groups (and role:fullmembers for members), as Zulip announces.
    const everyone = app.store.users.all().filter((u) => u.is_active).map((u) => u.id);
    for (const groupId of roleGroupIds(app, user.role)) {
      tx.emit({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [user.id] }, everyone);
    }
    return user;
  });
}

/** Creates the organization and its owner (role 100): `hearth init` and the setup wizard. */
export async function doCreateRealm(app: App, realmName: string, owner: Omit<NewUser, 'role'>): Promise<UserRecord> {
  const fields = await userFields(app, { ...owner, role: 100 });
  return commit(app, (tx) => {
    app.store.realm.data.realm = {
      id: 1,
      name: realmName,
      description: '',
      date_created: unixSeconds(app.clock),
      settings: { ...DEFAULT_REALM_SETTINGS },
    };
    tx.touch(app.store.realm);
    ensureSystemGroups(app, tx);
    const user = app.store.users.add(fields);
    tx.touch(app.store.users.collection);
    return user;
  });
}
