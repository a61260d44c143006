import type { ApiRequest } from '../../context.js';
import { errors } from '../../errors.js';
import { userByKeyFor } from './lookup.js';
import { systemBot } from './system-bots.js';
import type { UserRecord } from '../../store/records.js';

/**
 * Zulip's bulk_principals_to_user_profiles: active users (bots included) of this organization,
 * as the requester may name them (a hidden address or person is no such user); never a system bot.
 */
export function resolvePrincipals(req: ApiRequest, principals: (number | string)[]): UserRecord[] {
  const out = new Map<number, UserRecord>();
  for (const p of principals) {
    const u = userByKeyFor(req.app, req.user, p);
    if (!u || systemBot(req.app, u.id)) throw errors.badRequest('No such user');
    if (!u.is_active) throw errors.badRequest('User is deactivated');
    out.set(u.id, u);
  }
  return [...out.values()];
}
