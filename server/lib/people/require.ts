/**
 * Who may call a view: the signed-in user, a person rather than a bot, an administrator, an owner
 * (Zulip's decorators require_member_or_admin, human_users_only, require_realm_admin,
 * require_realm_owner). Each returns the user or throws Zulip's error.
 */
import type { ApiRequest } from '../../context.js';
import { errors } from '../../errors.js';
import type { UserRecord } from '../../store/records.js';
import { isAdmin, isOwner } from './people.js';

/** The authenticated user (routes with `auth: 'required'` always have one). */
export function requireUser(req: ApiRequest): UserRecord {
  if (!req.user) throw errors.unauthorized();
  return req.user;
}

/** Zulip's human_users_only: the authenticated user, refused if a bot. */
export function requireHuman(req: ApiRequest): UserRecord {
  const user = requireUser(req);
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
  return user;
}

/** An organization administrator or owner. */
export function requireAdmin(req: ApiRequest): UserRecord {
  const user = requireUser(req);
  if (!isAdmin(user)) throw errors.adminRequired();
  return user;
}

/** An organization owner (what holds every account's secrets, such as a full backup, is theirs alone). */
export function requireOwner(req: ApiRequest): UserRecord {
  const user = requireAdmin(req);
  if (!isOwner(user)) throw errors.ownerRequired();
  return user;
}
