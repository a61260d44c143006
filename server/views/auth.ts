import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { verifyPassword } from '../auth/secrets.js';
import { t } from '../params/params.js';
import { accountByLoginEmail } from '../lib/people/lookup.js';
import { doRecordFirstLogin } from '../actions/users.js';
import type { UserRecord } from '../store/records.js';

/** The per-account key of the failed-password limit (sign-ins, and old passwords in PATCH /settings). */
export const loginLimitKey = (userId: number) => `user:${userId}`;

/**
 * A password login (`username` + `password`), shared by POST /fetch_api_key and
 * POST /json/login: failed attempts are rate-limited per client address and per
 * username (429 with retry-after); bots have no password, so never get in.
 */
export async function passwordLogin(req: ApiRequest): Promise<{ user: UserRecord; passwordHash: string }> {
  const username = req.params.require('username', t.string).trim();
  const password = req.params.require('password', t.string);
  const { byAddress, byUsername } = req.app.rateLimits;
  const addressKey = req.koa.ip;
  const user = accountByLoginEmail(req.app, username);
  // Counted per account, whichever of its addresses is typed (its email or `user7@…`): one count
  // of guesses per account, not one per spelling.
  const userKey = user ? loginLimitKey(user.id) : username.toLowerCase();
  const wait = Math.max(byAddress.retryAfterSeconds(addressKey), byUsername.retryAfterSeconds(userKey));
  if (wait > 0) throw errors.rateLimited(wait);

  const passwordHash = user && !user.is_bot ? user.password_hash : null;
  const ok = await verifyPassword(password, passwordHash);
  if (!ok || !user || passwordHash === null) {
    byAddress.record(addressKey);
    byUsername.record(userKey);
    throw errors.authFailed();
  }
  if (!user.is_active) throw errors.deactivated();
  byUsername.reset(userKey);
  // An API-created account's date_joined becomes its first login (feature level 475).
  await doRecordFirstLogin(req.app, user);
  return { user, passwordHash };
}

/** POST /fetch_api_key: email + password → API key. */
export async function fetchApiKey(req: ApiRequest): Promise<ViewResult> {
  const { user } = await passwordLogin(req);
  return { api_key: user.api_key, email: user.email, user_id: user.id };
}

/**
 * POST /dev_fetch_api_key and GET /dev_list_users: Zulip's development-login endpoints,
 * answered as a production Zulip server's check_dev_auth_backend does.
 */
export function devAuthUnavailable(): ViewResult {
  throw errors.badRequest('Endpoint not available in production.');
}
