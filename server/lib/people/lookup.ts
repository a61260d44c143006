/**
 * Finding an account by an address, the one way every endpoint does it.
 *
 * An address is one of: Zulip's stand-in `user{id}@{fake domain}` (what the API shows for a
 * hidden email), a system bot's address, or a person's real address. The stand-in and the
 * system bots' addresses come first, so an account that somehow holds one of those as its
 * real address (data from before they were reserved) can never take their place.
 *
 * A viewer finds a real address only when they may see it (`email_address_visibility`) and
 * may access its holder (`can_access_all_users_group`): otherwise the address is as unknown
 * as one nobody has, so hidden addresses and hidden people cannot be tested for.
 */
import type { App } from '../../context.js';
import type { UserRecord } from '../../store/records.js';
import { canAccessUser, canSeeEmail, fakeEmail } from './people.js';
import { systemBot, systemBotByEmail } from './system-bots.js';

const STAND_IN = /^user(\d{1,15})@/i;

/** The account whose stand-in address is exactly `email` (not `user07@`, not another domain). */
export function userByStandIn(app: App, email: string): UserRecord | undefined {
  const m = STAND_IN.exec(email);
  const user = m ? app.store.users.get(Number(m[1])) : undefined;
  return user && fakeEmail(app, user).toLowerCase() === email.toLowerCase() ? user : undefined;
}

/**
 * The account an address signs in as: its stand-in or its real address. For the holder of
 * the account (signing in, API keys), never for looking other people up.
 */
export function accountByLoginEmail(app: App, email: string): UserRecord | undefined {
  const e = email.trim();
  return userByStandIn(app, e) ?? (systemBotByEmail(app, e) ? undefined : app.store.users.byEmailAddress(e));
}

/** The user (or system bot) `viewer` names with this address, if the viewer may name them by it. */
export function userByEmailFor(app: App, viewer: UserRecord | null, email: string): UserRecord | undefined {
  const e = email.trim();
  const standIn = userByStandIn(app, e);
  if (standIn) return canAccessUser(app, viewer, standIn) ? standIn : undefined;
  const bot = systemBotByEmail(app, e);
  if (bot) return bot;
  const real = app.store.users.byEmailAddress(e);
  if (!real || !canSeeEmail(app, viewer, real) || !canAccessUser(app, viewer, real)) return undefined;
  return real;
}

/** The user (or system bot) with this ID, if `viewer` may access them. */
export function userByIdFor(app: App, viewer: UserRecord | null, id: number): UserRecord | undefined {
  const bot = systemBot(app, id);
  if (bot) return bot;
  const u = app.store.users.get(id);
  return u && canAccessUser(app, viewer, u) ? u : undefined;
}

/** A user ID (number or digits) or an address, as `viewer` may name them. */
export function userByKeyFor(app: App, viewer: UserRecord | null, key: number | string): UserRecord | undefined {
  if (typeof key === 'number') return Number.isSafeInteger(key) ? userByIdFor(app, viewer, key) : undefined;
  const s = key.trim();
  return /^\d{1,15}$/.test(s) ? userByIdFor(app, viewer, Number(s)) : userByEmailFor(app, viewer, s);
}
