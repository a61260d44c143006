/** POST /realm/playgrounds, DELETE /realm/playgrounds/{id} (administrators, as Zulip). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doAddPlayground, doRemovePlayground } from '../actions/playgrounds.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { checkPlayground } from '../lib/realm/playgrounds.js';
import { pathInt } from './common.js';
import { requireAdmin } from '../lib/people/require.js';

export async function addPlayground(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const name = req.params.require('name', t.string).trim();
  const language = req.params.require('pygments_language', t.string).trim();
  const urlTemplate = req.params.require('url_template', t.string).trim();
  checkPlayground(req.app, name, language, urlTemplate);
  return { id: await doAddPlayground(req.app, { name, pygments_language: language, url_template: urlTemplate }) };
}

export async function removePlayground(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const id = pathInt(req, 'playground_id');
  if (!(req.app.store.realm.data.realm?.playgrounds ?? []).some((p) => p.id === id)) throw errors.badRequest('Invalid playground');
  await doRemovePlayground(req.app, id);
  return {};
}
