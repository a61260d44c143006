import { randomBytes } from 'node:crypto';
import { safeEqual } from '../../auth/secrets.js';

/** A one-time first-run setup token: 128 random bits, URL-safe. */
export const newSetupToken = (): string => randomBytes(16).toString('base64url');

/** Whether `given` matches the server's token (constant time; no token configured never matches). */
export function setupTokenMatches(expected: string | null, given: string | undefined): boolean {
  if (!expected || !given) return false;
  return safeEqual(given, expected);
}
