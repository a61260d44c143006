import type Koa from 'koa';
import type { App } from '../context.js';
import { errors } from '../errors.js';
import { safeEqual } from '../auth/secrets.js';
import { accountByLoginEmail } from '../lib/people/lookup.js';
import type { UserRecord } from '../store/records.js';
import type { AuthPolicy } from './auth-policy.js';
import { authenticateSession } from './session-auth.js';

export function parseBasic(header: string): { email: string; key: string } | null {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { email: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}

/**
 * How a route's callers prove who they are: `basic` (`/api/v1`: HTTP Basic only), `session`
 * (`/json/`: the session cookie only, plus the CSRF token on unsafe methods) or `either`
 * (paths outside the API, such as files and avatars a browser loads: Basic when an
 * Authorization header is sent, else the session cookie).
 */
export type AuthScheme = 'basic' | 'session' | 'either';

/** Zulip's INCOMING_WEBHOOK_BOT: such bots may only send messages (routes flagged `incomingWebhookBots`). */
const INCOMING_WEBHOOK_BOT = 2;

/**
 * The same check as a plain function (the router runs it with the realm check, in one step).
 * Synchronous for Basic; a session check answers a promise on the rare request that
 * writes (an unusable session deleted, `last_used` updated).
 */
export function authenticateSync(
  app: App,
  policy: AuthPolicy,
  opts: { incomingWebhookBots?: boolean; scheme?: AuthScheme } = {},
): (ctx: Koa.Context) => void | Promise<void> {
  const scheme = opts.scheme ?? 'basic';
  return (ctx) => {
    ctx.state.user = null;
    ctx.state.session = null;
    if (policy === 'none') return;
    const header = ctx.get('authorization');
    if (scheme === 'session' || (scheme === 'either' && !header)) {
      return authenticateSession(app, ctx, policy, scheme === 'session');
    }
    if (!header) {
      if (policy === 'required') throw errors.unauthorized();
      return;
    }
    ctx.state.user = basicUser(app, header, opts.incomingWebhookBots === true);
  };
}

/** The user an `Authorization: Basic` header proves, or the HearthError to answer. */
export function basicUser(app: App, header: string, incomingWebhookBots: boolean): UserRecord {
  const creds = parseBasic(header);
  if (!creds) throw errors.unauthorized();
  const user = accountByLoginEmail(app, creds.email);
  // Zulip's Basic-auth decorator turns every failure of validate_api_key into UNAUTHORIZED (401) with its message.
  if (!user || !safeEqual(creds.key, user.api_key)) throw errors.unauthorized('Invalid API key');
  if (!user.is_active) throw errors.unauthorized('Account is deactivated');
  if (user.is_bot && user.bot_type === INCOMING_WEBHOOK_BOT && !incomingWebhookBots) throw errors.incomingWebhookBot();
  return user;
}
