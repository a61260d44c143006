/**
 * The admin UI's only way to the server: its HTTP API (Zulip's wire format) under `/json/`,
 * signed in by the browser session (server/API.md: Browser sessions): an HttpOnly cookie the page
 * cannot read, shared with the chat at `/`, plus the session's CSRF token on every change,
 * kept in memory only (a reloaded page asks `GET /json/session` again). The page never holds
 * the API key.
 */

/** Who the session signs in, and the CSRF token for changes (from /json/login or /json/session). */
export interface Session {
  user_id: number;
  email: string;
  csrf_token: string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

export type Params = Record<string, string | number | boolean | object | null | undefined>;
// biome-ignore lint/suspicious/noExplicitAny: the admin pages read the server's JSON answers field by field, untyped
export type Json = Record<string, any>;

/** Zulip's parameter encoding: strings raw, everything else as JSON. */
export function encode(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

/** Methods that change something: the server wants the session's CSRF token with them. */
const UNSAFE: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Called when the session no longer works (401), or was replaced in another tab (CSRF refused): back to start. */
export type OnUnauthorized = () => void;

export class Api {
  onUnauthorized: OnUnauthorized = () => {};
  /** The signed-in session (null: signed out, or not known yet). Memory only. */
  session: Session | null = null;

  /**
   * One call to `/json${path}`. `quiet`: a 401 is the caller's to handle (signing in with a
   * wrong password), not a lost session.
   */
  async call(method: string, path: string, params: Params = {}, body?: FormData, quiet = false): Promise<Json> {
    const headers: Record<string, string> = {};
    if (UNSAFE.has(method) && this.session) headers['x-csrftoken'] = this.session.csrf_token;
    const encoded = encode(params);
    const inQuery = method === 'GET' || body !== undefined;
    const qs = inQuery && [...encoded.keys()].length ? `?${encoded}` : '';
    let payload: BodyInit | undefined = body;
    if (!inQuery) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = encoded.toString();
    }
    let res: Response;
    try {
      res = await fetch(`/json${path}${qs}`, { method, headers, body: payload, credentials: 'same-origin' });
    } catch {
      throw new ApiError('Cannot reach the Hearth server. Is it still running?', 0, 'NETWORK');
    }
    let data: Json = {};
    try {
      data = (await res.json()) as Json;
    } catch {
      /* not JSON */
    }
    if (!res.ok || data.result !== 'success') {
      const code = typeof data.code === 'string' ? data.code : 'UNKNOWN';
      const lost = res.status === 401 || (res.status === 403 && code === 'CSRF_FAILED');
      if (lost && this.session && !quiet) {
        this.session = null;
        this.onUnauthorized();
      }
      const msg = typeof data.msg === 'string' && data.msg ? data.msg : `Request failed (HTTP ${res.status})`;
      throw new ApiError(msg, res.status, code);
    }
    return data;
  }

  get = (path: string, params?: Params) => this.call('GET', path, params);
  post = (path: string, params?: Params) => this.call('POST', path, params);
  patch = (path: string, params?: Params) => this.call('PATCH', path, params);
  delete = (path: string, params?: Params) => this.call('DELETE', path, params);
  upload = (path: string, form: FormData) => this.call('POST', path, {}, form);

  /** Whether this browser is signed in (`GET /json/session`): adopts the session, or forgets it on a 401. */
  async resume(): Promise<Session | null> {
    try {
      this.session = asSession(await this.call('GET', '/session', {}, undefined, true));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) throw err;
      this.session = null;
    }
    return this.session;
  }

  /** `POST /json/login`: the server sets the session cookie (replacing this browser's previous one). */
  async signIn(username: string, password: string): Promise<Session> {
    const s = asSession(await this.call('POST', '/login', { username, password }, undefined, true));
    this.session = s;
    return s;
  }

  /**
   * `POST /json/logout`: the session ends on the server and the cookie is cleared. Already
   * ended (401): done. Replaced in another tab (CSRF refused): that session is this browser's
   * now, so it is the one signed out. Any other failure throws, still signed in.
   */
  async signOut(): Promise<void> {
    const logout = () => this.call('POST', '/logout', {}, undefined, true);
    try {
      await logout();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'CSRF_FAILED' && (await this.resume())) await logout();
      else if (err.status !== 401) throw err;
    }
    this.session = null;
  }
}

function asSession(res: Json): Session {
  return { user_id: Number(res.user_id), email: String(res.email), csrf_token: String(res.csrf_token) };
}

/** Zulip roles. */
export const ROLES: { id: number; name: string }[] = [
  { id: 100, name: 'Owner' },
  { id: 200, name: 'Administrator' },
  { id: 300, name: 'Moderator' },
  { id: 400, name: 'Member' },
  { id: 600, name: 'Guest' },
];

export const roleName = (id: number) => ROLES.find((r) => r.id === id)?.name ?? `Role ${id}`;
