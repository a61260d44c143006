import { doCreateUser } from '../actions/users.js';
import { MIN_PASSWORD_LENGTH } from '../auth/secrets.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../http/params.js';
import { formatUser, isValidEmail } from '../lib/people.js';
import { requireAdmin, requireUser } from './common.js';

export function getOwnUser(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  return formatUser(req.app, user, user);
}

export function validateNewAccount(req: ApiRequest, email: string, password: string, fullName: string): void {
  if (!isValidEmail(email)) throw errors.badRequest(`Invalid email '${email}'`);
  if (req.app.store.users.byEmailAddress(email)) throw errors.badRequest(`Email '${email}' already in use`);
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw errors.badRequest(`The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (fullName.trim().length === 0) throw errors.badRequest('Name too short!');
  if (fullName.length > 100) throw errors.badRequest('Name too long!');
}

/** POST /users: administrators create a member account. */
export async function createUser(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const email = req.params.require('email', t.string).trim();
  const password = req.params.require('password', t.string);
  const fullName = req.params.require('full_name', t.string).trim();
  validateNewAccount(req, email, password, fullName);
  const user = await doCreateUser(req.app, { email, password, fullName, role: 400 });
  return { user_id: user.id };
}
