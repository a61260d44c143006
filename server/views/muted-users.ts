/** POST / DELETE /users/me/muted_users/{muted_user_id} (Zulip's muted_users.py). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doSetMuted } from '../actions/muted-users.js';
import { errors } from '../errors.js';
import { canAccessUser } from '../lib/people/people.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';

function target(req: ApiRequest) {
  const user = requireUser(req);
  const id = pathInt(req, 'muted_user_id');
  if (id === user.id) throw errors.badRequest('Cannot mute self');
  const other = req.app.store.users.get(id);
  // Someone a restricted guest may not access is as unknown as nobody (lookup.ts), unless
  // already muted: unmuting them tells nothing new.
  const known = other !== undefined && (canAccessUser(req.app, user, other) || user.muted_users?.some((m) => m.id === id) === true);
  if (!other || other.is_deleted || !known) throw errors.badRequest('No such user');
  return { user, id };
}

export async function muteUser(req: ApiRequest): Promise<ViewResult> {
  const { user, id } = target(req);
  if (user.muted_users?.some((m) => m.id === id)) throw errors.badRequest('User already muted');
  await doSetMuted(req.app, user, id, true);
  return {};
}

export async function unmuteUser(req: ApiRequest): Promise<ViewResult> {
  const { user, id } = target(req);
  if (!user.muted_users?.some((m) => m.id === id)) throw errors.badRequest('User is not muted');
  await doSetMuted(req.app, user, id, false);
  return {};
}
