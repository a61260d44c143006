import { doSetPassword } from '../actions/passwords.js';
import { MIN_PASSWORD_LENGTH } from '../auth/secrets.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { isOwner } from '../lib/people/people.js';
import { requestSession } from '../auth/sessions.js';
import { pathInt } from './common.js';
import { requireAdmin } from '../lib/people/require.js';

/** Longest password accepted (scrypt hashes anything, but megabyte passwords only cost CPU). */
const MAX_PASSWORD_LENGTH = 1024;

/**
 * POST /hearth/users/{user_id}/password (administrators; an owner's password only by an owner):
 * the organization settings' "Reset password".
 */
export async function resetPassword(req: ApiRequest): Promise<ViewResult> {
  const admin = requireAdmin(req);
  const target = req.app.store.users.get(pathInt(req, 'user_id'));
  const password = req.params.require('new_password', t.string);
  if (!target) throw errors.badRequest('No such user');
  if (target.is_bot) throw errors.badRequest('Bots have no password: regenerate the API key instead');
  if (isOwner(target) && !isOwner(admin)) throw errors.ownerRequired();
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw errors.invalidVar('new_password', `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) throw errors.invalidVar('new_password', 'The password is too long');
  // The target's browser sessions end, except the one making the change (an administrator resetting their own).
  await doSetPassword(req.app, target, password, requestSession(req.koa.state)?.id ?? null);
  return {};
}
