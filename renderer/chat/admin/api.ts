/**
 * The organization settings' calls: the web app's one API client (`../../api.ts`), plus what a lost
 * session means here (a 401, or a CSRF token refused because another tab replaced the session):
 * signed out, so the page shows the sign-in form.
 */
import { call, type Method, type Params, sessionLost } from '../../api.js';
import { forget } from '../../session.js';
import { session } from '../store/session.js';

export { ApiError } from '../../api.js';
export type { ServerSettings } from '../store/api.js';

export async function adminCall<T>(method: Method, path: string, params: Params = {}, form?: FormData): Promise<T> {
  try {
    return await call<T>(method, path, params, { form });
  } catch (err) {
    if (sessionLost(err) && session.peek()) {
      forget();
      session.value = null;
    }
    throw err;
  }
}

/** Each call names the shape it reads (`get<ServerStatus>('/hearth/status')`). */
export const get = <T>(path: string, params?: Params) => adminCall<T>('GET', path, params);
export const post = <T>(path: string, params?: Params) => adminCall<T>('POST', path, params);
export const patch = <T>(path: string, params?: Params) => adminCall<T>('PATCH', path, params);
export const del = <T>(path: string, params?: Params) => adminCall<T>('DELETE', path, params);
export const upload = <T>(path: string, form: FormData) => adminCall<T>('POST', path, {}, form);

/** Zulip's roles. */
export const ROLES: readonly { id: number; name: string }[] = [
  { id: 100, name: 'Owner' },
  { id: 200, name: 'Administrator' },
  { id: 300, name: 'Moderator' },
  { id: 400, name: 'Member' },
  { id: 600, name: 'Guest' },
];

export const roleName = (id: number): string => ROLES.find((r) => r.id === id)?.name ?? `Role ${id}`;
