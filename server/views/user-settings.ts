/** GET /settings (Hearth's read of the register object) and PATCH /settings (Zulip's json_change_settings), and its legacy aliases. */
import type { ApiRequest, ViewResult } from '../context.js';
import { doChangeSettings } from '../actions/user-settings.js';
import { MIN_PASSWORD_LENGTH, verifyPassword } from '../auth/secrets.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { checkFullName } from '../lib/people/display-name.js';
import { USER_SETTINGS, parseSetting, userSettingsObject } from '../lib/people/settings.js';
import { requestSession } from '../auth/sessions.js';
import { requireUser } from '../lib/people/require.js';
import { loginLimitKey, startPasswordCheck } from './auth.js';

/**
 * Zulip has no GET /settings (clients read `user_settings` from register);
 * Hearth answers it with the same object, so a script can read one setting
 * without allocating an event queue.
 */
export async function getSettings(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  return { user_settings: userSettingsObject(req.app, user) };
}

export async function changeSettings(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const settings: Record<string, unknown> = {};
  for (const name of [...Object.keys(USER_SETTINGS), 'timezone']) {
    const value = params.get(name, { read: (raw: string) => parseSetting(name, raw) });
    if (value !== undefined) settings[name] = value;
  }
  const rawName = params.get('full_name', t.string);
  const fullName = rawName !== undefined ? checkFullName(rawName) : undefined;
  const oldPassword = params.get('old_password', t.string);
  const newPassword = params.get('new_password', t.string);
  if (newPassword !== undefined) {
    if (user.is_bot) throw errors.badRequest('Bots cannot change their password');
    if (oldPassword === undefined) throw errors.badRequest("Missing 'old_password' argument");
    // Wrong old passwords count with failed sign-ins (the same per-account limit): a stolen session or
    // API key is no faster way to guess the password.
    const check = startPasswordCheck(req, loginLimitKey(user.id));
    if (!(await verifyPassword(oldPassword, user.password_hash))) {
      await check.wrong(user);
      throw errors.badRequest('Wrong password!');
    }
    check.right();
    if (newPassword.length < MIN_PASSWORD_LENGTH) throw errors.badRequest('New password is too weak!');
  }
  if (!Object.keys(settings).length && fullName === undefined && newPassword === undefined && !params.has('email')) {
    throw errors.badRequest('Please choose one or more settings to change');
  }
  await doChangeSettings(app, user, {
    settings,
    ...(fullName !== undefined && fullName !== user.full_name ? { fullName } : {}),
    ...(newPassword !== undefined ? { newPassword, keepSession: requestSession(req.koa.state)?.id ?? null } : {}),
  });
  // Zulip 5 (feature level 78) removed full_name and account_email from this answer.
  return {};
}
