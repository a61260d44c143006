/** POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence (Zulip's presence.py). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doUpdatePresence } from '../actions/presence.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { userByKeyFor } from '../lib/people/lookup.js';
import { legacyEntry, legacyPresences, modernPresences } from '../lib/people/presence.js';
import { userSetting } from '../lib/people/settings.js';
import { requireUser } from '../lib/people/require.js';

export async function updatePresence(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const status = params.require('status', t.string);
  if (status !== 'active' && status !== 'idle') throw errors.badRequest(`Invalid status: ${status}`);
  const pingOnly = params.get('ping_only', t.bool, false);
  const slim = params.get('slim_presence', t.bool, false);
  const lastUpdateId = params.get('last_update_id', t.int);
  const historyDays = params.get('history_limit_days', t.int);
  params.accept('new_user_input');
  await doUpdatePresence(app, user, status);
  if (pingOnly) return {};
  const modern = lastUpdateId !== undefined || slim;
  return {
    presences: modern
      ? modernPresences(app, user, {
          ...(lastUpdateId !== undefined && lastUpdateId >= 0 ? { sinceUpdateId: lastUpdateId } : {}),
          ...(historyDays !== undefined ? { historyDays } : {}),
        })
      : legacyPresences(app, user),
    server_timestamp: app.clock.now() / 1000,
    zephyr_mirror_active: false,
    presence_last_update_id: app.presence.lastUpdateId,
  };
}

export function realmPresence(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  return { presences: legacyPresences(req.app, user), server_timestamp: req.app.clock.now() / 1000 };
}

export function userPresence(req: ApiRequest): ViewResult {
  const { app } = req;
  const viewer = requireUser(req);
  const key = req.path.user_id_or_email ?? ''; // decoded once by the router
  const target = userByKeyFor(app, viewer, key);
  if (!target) throw errors.badRequest('No such user');
  const row = app.presence.rows.get(target.id);
  if (!row || userSetting(app, target, 'presence_enabled') === false) throw errors.badRequest(`No presence data for ${target.email}`);
  return { presence: legacyEntry(row, Math.floor(app.clock.now() / 1000)) };
}
