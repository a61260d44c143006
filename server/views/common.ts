import type { ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import { requestLinkOrigin } from '../http/link-origin.js';
import { isAdmin, isOwner } from '../lib/people/people.js';
import type { UserRecord } from '../store/records.js';

/** The authenticated user (routes with `auth: 'required'` always have one). */
export function requireUser(req: ApiRequest): UserRecord {
  if (!req.user) throw errors.unauthorized();
  return req.user;
}

/** Zulip's human_users_only: the authenticated user, refused if a bot. */
export function requireHuman(req: ApiRequest): UserRecord {
  const user = requireUser(req);
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
  return user;
}

export function requireAdmin(req: ApiRequest): UserRecord {
  const user = requireUser(req);
  if (!isAdmin(user)) throw errors.adminRequired();
  return user;
}

/** An organization owner (what holds every account's secrets, such as a full backup, is theirs alone). */
export function requireOwner(req: ApiRequest): UserRecord {
  const user = requireAdmin(req);
  if (!isOwner(user)) throw errors.ownerRequired();
  return user;
}

/** A positive integer path parameter. */
export function pathInt(req: ApiRequest, name: string): number {
  const raw = req.path[name] ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw errors.invalidVar(name, `Invalid ${name}`);
  return Number(raw);
}

/**
 * `scheme://host:port` for links: the configured address, or the request's when its host names
 * this computer, else the computer's LAN address; never a forged `Host` (lib/network/link-origin.ts).
 */
export function baseUrl(req: ApiRequest): string {
  return requestLinkOrigin(req.app, req.koa);
}
