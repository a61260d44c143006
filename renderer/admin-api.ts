/**
 * The admin pages' handle on the web app's one API client (`api.ts`) and sign-in path
 * (`session.ts`, the chat's too): the same calls, plus what the admin does when the session is
 * lost (a 401, or a CSRF token refused because another tab replaced the session): start over.
 */
import { call, type Method, type Params, sessionLost } from './api.js';
import { current, forget, resume, type Session, signIn, signOut } from './session.js';

export { ApiError } from './api.js';

/** An answer whose fields the caller does not read (each page names the shape it reads). */
export type Answer = Record<string, unknown>;

/** Called when the session no longer works (401), or was replaced in another tab (CSRF refused): back to start. */
export type OnUnauthorized = () => void;

export class Api {
  onUnauthorized: OnUnauthorized = () => {};

  /** The signed-in session (null: signed out, or not known yet). Memory only (session.ts). */
  get session(): Session | null {
    return current.session;
  }

  /** One call to `/json${path}`; a lost session (while one was held) also starts the page over. */
  async call<T = Answer>(method: Method, path: string, params: Params = {}, form?: FormData): Promise<T> {
    try {
      return await call<T>(method, path, params, { form });
    } catch (err) {
      if (sessionLost(err) && current.session) {
        forget();
        this.onUnauthorized();
      }
      throw err;
    }
  }

  get = <T = Answer>(path: string, params?: Params) => this.call<T>('GET', path, params);
  post = <T = Answer>(path: string, params?: Params) => this.call<T>('POST', path, params);
  patch = <T = Answer>(path: string, params?: Params) => this.call<T>('PATCH', path, params);
  delete = <T = Answer>(path: string, params?: Params) => this.call<T>('DELETE', path, params);
  upload = <T = Answer>(path: string, form: FormData) => this.call<T>('POST', path, {}, form);

  /** Whether this browser is signed in (`GET /json/session`). */
  resume = (): Promise<Session | null> => resume();
  /** `POST /json/login` (a wrong password is the caller's to show, not a lost session). */
  signIn = (username: string, password: string): Promise<Session> => signIn(username, password);
  signOut = (): Promise<void> => signOut();
}

/** What the admin pages read of `GET /server_settings` (no sign-in needed). */
export interface ServerSettings {
  realm_name?: string;
  realm_description?: string;
  realm_icon?: string;
  hearth_demo_organization?: boolean;
  hearth_https_port?: number | null;
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
