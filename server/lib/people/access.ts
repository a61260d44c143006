/**
 * Finding the target of a users endpoint the way Zulip's access_user_by_id /
 * access_user_by_email do, with their errors, and Zulip's full-name rules.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { UserRecord } from '../../store/records.js';
import { userByEmailFor } from './lookup.js';
import { canAccessUser, isAdmin, isOwner } from './people.js';
import { systemBot } from './system-bots.js';

export interface AccessOptions {
  allowDeactivated?: boolean;
  allowBots?: boolean;
  /** The requester must administer the target (administrators; a bot's owner). */
  forAdmin: boolean;
}

function check(app: App, requester: UserRecord, target: UserRecord, o: AccessOptions): UserRecord {
  // Someone the requester may not access is as unknown as nobody (Zulip says "Insufficient
  // permission", which tells a restricted guest that the ID or address is someone's), and
  // before anything else about them: "User is deactivated" told a hidden ID from an unused one.
  if (!o.forAdmin && !canAccessUser(app, requester, target)) throw errors.badRequest('No such user');
  if (target.is_bot && !o.allowBots) throw errors.badRequest('No such user');
  if (!target.is_active && !o.allowDeactivated) throw errors.badRequest('User is deactivated');
  if (!o.forAdmin) return target;
  if (!isAdmin(requester) && target.bot_owner_id !== requester.id) throw errors.badRequest('Insufficient permission');
  return target;
}

export function accessUserById(app: App, requester: UserRecord, id: number, o: AccessOptions): UserRecord {
  const target = app.store.users.get(id);
  if (!target) throw errors.badRequest('No such user');
  return check(app, requester, target, o);
}

/**
 * By email: the API address `user{id}@{fake domain}` names a user by ID; a real
 * address finds the user only when the requester may see it (lookup.ts).
 */
export function accessUserByEmail(app: App, requester: UserRecord, email: string, o: AccessOptions): UserRecord {
  const target = userByEmailFor(app, requester, email);
  if (!target || systemBot(app, target.id)) throw errors.badRequest('No such user');
  return check(app, requester, target, o);
}

/** A path segment that is a user ID or an email address. */
export function accessUserByPath(app: App, requester: UserRecord, raw: string, o: AccessOptions): UserRecord {
  if (/^\d{1,15}$/.test(raw)) return accessUserById(app, requester, Number(raw), o);
  if (!raw.includes('@')) throw errors.badRequest('No such user');
  return accessUserByEmail(app, requester, raw, o);
}

/** Human owners who are active (Zulip's check_last_owner counts these). */
export const activeHumanOwners = (app: App): UserRecord[] =>
  app.store.users.all().filter((u) => u.is_active && !u.is_bot && isOwner(u));

export const isLastOwner = (app: App, u: UserRecord): boolean =>
  isOwner(u) && !u.is_bot && activeHumanOwners(app).length === 1;
