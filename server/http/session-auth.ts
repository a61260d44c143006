/**
 * Authentication by the browser session cookie (server/API.md: Browser sessions): on
 * `/json/...` it is the only way in; outside the API (files, avatars) it is
 * accepted besides Basic. Unsafe methods also need the session's CSRF token.
 */
import type Koa from 'koa';
import { doEndSession, doTouchSession } from '../actions/sessions.js';
import { safeEqual } from '../auth/secrets.js';
import { unixSeconds } from '../clock.js';
import type { App } from '../context.js';
import { errors, HearthError } from '../errors.js';
import {
  clearedSessionCookie,
  LAST_USED_RESOLUTION_SECONDS,
  sessionIdForToken,
  sessionTokenFrom,
  sessionUser,
} from '../auth/sessions.js';
import type { AuthPolicy } from './auth-policy.js';
import type { UserRecord } from '../store/records.js';

/** Methods that change nothing, so need no CSRF token. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the request's user from the session cookie (sets ctx.state.user and
 * ctx.state.session). `strict` (the /json/ API): a cookie naming no usable
 * session is refused with 401 and cleared; otherwise (files, avatars) it is
 * ignored, since the browser sends it unasked. A stored session whose user is
 * no longer active, or that expired, is deleted on the way. Answers a promise
 * only when it writes (that deletion, or `last_used` at most hourly).
 */
export function authenticateSession(app: App, ctx: Koa.Context, policy: AuthPolicy, strict: boolean): void | Promise<void> {
  const found = findSession(app, ctx.get('cookie'));
  if (found === null) {
    if (policy === 'required') throw strict ? errors.sessionUnauthorized() : errors.unauthorized();
    return;
  }
  const { session, user, now } = found;
  if (!session || !user) {
    const refuse = () => {
      if (strict) throw errors.sessionUnauthorized(clearedSessionCookie(ctx.secure));
      if (policy === 'required') throw errors.unauthorized();
    };
    return session ? housekeeping(app, () => doEndSession(app, session.id)).then(refuse) : refuse();
  }
  if (!SAFE_METHODS.has(ctx.method) && !safeEqual(ctx.get('x-csrftoken'), session.csrf_token)) throw errors.csrfFailed();
  ctx.state.user = user;
  ctx.state.session = session;
  if (now - session.last_used >= LAST_USED_RESOLUTION_SECONDS) return housekeeping(app, () => doTouchSession(app, session.id));
}

/** What a request's cookie names: null without a session cookie; `session`/`user` undefined/null when unusable. */
function findSession(app: App, cookie: string) {
  const token = sessionTokenFrom(cookie || undefined);
  if (token === null) return null;
  const id = sessionIdForToken(token);
  const session = id === null ? undefined : app.store.sessions.get(id);
  const now = unixSeconds(app.clock);
  return { session, user: session ? sessionUser(app.store, session, now) : null, now };
}

/**
 * The user of a GET's session cookie when the check needs no write and refuses nothing
 * (for the events fast path, server/views/events-direct.ts); null sends the request the usual way.
 */
export function plainSessionUser(app: App, cookie: string | undefined): UserRecord | null {
  const found = findSession(app, cookie ?? '');
  if (!found?.session || !found.user || found.now - found.session.last_used >= LAST_USED_RESOLUTION_SECONDS) return null;
  return found.user;
}

/**
 * Writes that only keep the sessions file tidy: skipped while the disk refuses
 * writes, and a failure does not fail the request (the rollback still runs).
 */
async function housekeeping(app: App, write: () => Promise<void>): Promise<void> {
  if (app.storageHealth.failure !== null) return;
  try {
    await write();
  } catch (err) {
    app.log.warn('session bookkeeping not saved', { error: err instanceof Error ? err.message : String(err) });
  }
}

/** A 401 raised while serving /json/: the same error with Zulip's session challenge (no Basic dialog). */
export function withSessionChallenge(err: unknown): unknown {
  if (!(err instanceof HearthError) || err.status !== 401 || !err.headers['WWW-Authenticate']) return err;
  return new HearthError(err.message, {
    code: err.code,
    status: err.status,
    extra: err.extra,
    headers: { ...err.headers, 'WWW-Authenticate': 'Session realm="zulip"' },
  });
}
