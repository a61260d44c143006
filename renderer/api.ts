/**
 * The admin UI's only way to the server: its HTTP API (Zulip's wire format). Credentials
 * (email + API key from `fetch_api_key` or setup) live in sessionStorage: per tab, gone when
 * the window closes, never sent automatically (so no CSRF); see README "Admin UI".
 */

export interface Credentials {
  email: string;
  api_key: string;
  user_id: number;
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
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

const KEY = 'hearth-admin-credentials';

export function loadCredentials(): Credentials | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const c = raw ? (JSON.parse(raw) as Credentials) : null;
    return c && typeof c.email === 'string' && typeof c.api_key === 'string' ? c : null;
  } catch {
    return null;
  }
}

export function saveCredentials(c: Credentials | null): void {
  if (c) sessionStorage.setItem(KEY, JSON.stringify(c));
  else sessionStorage.removeItem(KEY);
}

function basicAuth(c: Credentials): string {
  const bytes = new TextEncoder().encode(`${c.email}:${c.api_key}`);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return `Basic ${btoa(bin)}`;
}

/** Zulip's parameter encoding: strings raw, everything else as JSON. */
export function encode(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

/** Called when the server says the credentials no longer work (401): back to sign-in. */
export type OnUnauthorized = () => void;

export class Api {
  onUnauthorized: OnUnauthorized = () => {};

  constructor(public credentials: Credentials | null) {}

  async call(method: string, path: string, params: Params = {}, body?: FormData): Promise<Json> {
    const headers: Record<string, string> = {};
    if (this.credentials) headers.authorization = basicAuth(this.credentials);
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
      res = await fetch(`/api/v1${path}${qs}`, { method, headers, body: payload, credentials: 'omit' });
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
      if (res.status === 401 && this.credentials) this.onUnauthorized();
      const msg = typeof data.msg === 'string' && data.msg ? data.msg : `Request failed (HTTP ${res.status})`;
      throw new ApiError(msg, res.status, typeof data.code === 'string' ? data.code : 'UNKNOWN');
    }
    return data;
  }

  get = (path: string, params?: Params) => this.call('GET', path, params);
  post = (path: string, params?: Params) => this.call('POST', path, params);
  patch = (path: string, params?: Params) => this.call('PATCH', path, params);
  delete = (path: string, params?: Params) => this.call('DELETE', path, params);
  upload = (path: string, form: FormData) => this.call('POST', path, {}, form);
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
