/**
 * The web app's one API client, for the chat (`chat/api.ts` adds its uploads) and the admin pages:
 * Zulip's HTTP API under `/json/`, signed in by the browser session (server/API.md: Browser
 * sessions): an HttpOnly cookie the page cannot read, plus the session's CSRF token on every
 * change, kept in memory only (`session.ts`; a reloaded page asks `GET /json/session` again).
 * The page never holds the API key. Parameters are encoded as Zulip clients do: strings raw,
 * everything else JSON. Plain ES module with no package imports: the admin pages load it as is.
 */
import type { ErrorCode } from '../server/protocol/error-codes.js';

/** The server's error codes, and this client's own: no answer at all, or none in time. */
export type ApiErrorCode = ErrorCode | 'NETWORK' | 'NOT_ANSWERING';

/** An error answer's code, as the server sent it. */
export const codeOf = (code: unknown): ErrorCode => String(code ?? 'BAD_REQUEST') as ErrorCode;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export type Params = Record<string, unknown>;

/** The CSRF token of the signed-in session (set by session.ts; empty: signed out). */
export const csrf = { token: '' };

/** Zulip's parameter encoding: strings raw, everything else as JSON. */
export function encode(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

/** What a request that never reached the server fails with (also shown by the compose box until the connection is back). */
export const NETWORK_ERROR = 'The Hearth server cannot be reached.';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface CallOptions {
  signal?: AbortSignal;
  /** A multipart body (an upload): the parameters then go in the query string. */
  form?: FormData;
}

/** One call; resolves with the JSON body, rejects with ApiError (status 0: the server was not reached). */
export async function call<T = Record<string, unknown>>(method: Method, path: string, params: Params = {}, opts: CallOptions = {}): Promise<T> {
  const body = encode(params);
  const inQuery = method === 'GET' || opts.form !== undefined;
  const url = `/json${path}${inQuery && [...body.keys()].length ? `?${body}` : ''}`;
  const headers: Record<string, string> = method === 'GET' ? {} : { 'x-csrftoken': csrf.token };
  if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
  let res: Response;
  try {
    res = await fetch(url, { method, credentials: 'same-origin', headers, body: inQuery ? opts.form : body.toString(), signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR);
  }
  let json: Record<string, unknown> = {};
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON: a proxy or a crash page */
  }
  if (!res.ok || json.result !== 'success') {
    const msg = typeof json.msg === 'string' && json.msg ? json.msg : `Request failed (HTTP ${res.status})`;
    throw new ApiError(res.status, codeOf(json.code), msg, json);
  }
  return json as T;
}

export const get = <T = Record<string, unknown>>(path: string, params?: Params, opts?: { signal?: AbortSignal }) =>
  call<T>('GET', path, params, opts);
export const post = <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('POST', path, params);
export const patch = <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('PATCH', path, params);
export const del = <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('DELETE', path, params);

/** Whether an error means the session is gone: ended (401), or replaced in another tab (CSRF refused). */
export const sessionLost = (err: unknown): boolean =>
  err instanceof ApiError && (err.status === 401 || (err.status === 403 && err.code === 'CSRF_FAILED'));
