/**
 * Push registration endpoints (Zulip's zerver/views/push_notifications.py and
 * devices.py). Hearth is offline-first and relays no push notifications: tokens
 * are validated and kept, nothing is sent to Apple, Google or a bouncer.
 */
import { doAddPushToken, doRegisterDevice, doRemoveDevice, doRemovePushToken } from '../actions/devices.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors, HearthError } from '../errors.js';
import { t } from '../params/params.js';
import type { PushTokenRecord } from '../store/records.js';
import { requireHuman } from '../lib/people/require.js';
import { requireUser } from '../lib/people/require.js';

/** Zulip bounds push tokens at 4096 characters. */
export const MAX_PUSH_TOKEN_LENGTH = 4096;

/**
 * Python's `bytes.fromhex`, which current Zulip uses to check an APNs token: pairs of hex
 * digits, ASCII white space allowed between pairs (not inside one).
 */
const APNS_HEX = /^[ \t\n\r\v\f]*(?:[0-9a-fA-F]{2}[ \t\n\r\v\f]*)*$/;

/** Zulip's validate_token: the message the spec gives for an empty or over-long token. */
function validateToken(token: string, kind: PushTokenRecord['kind']): string {
  if (token === '' || [...token].length > MAX_PUSH_TOKEN_LENGTH) throw errors.badRequest('Empty or invalid length token');
  if (kind === 'apns' && !APNS_HEX.test(token)) throw errors.badRequest('Invalid APNS token');
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

/** POST /remove_client_device (feature level 470): the caller's own device only. */
export async function removeClientDevice(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const id = req.params.require('device_id', t.int);
  const device = req.app.store.devices.data.devices.find((d) => d.id === id && d.user_id === user.id);
  if (!device) throw errors.badRequest('Invalid device ID');
  await doRemoveDevice(req.app, device);
  return {};
}

/** POST /register_client_device: a device ID for a logged-in mobile client (feature level 468). */
export async function registerClientDevice(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const device = await doRegisterDevice(req.app, user.id);
  return { device_id: device.id };
}

/**
 * POST /mobile_push/register (end-to-end encrypted push, Zulip 11): Hearth relays no push
 * notifications, so it answers as a Zulip server without the push notification service.
 */
export function registerPushDevice(req: ApiRequest): ViewResult {
  requireHuman(req);
  throw pushServiceNotConfigured();
}

/**
 * POST /mobile_push/test_notification: a token the user never registered is Zulip's
 * "Device not recognized"; otherwise there is nothing Hearth could send a test through.
 */
export function testPushNotification(req: ApiRequest): ViewResult {
  const user = requireHuman(req);
  const token = req.params.get('token', t.string);
  if (token !== undefined && !req.app.store.devices.data.push_tokens.some((p) => p.user_id === user.id && p.token === token)) {
    throw new HearthError('Device not recognized', { code: 'INVALID_PUSH_DEVICE_TOKEN' });
  }
  throw pushServiceNotConfigured();
}

/** POST /mobile_push/e2ee/test_notification: no device is ever registered for E2EE push here. */
export function testE2eePushNotification(req: ApiRequest): ViewResult {
  requireHuman(req);
  req.params.get('push_account_id', t.int);
  throw new HearthError('No active registered push device', { code: 'NO_ACTIVE_PUSH_DEVICE' });
}

const pushServiceNotConfigured = () =>
  new HearthError('Server is not configured to use push notification service.', { code: 'PUSH_SERVICE_NOT_CONFIGURED' });
