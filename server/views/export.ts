/**
 * Organization exports (Zulip's zerver/views/realm_export.py). Hearth cannot write an
 * export yet: the list is empty and a request says so. Administrators may read which
 * people allow their private data to be exported (`allow_private_data_export`).
 */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { activeUsers } from '../lib/people.js';
import { userSetting } from '../lib/user-settings.js';
import { requireAdmin } from './common.js';

/** GET /export/realm */
export function listExports(req: ApiRequest): ViewResult {
  requireAdmin(req);
  return { exports: [] };
}

/** POST /export/realm */
export function startExport(req: ApiRequest): ViewResult {
  requireAdmin(req);
  req.params.accept('export_type');
  throw errors.badRequest('This server cannot export the organization yet.');
}

/** GET /export/realm/consents: every active person (not bots) and their consent. */
export function exportConsents(req: ApiRequest): ViewResult {
  const { app } = req;
  requireAdmin(req);
  return {
    export_consents: activeUsers(app)
      .filter((u) => !u.is_bot)
      // email_address_visibility: Zulip 11 (feature level 430).
      .map((u) => ({
        user_id: u.id,
        consented: userSetting(app, u, 'allow_private_data_export') === true,
        email_address_visibility: userSetting(app, u, 'email_address_visibility'),
      })),
  };
}
