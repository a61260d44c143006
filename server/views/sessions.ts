/**
 * Browser sessions for the web client (server/API.md: Browser sessions): the API key
 * never reaches the page; an HttpOnly cookie and a CSRF token do.
 */
import { doCreateSession, doEndSession } from '../actions/sessions.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { clearedSessionCookie, requestSession, sessionCookie, sessionIdForToken, sessionTokenFrom } from '../auth/sessions.js';
import type { UserRecord } from '../store/records.js';
import type { SessionRecord } from '../store/sessions.js';
import { passwordLogin } from './auth.js';
import { requireUser } from '../lib/people/require.js';

const sessionAnswer = (req: ApiRequest, user: UserRecord, session: SessionRecord): ViewResult => {
  // The CSRF token is for this page only: no cache keeps it.
  req.koa.set('Cache-Control', 'no-store');
  return { user_id: user.id, email: user.email, csrf_token: session.csrf_token };
};

/**
 * POST /json/login (`username`, `password`): the checks and rate limits of
 * fetch_api_key, then a new session in an HttpOnly, SameSite=Strict cookie.
 */
export async function login(req: ApiRequest): Promise<ViewResult> {
  const { user, passwordHash } = await passwordLogin(req);
  const previous = sessionTokenFrom(req.koa.get('cookie') || undefined);
  const made = await doCreateSession(req.app, user, passwordHash, previous === null ? null : sessionIdForToken(previous));
  // Deactivated, or the password changed, while the password was being checked.
  if (!made) throw errors.authFailed();
  const { token, session } = made;
  req.koa.set('Set-Cookie', sessionCookie(token, req.koa.secure));
  return sessionAnswer(req, user, session);
}

/** POST /json/logout: the session ends (on disk) and the browser forgets the cookie. */
export async function logout(req: ApiRequest): Promise<ViewResult> {
  requireUser(req);
  const session = requestSession(req.koa.state);
  if (session) await doEndSession(req.app, session.id);
  req.koa.set('Set-Cookie', clearedSessionCookie(req.koa.secure));
  return {};
}

/** GET /json/session: who the cookie signs in, with the CSRF token a reloaded page needs. */
export function getSession(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  const session = requestSession(req.koa.state);
  // Served only under /json/, where the session is the only way in.
  if (!session) throw errors.unauthorized();
  return sessionAnswer(req, user, session);
}
