/**
 * Organization exports (Zulip's zerver/views/realm_export.py): the export is the folder Zulip's
 * Rocket.Chat converter reads, packed as .tar.gz (server/export/). Administrators list them and
 * make public exports; a standard export (private data of people who allow it) takes an owner,
 * as in Zulip. Administrators may read which people allow their private data to be exported.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { activeUsers } from '../lib/people/people.js';
import { userSetting } from '../lib/people/settings.js';
import {
  EXPORT_PUBLIC,
  EXPORT_STANDARD,
  formatExport,
  listRealmExports,
  realmExportPath,
  removeRealmExport,
  startRealmExport,
} from '../export/realm-exports.js';
import { ROLE } from '../store/records.js';
import { baseUrl } from './common.js';
import { requireAdmin } from '../lib/people/require.js';

/** GET /export/realm */
export async function listExports(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const origin = baseUrl(req);
  return { exports: (await listRealmExports(req.app)).map((e) => formatExport(e, origin)) };
}

/** POST /export/realm */
export async function startExport(req: ApiRequest): Promise<ViewResult> {
  const user = requireAdmin(req);
  const exportType = req.params.get('export_type', t.int, EXPORT_PUBLIC);
  if (exportType !== EXPORT_PUBLIC && exportType !== EXPORT_STANDARD) throw errors.invalidVar('export_type');
  if (exportType === EXPORT_STANDARD && user.role !== ROLE.OWNER) throw errors.ownerRequired();
  const id = await startRealmExport(req.app, user.id, exportType, baseUrl(req));
  return { id };
}

/** DELETE /export/realm/{export_id} */
export async function deleteExport(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const id = Number(req.path.export_id);
  const removed = Number.isSafeInteger(id) ? await removeRealmExport(req.app, id, baseUrl(req)) : null;
  if (!removed) throw errors.badRequest('Invalid data export ID');
  return {};
}

/** GET /hearth/export (administrators): how far the export being written has got. */
export function exportProgress(req: ApiRequest): ViewResult {
  requireAdmin(req);
  const run = req.app.exports.current;
  if (!run) return { export: null };
  return { export: { id: run.id, phase: run.progress.phase, done: run.progress.done, total: run.progress.total, error: run.error } };
}

/** GET /hearth/exports/{id}/{token}/{name}: the file (administrators, signed in). */
export async function downloadExport(req: ApiRequest): Promise<void> {
  requireAdmin(req);
  const { id, token, name } = req.path;
  const record = (await listRealmExports(req.app)).find((e) => e.file === `${id}/${token}/${name}`);
  const path = record ? realmExportPath(req.app, record) : null;
  const size = path ? await stat(path).then((s) => s.size).catch(() => null) : null;
  if (!record || !path || size === null) throw errors.notFound('No such export (it may have been deleted)');
  const ctx = req.koa;
  ctx.type = 'application/gzip';
  ctx.length = size;
  ctx.set('Content-Disposition', `attachment; filename="${name}"`);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = createReadStream(path);
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
