/** The checks a new person's account passes (POST /users, invite links, first-run setup). */
import { MIN_PASSWORD_LENGTH } from '../../auth/secrets.js';
import type { ApiRequest } from '../../context.js';
import { errors } from '../../errors.js';
import { checkFullName } from './display-name.js';
import { isValidEmail } from './people.js';
import { checkEmailNotReserved } from './reserved.js';

/** The address is valid, not reserved and free, the password long enough; returns the cleaned name. */
export function validateNewAccount(req: ApiRequest, email: string, password: string, fullName: string): string {
  if (!isValidEmail(email)) throw errors.badRequest(`Invalid email '${email}'`);
  checkEmailNotReserved(req.app, email);
  if (req.app.store.users.byEmailAddress(email)) throw errors.badRequest(`Email '${email}' already in use`);
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw errors.badRequest(`The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  return checkFullName(fullName);
}
