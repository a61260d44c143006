/**
 * Push registration endpoints (Zulip's zerver/views/push_notifications.py and
 * devices.py). Hearth is offline-first and relays no push notifications: tokens
 * are validated and kept, nothing is sent to Apple, Google or a bouncer.
 */
import { doAddPushToken, doRegisterDevice, doRemovePushToken } from '../actions/devices.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../http/params.js';
import type { PushTokenRecord, UserRecord } from '../store/records.js';
import { requireUser } from './common.js';

/** Zulip bounds push tokens at 4096 characters. */
export const MAX_PUSH_TOKEN_LENGTH = 4096;

/** Zulip's human_users_only. */
function requireHuman(req: ApiRequest): UserRecord {
  const user = requireUser(req);
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
  return user;
}

/**
 * Python's lenient base64 decoding (what Zulip's b64_to_hex does with an APNs token):
 * characters outside the alphabet are skipped; the data must be complete or padded.
 */
function decodesAsBase64(token: string): boolean {
  const cleaned = token.replace(/[^A-Za-z0-9+/=]/g, '');
  const eq = cleaned.indexOf('=');
  const data = eq < 0 ? cleaned : cleaned.slice(0, eq);
  const padding = eq < 0 ? 0 : cleaned.slice(eq).replace(/[^=]/g, '').length;
  const rest = data.length % 4;
  if (rest === 0) return true;
  if (rest === 1) return false;
  return padding >= 4 - rest;
}

/** Zulip's validate_token: the message the spec gives for an empty or over-long token. */
function validateToken(token: string, kind: PushTokenRecord['kind']): string {
  if (token === '' || [...token].length > MAX_PUSH_TOKEN_LENGTH) throw errors.badRequest('Empty or invalid length token');
  if (kind === 'apns' && !decodesAsBase64(token)) throw errors.badRequest('Invalid APNS token');
  return token;
}

async function addToken(req: ApiRequest, kind: PushTokenRecord['kind']): Promise<ViewResult> {
  const user = requireHuman(req);
  const token = validateToken(req.params.require('token', t.string), kind);
  let appId: string | null = null;
  if (kind === 'apns') {
    appId = req.params.require('appid', t.string);
    if (!/^[.a-zA-Z0-9-]+$/.test(appId)) throw errors.badRequest('Invalid app ID');
  }
  await doAddPushToken(req.app, user.id, kind, token, appId);
  return {};
}

async function removeToken(req: ApiRequest, kind: PushTokenRecord['kind']): Promise<ViewResult> {
  const user = requireHuman(req);
  const token = validateToken(req.params.require('token', t.string), kind);
  if (!(await doRemovePushToken(req.app, user.id, kind, token))) throw errors.badRequest('Token does not exist');
  return {};
}

/** POST /users/me/android_gcm_reg_id (deprecated in Zulip from feature level 406; still answered). */
export const addAndroidToken = (req: ApiRequest) => addToken(req, 'fcm');
/** DELETE /users/me/android_gcm_reg_id */
export const removeAndroidToken = (req: ApiRequest) => removeToken(req, 'fcm');
/** POST /users/me/apns_device_token (`appid` required, as since Zulip feature level 223). */
export const addApnsToken = (req: ApiRequest) => addToken(req, 'apns');
/** DELETE /users/me/apns_device_token */
export const removeApnsToken = (req: ApiRequest) => removeToken(req, 'apns');

/** POST /register_client_device: a device ID for a logged-in mobile client (feature level 468). */
export async function registerClientDevice(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const device = await doRegisterDevice(req.app, user.id);
  return { device_id: device.id };
}
