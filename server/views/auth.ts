import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { verifyPassword } from '../auth/secrets.js';
import { t } from '../params/params.js';
import { accountByLoginEmail } from '../lib/people/lookup.js';
import { doRecordFirstLogin } from '../actions/users.js';
import { doSendDirectNotice } from '../actions/notification-bot.js';
import { ACCOUNT_ALARM_THRESHOLD, accountAddressKey } from '../auth/rate-limit.js';
import type { UserRecord } from '../store/records.js';

/** The per-account key of the failed-password limits (sign-ins, and old passwords in PATCH /settings). */
export const loginLimitKey = (userId: number) => `user:${userId}`;

/** The notice the account's holder gets from the Notification Bot. */
const alarmText = (count: number, addresses: string[]) =>
  `Someone tried to sign in to your account with a wrong password ${count} or more times in the last ten minutes, ` +
  `from ${addresses.length === 1 ? 'the address' : 'the addresses'} ${addresses.map((a) => `\`${a}\``).join(', ')}. ` +
  'No wrong password was accepted, and each address is held back after ten wrong tries. If that was not you, ' +
  'tell an administrator; if your password is weak or used elsewhere, change it in **Settings > Account**.';

/**
 * A password check for an account (`accountKey`) from the request's address, counted before its
 * outcome is known: refused with 429 when the address (any account) or the account from that
 * address is over its limit; otherwise counted at once against both as if wrong, so checks sent
 * together count against each other (60 guesses sent at once were all checked, past the limit of
 * 10), and taken back when the password is right. A wrong one also counts for the account from
 * everywhere, which only tells its holder: a limit there would let anyone on the network lock a
 * colleague out by guessing wrong on purpose.
 */
export function startPasswordCheck(req: ApiRequest, accountKey: string): { right(): void; wrong(user: UserRecord | null): Promise<void> } {
  const { byAddress, byAccountAddress, accountAlarm } = req.app.rateLimits;
  const address = req.koa.ip;
  const pairKey = accountAddressKey(accountKey, address);
  const wait = Math.max(byAddress.retryAfterSeconds(address), byAccountAddress.retryAfterSeconds(pairKey));
  if (wait > 0) throw errors.rateLimited(wait);
  const at = byAddress.record(address);
  byAccountAddress.record(pairKey);
  return {
    right() {
      byAddress.forget(address, at);
      byAccountAddress.reset(pairKey);
    },
    async wrong(user) {
      if (!user || user.is_bot) return;
      const addresses = accountAlarm.record(accountKey, address);
      if (!addresses) return;
      req.app.log.warn('many wrong passwords for one account', { user_id: user.id, addresses });
      await doSendDirectNotice(req.app, user, alarmText(ACCOUNT_ALARM_THRESHOLD, addresses)).catch((err: unknown) =>
        req.app.log.warn('the wrong-password notice could not be sent', { error: String(err) }),
      );
    },
  };
}

/**
 * A password login (`username` + `password`), shared by POST /fetch_api_key and
 * POST /json/login: failed attempts are rate-limited per client address and per
 * account from that address (429 with retry-after); bots have no password, so never get in.
 */
export async function passwordLogin(req: ApiRequest): Promise<{ user: UserRecord; passwordHash: string }> {
  const username = req.params.require('username', t.string).trim();
  const password = req.params.require('password', t.string);
  const user = accountByLoginEmail(req.app, username);
  // Counted per account, whichever of its addresses is typed (its email or `user7@…`): one count
  // of guesses per account, not one per spelling.
  const accountKey = user ? loginLimitKey(user.id) : `name:${username.toLowerCase()}`;
  const check = startPasswordCheck(req, accountKey);

  const passwordHash = user && !user.is_bot ? user.password_hash : null;
  const ok = await verifyPassword(password, passwordHash);
  if (!ok || !user || passwordHash === null) {
    await check.wrong(user ?? null);
    throw errors.authFailed();
  }
  check.right();
  if (!user.is_active) throw errors.deactivated();
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
