import type { Route } from './http/router.js';
import { fetchApiKey } from './views/auth.js';
import { createDrafts, deleteDraft, editDraft, listDrafts } from './views/drafts.js';
import { deleteQueue, getEvents } from './views/events.js';
import { register } from './views/register.js';
import { serverSettings } from './views/server-settings.js';
import { staticFile } from './views/static.js';
import { createUser, getOwnUser } from './views/users.js';

const api = (path: string) => `/api/v1${path}`;

/** The one route table. Specific paths come before parameterised ones. */
export const routes: Route[] = [
  { method: 'GET', path: api('/server_settings'), view: serverSettings, auth: 'none', needsRealm: false },
  { method: 'POST', path: api('/fetch_api_key'), view: fetchApiKey, auth: 'none' },
  { method: 'POST', path: api('/register'), view: register, auth: 'optional' },
  { method: 'GET', path: api('/events'), view: getEvents, auth: 'required' },
  { method: 'DELETE', path: api('/events'), view: deleteQueue, auth: 'required' },
  { method: 'GET', path: api('/users/me'), view: getOwnUser, auth: 'required' },
  { method: 'POST', path: api('/users'), view: createUser, auth: 'required' },
  { method: 'GET', path: '/static/:name', view: staticFile, auth: 'none', needsRealm: false },
  { method: 'GET', path: api('/drafts'), view: listDrafts, auth: 'required' },
  { method: 'POST', path: api('/drafts'), view: createDrafts, auth: 'required' },
  { method: 'PATCH', path: api('/drafts/:draft_id'), view: editDraft, auth: 'required' },
  { method: 'DELETE', path: api('/drafts/:draft_id'), view: deleteDraft, auth: 'required' },
];
