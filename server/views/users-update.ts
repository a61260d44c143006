/**
 * Administering users: PATCH /users/{user_id|email}, DELETE /users/{user_id},
 * POST /users/{user_id}/reactivate, and DELETE /users/me.
 */
import { doDeactivateUser, doReactivateUser } from '../actions/users-activation.js';
import { doUpdateUser, type UserChanges } from '../actions/users-update.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { isOwner, isValidEmail, ROLES } from '../lib/people/people.js';
import { accessUserById, accessUserByPath, isLastOwner } from '../lib/people/access.js';
import { checkFullName } from '../lib/people/display-name.js';
import { checkEmailNotReserved } from '../lib/people/reserved.js';
import { resolveProfileChanges } from '../lib/people/profile-field-values.js';
import { ROLE, type Role, type UserRecord } from '../store/records.js';
import { pathInt } from './common.js';
import { requireAdmin } from '../lib/people/require.js';
import { requireUser } from '../lib/people/require.js';

const profileDataItem = v.dict({
  id: v.int,
  value: (x: unknown, p: string) => {
    if (x === null || typeof x === 'string') return x;
    return v.list(v.int)(x, p);
  },
});

/** `role`, or the legacy `is_admin` / `is_guest` booleans. */
function readRole(req: ApiRequest, target: UserRecord): Role | undefined {
  const role = req.params.get('role', t.int);
  const legacyAdmin = req.params.get('is_admin', t.bool);
  const legacyGuest = req.params.get('is_guest', t.bool);
  if (role !== undefined) {
    if (!ROLES.includes(role)) throw errors.invalidVar('role', 'Invalid role');
    return role as Role;
  }
  if (legacyAdmin && legacyGuest) throw errors.badRequest('Guests cannot be organization administrators');
  if (legacyAdmin !== undefined) return legacyAdmin ? ROLE.ADMIN : target.role === ROLE.ADMIN ? ROLE.MEMBER : undefined;
  if (legacyGuest !== undefined) return legacyGuest ? ROLE.GUEST : target.role === ROLE.GUEST ? ROLE.MEMBER : undefined;
  return undefined;
}

/**
 * PATCH /users/{user_id} and /users/{email}: administrators only; the owner role
 * is given or taken only by owners and never from the only owner; `new_email`
 * needs an owner holding can_change_user_emails. Everything is validated before
 * anything changes.
 */
export async function updateUser(req: ApiRequest): Promise<ViewResult> {
  const { app } = req;
  const requester = requireAdmin(req);
  const target = accessUserByPath(app, requester, req.path.user_id ?? '', {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: true,
  });
  const changes: UserChanges = {};

  const role = readRole(req, target);
  if (role !== undefined && role !== target.role) {
    if ((role === ROLE.OWNER || target.role === ROLE.OWNER) && !isOwner(requester)) throw errors.ownerRequired();
    if (isLastOwner(app, target)) {
      throw errors.badRequest('The owner permission cannot be removed from the only organization owner.');
    }
    changes.role = role;
  }

  const fullName = req.params.get('full_name', t.string);
  if (fullName !== undefined && fullName.trim() !== '' && fullName !== target.full_name) {
    changes.fullName = checkFullName(fullName);
  }

  const profile = req.params.get('profile_data', t.json(v.list(profileDataItem)));
  if (profile) {
    if (target.is_bot) throw errors.badRequest('Bots do not have custom profile fields');
    changes.profile = resolveProfileChanges(app, requester, profile);
  }

  const newEmail = req.params.get('new_email', t.string);
  if (newEmail !== undefined) {
    if (!isOwner(requester)) throw errors.ownerRequired();
    if (!requester.can_change_user_emails) throw errors.badRequest('User not authorized to change user emails');
    const email = newEmail.trim();
    if (!isValidEmail(email)) throw errors.badRequest(`Invalid email '${email}'`);
    if (!target.is_bot) checkEmailNotReserved(app, email);
    const holder = app.store.users.byEmailAddress(email);
    if (holder && holder.id !== target.id) throw errors.badRequest(`Email '${email}' already in use`);
    changes.email = email;
  }

  await doUpdateUser(app, target, changes);
  return {};
}

/** DELETE /users/{user_id}: deactivates a user (and their bots). */
export async function deactivateUser(req: ApiRequest): Promise<ViewResult> {
  const { app } = req;
  const requester = requireAdmin(req);
  const target = accessUserById(app, requester, pathInt(req, 'user_id'), { forAdmin: true });
  req.params.get('deactivation_notification_comment', t.string); // Hearth sends no email; accepted
  if (isOwner(target) && !isOwner(requester)) throw errors.ownerRequired();
  if (isLastOwner(app, target)) throw errors.badRequest('Cannot deactivate the only organization owner');
  await doDeactivateUser(app, target);
  return {};
}

/** POST /users/{user_id}/reactivate. */
export async function reactivateUser(req: ApiRequest): Promise<ViewResult> {
  const { app } = req;
  const requester = requireAdmin(req);
  const target = accessUserById(app, requester, pathInt(req, 'user_id'), {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: true,
  });
  if (target.is_active) throw errors.badRequest('User is already active');
  if (target.is_deleted) throw errors.badRequest('No such user');
  // Zulip's check_bot_name_available(is_activation=True): two active accounts never share a bot's name.
  if (target.is_bot && app.store.users.all().some((u) => u.is_active && u.full_name === target.full_name.trim())) {
    throw errors.badRequest(
      `There is already an active bot named "${target.full_name}" in this organization. ` +
        'To reactivate this bot, you must rename or deactivate the other one first.',
    );
  }
  await doReactivateUser(app, target, requester);
  return {};
}

/** DELETE /users/me: deactivates one's own account (never the only user or the only owner). */
export async function deactivateOwnUser(req: ApiRequest): Promise<ViewResult> {
  const { app } = req;
  const user = requireUser(req);
  const humans = app.store.users.all().filter((u) => u.is_active && !u.is_bot);
  if (humans.length === 1) throw errors.cannotDeactivateLastUser(false);
  if (isLastOwner(app, user)) throw errors.cannotDeactivateLastUser(true);
  await doDeactivateUser(app, user);
  return {};
}
