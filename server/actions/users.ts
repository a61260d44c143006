import { hashPassword, newApiKey } from '../auth/secrets.js';
import { unixSeconds } from '../clock.js';
import type { App } from '../context.js';
import { errors } from '../errors.js';
import type { ClientEvent } from '../events/queue.js';
import { roleGroupIds } from '../lib/groups/groups.js';
import { activeUsers, canAccessUser, formatUser, inaccessibleUser, usersWhoCanAccess } from '../lib/people/people.js';
import { checkEmailNotReserved } from '../lib/people/reserved.js';
import { DEFAULT_REALM_SETTINGS, type Role, type UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { allocateSystemBots } from './notification-bot.js';
import { ensureSystemGroups } from './user-groups.js';
import { PROVIDER } from '../lib/realm/video-calls.js';

export interface NewUser {
  email: string;
  fullName: string;
  password: string | null;
  role: Role;
  /** Created by an administrator through the API: `date_joined` moves to the first login. */
  viaApi?: boolean;
  /** Bots (the bots area): type and owner. */
  bot?: { type: number; ownerId: number | null };
}

/** Fields of a fresh account; the password is hashed before the commit starts. */
async function userFields(app: App, u: NewUser): Promise<Omit<UserRecord, 'id'>> {
  // Every way in (setup, the command line, invitations, administrators) ends here: a person never
  // holds a system bot's address or one at the organization's own domain (bots and stand-ins live there).
  if (u.bot === undefined) checkEmailNotReserved(app, u.email);
  const fields: Omit<UserRecord, 'id'> = {
    email: u.email,
    full_name: u.fullName,
    role: u.role,
    is_active: true,
    is_bot: u.bot !== undefined,
    bot_type: u.bot?.type ?? null,
    bot_owner_id: u.bot?.ownerId ?? null,
    api_key: newApiKey(),
    password_hash: u.password === null ? null : await hashPassword(u.password),
    date_joined: new Date(app.clock.now()).toISOString(),
    timezone: '',
    avatar_version: 1,
    is_imported_stub: false,
  };
  if (u.viaApi) fields.awaiting_first_login = true;
  return fields;
}

/** `realm_user` update about `target` to everyone who may access it. */
export function emitUserUpdate(app: App, tx: Transaction, target: UserRecord, person: Record<string, unknown>): void {
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, ...person } }, usersWhoCanAccess(app, target));
}

/**
 * `realm_user` add of `user`, shaped per viewer. Guests who may not access it get
 * Zulip's "Unknown user" placeholder, which the queue filter drops for clients
 * with `user_list_incomplete`.
 */
export function emitUserAdd(app: App, tx: Transaction, user: UserRecord): void {
  for (const viewer of activeUsers(app)) {
    const event: ClientEvent = canAccessUser(app, viewer, user)
      ? { type: 'realm_user', op: 'add', person: formatUser(app, viewer, user) }
      : { type: 'realm_user', op: 'add', person: inaccessibleUser(app, user.id), unknown_user: true };
    tx.emit(event, [viewer.id]);
  }
}

/** Creates a user (or bot) and tells every client (`realm_user` add, role groups' `add_members`). */
export async function doCreateUser(app: App, u: NewUser): Promise<UserRecord> {
  const fields = await userFields(app, u);
  // The view checked the address before the hash; a concurrent request may have taken it since.
  if (app.store.users.byEmailAddress(u.email)) throw errors.badRequest(`Email '${u.email}' already in use`);
  return commit(app, (tx) => {
    const user = app.store.users.add(fields);
    tx.touch(app.store.users.collection);
    emitUserAdd(app, tx, user);
    // The new account joins its role's system groups (and role:fullmembers for members), as Zulip announces.
    const everyone = activeUsers(app).map((x) => x.id);
    for (const groupId of roleGroupIds(app, user.role)) {
      tx.emit({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [user.id] }, everyone);
    }
    return user;
  });
}

/**
 * A user created through the API logs in for the first time: `date_joined`
 * becomes now (feature level 475) and clients hear it. Call it from a login
 * (password `fetch_api_key`, the setup wizard's sign-in); a no-op otherwise.
 */
export async function doRecordFirstLogin(app: App, user: UserRecord): Promise<void> {
  if (!user.awaiting_first_login && !user.is_imported_stub) return;
  await commit(app, (tx) => {
    const wasStub = user.is_imported_stub;
    delete user.awaiting_first_login;
    user.is_imported_stub = false;
    user.date_joined = new Date(app.clock.now()).toISOString();
    tx.touch(app.store.users.collection);
    for (const viewer of usersWhoCanAccess(app, user)) {
      const joined = formatUser(app, app.store.users.get(viewer)!, user).date_joined;
      tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, date_joined: joined } }, [viewer]);
    }
    if (wasStub) emitUserUpdate(app, tx, user, { is_imported_stub: false });
  });
}

/** Creates the organization and its owner (role 100): `hearth init` and the setup wizard. */
export async function doCreateRealm(app: App, realmName: string, owner: Omit<NewUser, 'role'>): Promise<UserRecord> {
  const fields = await userFields(app, { ...owner, role: 100 });
  // The founding owner runs this server: they hold Zulip's can_change_user_emails special permission.
  fields.can_change_user_emails = true;
  return commit(app, (tx) => {
    app.store.realm.data.realm = {
      id: 1,
      name: realmName,
      description: '',
      date_created: unixSeconds(app.clock),
      // A new organization calls on the LAN with Hearth's own calls (Jitsi and BigBlueButton stay choices).
      settings: { ...DEFAULT_REALM_SETTINGS, video_chat_provider: PROVIDER.HEARTH },
    };
    tx.touch(app.store.realm);
    ensureSystemGroups(app, tx);
    const user = app.store.users.add(fields);
    tx.touch(app.store.users.collection);
    // Zulip's cross-realm Notification Bot and Welcome Bot exist from the start (server/lib/people/system-bots.ts).
    allocateSystemBots(app, tx);
    return user;
  });
}

/**
 * Zulip's regenerate_api_key for a person: a new key, the old one refused from now on (a leaked
 * zuliprc or a lost phone); browser sessions stay signed in. Bots: doRegenerateBotApiKey.
 */
export async function doRegenerateApiKey(app: App, user: UserRecord): Promise<string> {
  return commit(app, (tx) => {
    user.api_key = newApiKey();
    tx.touch(app.store.users.collection);
    return user.api_key;
  });
}
