/**
 * Temporary file URLs (Zulip's generate_unauthed_file_access_url): a token
 * signing the file's path and an expiry, valid for a minute, that opens the
 * file without credentials (the mobile app hands it to the system's viewer).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { App } from '../../context.js';

/** Zulip's SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS. */
export const TEMPORARY_URL_SECONDS = 60;

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`user_uploads:${payload}`).digest('hex');

export function temporaryUrl(app: App, pathId: string): string {
  const expires = Math.floor(app.clock.now() / 1000) + TEMPORARY_URL_SECONDS;
  const payload = `${pathId}:${expires}`;
  const token = Buffer.from(`${payload}:${sign(app.store.attachments.secret, payload)}`, 'utf8')
    .toString('hex')
    .toUpperCase();
  const name = pathId.slice(pathId.lastIndexOf('/') + 1);
  return `/user_uploads/temporary/${token}/${encodeURIComponent(name)}`;
}

/** The path a valid, unexpired token signs; null otherwise. */
export function pathIdFromToken(app: App, token: string): string | null {
  if (!/^(?:[0-9A-F]{2}){1,1024}$/.test(token)) return null;
  const text = Buffer.from(token, 'hex').toString('utf8');
  const m = /^(.+):(\d{1,12}):([0-9a-f]{64})$/.exec(text);
  if (!m) return null;
  const [, pathId, expires, sig] = m as unknown as [string, string, string, string];
  const expected = Buffer.from(sign(app.store.attachments.secret, `${pathId}:${expires}`), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return null;
  if (Number(expires) < Math.floor(app.clock.now() / 1000)) return null;
  return pathId;
}
