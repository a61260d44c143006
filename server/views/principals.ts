import type { ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import { userByApiEmail } from '../http/auth.js';
import type { UserRecord } from '../store/records.js';

/** Zulip's bulk_principals_to_user_profiles: active users (bots included) of this organization. */
export function resolvePrincipals(req: ApiRequest, principals: (number | string)[]): UserRecord[] {
  const out = new Map<number, UserRecord>();
  for (const p of principals) {
    const u = typeof p === 'number' ? req.app.store.users.get(p) : userByApiEmail(req.app, p.trim());
    if (!u) throw errors.badRequest('No such user');
    if (!u.is_active) throw errors.badRequest('User is deactivated');
    out.set(u.id, u);
  }
  return [...out.values()];
}
