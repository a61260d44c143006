/**
 * Push-notification registration (Zulip's add_push_device_token /
 * remove_push_device_token and register_device). Hearth relays no push
 * notifications: the tokens are kept so mobile apps see a normal server.
 */
import { unixSeconds } from '../clock.js';
import type { App } from '../context.js';
import type { DeviceRecord, PushTokenRecord } from '../store/records.js';
import { commit } from './commit.js';
import { formatDevice } from '../lib/people/devices.js';

/**
 * Adds a token for the user. A token registered before by another account (someone
 * else logged in on that phone without logging out) moves to this user; registering
 * the same token again refreshes it.
 */
export async function doAddPushToken(
  app: App,
  userId: number,
  kind: PushTokenRecord['kind'],
  token: string,
  iosAppId: string | null,
): Promise<void> {
  await commit(app, (tx) => {
    const doc = app.store.devices.data;
    doc.push_tokens = doc.push_tokens.filter((t) => !(t.token === token && t.kind === kind && t.user_id !== userId));
    const existing = doc.push_tokens.find((t) => t.user_id === userId && t.kind === kind && t.token === token);
    if (existing) {
      existing.last_updated = unixSeconds(app.clock);
      existing.ios_app_id = iosAppId;
    } else {
      doc.push_tokens.push({ user_id: userId, kind, token, ios_app_id: iosAppId, last_updated: unixSeconds(app.clock) });
    }
    tx.touch(app.store.devices);
  });
}

/** Removes the user's token; false when the user has no such token. */
export async function doRemovePushToken(
  app: App,
  userId: number,
  kind: PushTokenRecord['kind'],
  token: string,
): Promise<boolean> {
  const doc = app.store.devices.data;
  const i = doc.push_tokens.findIndex((t) => t.user_id === userId && t.kind === kind && t.token === token);
  if (i < 0) return false;
  await commit(app, (tx) => {
    const at = doc.push_tokens.findIndex((t) => t.user_id === userId && t.kind === kind && t.token === token);
    if (at >= 0) doc.push_tokens.splice(at, 1);
    tx.touch(app.store.devices);
  });
  return true;
}

/** `POST /remove_client_device`: the device is forgotten and the user's clients told (`device` remove). */
export async function doRemoveDevice(app: App, device: DeviceRecord): Promise<void> {
  await commit(app, (tx) => {
    const doc = app.store.devices.data;
    doc.devices = doc.devices.filter((d) => d !== device);
    tx.touch(app.store.devices);
    tx.emit({ type: 'device', op: 'remove', device_id: device.id }, [device.user_id]);
  });
}

/** `POST /register_client_device`: a new device for the user, announced to their clients (`device` add). */
export async function doRegisterDevice(app: App, userId: number): Promise<DeviceRecord> {
  return commit(app, (tx) => {
    const doc = app.store.devices.data;
    const device: DeviceRecord = { id: doc.nextId++, user_id: userId, date_created: unixSeconds(app.clock) };
    doc.devices.push(device);
    tx.touch(app.store.devices);
    tx.emit({ type: 'device', op: 'add', device_id: device.id, ...formatDevice(device) }, [userId]);
    return device;
  });
}
