/**
 * The chat client's HTTP calls: the web app's one API client (`../api.ts`: Zulip's API under
 * `/json/` with the session cookie and the session's CSRF token on every change), plus what only
 * the chat does: uploads with progress, the emoji data, the server's public settings, the avatar.
 */
import { ApiError, codeOf, csrf } from '../../api.js';

export { ApiError, NETWORK_ERROR, call, csrf, del, get, patch, post } from '../../api.js';
export type { ApiErrorCode, Params } from '../../api.js';

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

/** `GET /json/server_settings` (no sign-in needed): the server's public facts; `{}` when it cannot be read. */
/** What the web app reads of `GET /server_settings` (no sign-in needed). */
export interface ServerSettings {
  realm_name?: string;
  realm_description?: string;
  realm_icon?: string;
  hearth_demo_organization?: boolean;
  hearth_https_port?: number | null;
}

export const serverSettings = (): Promise<ServerSettings> =>
  fetch('/json/server_settings', { credentials: 'same-origin' })
    .then((r) => r.json() as Promise<ServerSettings>)
    .catch(() => ({}));

/** `POST /users/me/avatar`: the picture as a file upload (multipart), with the CSRF token. */
export async function uploadAvatar(file: File): Promise<void> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch('/json/users/me/avatar', { method: 'POST', body: form, headers: { 'x-csrftoken': csrf.token } });
  const json = (await res.json()) as { result: string; msg: string; code?: string };
  if (json.result !== 'success') throw new ApiError(res.status, codeOf(json.code), json.msg);
}
