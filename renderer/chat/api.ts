/**
 * The chat client's HTTP calls: Zulip's API under `/json/` with the session cookie (HttpOnly,
 * so no script ever holds a credential) and the session's CSRF token on every change.
 * Parameters are encoded as Zulip clients do: strings raw, everything else JSON.
 */
import type { ErrorCode } from '../../server/protocol/error-codes.js';

/** The server's error codes, and this client's own: no answer at all, or none in time. */
export type ApiErrorCode = ErrorCode | 'NETWORK' | 'NOT_ANSWERING';

/** An error answer's code, as the server sent it. */
const codeOf = (code: unknown): ErrorCode => String(code ?? 'BAD_REQUEST') as ErrorCode;

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

/** The CSRF token of the signed-in session (set by session.ts). */
export const csrf = { token: '' };

function encode(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

/** One call; resolves with the JSON body, rejects with ApiError (status 0: the server was not reached). */
/** What a request that never reached the server fails with (also shown by the compose box until the connection is back). */
export const NETWORK_ERROR = 'The Hearth server cannot be reached.';

export async function call<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  params: Params = {},
  opts: { signal?: AbortSignal } = {},
): Promise<T> {
  const body = encode(params);
  const inQuery = method === 'GET';
  const url = `/json${path}${inQuery && [...body.keys()].length ? `?${body}` : ''}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'x-csrftoken': csrf.token },
      body: inQuery ? undefined : body.toString(),
      signal: opts.signal,
    });
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
    throw new ApiError(res.status, codeOf(json.code), String(json.msg ?? `HTTP ${res.status}`), json);
  }
  return json as T;
}

export const get = <T = Record<string, unknown>>(path: string, params?: Params, opts?: { signal?: AbortSignal }) =>
  call<T>('GET', path, params, opts);
export const post = <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('POST', path, params);
export const patch = <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('PATCH', path, params);
export const del = <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('DELETE', path, params);

/** Uploads one file with progress (XMLHttpRequest: fetch reports no upload progress). */
export function upload(file: File, onProgress: (fraction: number) => void): Promise<{ url: string; filename: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/json/user_uploads');
    xhr.setRequestHeader('x-csrftoken', csrf.token);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'The upload was interrupted.'));
    xhr.onload = () => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        /* not JSON */
      }
      if (xhr.status === 200 && json.result === 'success') resolve({ url: String(json.url), filename: String(json.filename) });
      else reject(new ApiError(xhr.status, codeOf(json.code), String(json.msg ?? `Upload failed (HTTP ${xhr.status})`)));
    };
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** A same-origin file (the emoji data) as the browser gets it, with the session cookie. */
export const getStaticFile = (path: string): Promise<Response> => fetch(path, { credentials: 'same-origin' });

/** `GET /api/v1/server_settings` (no sign-in needed): the server's public facts; `{}` when it cannot be read. */
export const serverSettings = (): Promise<Record<string, unknown>> =>
  fetch('/api/v1/server_settings')
    .then((r) => r.json() as Promise<Record<string, unknown>>)
    .catch(() => ({}));

/** `POST /users/me/avatar`: the picture as a file upload (multipart), with the CSRF token. */
export async function uploadAvatar(file: File): Promise<void> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch('/json/users/me/avatar', { method: 'POST', body: form, headers: { 'x-csrftoken': csrf.token } });
  const json = (await res.json()) as { result: string; msg: string; code?: string };
  if (json.result !== 'success') throw new ApiError(res.status, codeOf(json.code), json.msg);
}
