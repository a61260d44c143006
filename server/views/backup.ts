import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { destinationProblem } from '../lib/runtime/backup.js';
import { requireOwner } from '../lib/people/require.js';
import { requireAdmin } from '../lib/people/require.js';

/**
 * POST /hearth/backup (owners: a backup holds every account's password hash and API key, and all
 * private conversations): starts copying the data dir into `destination` (a folder on this machine).
 */
export async function startBackup(req: ApiRequest): Promise<ViewResult> {
  requireOwner(req);
  const destination = req.params.require('destination', t.string).trim();
  const runner = req.app.backups;
  if (runner.isRunning) throw errors.badRequest('A backup is already running');
  const problem = await destinationProblem(req.app.config.dataDir, destination);
  if (problem) throw errors.invalidVar('destination', problem);
  if (runner.isRunning) throw errors.badRequest('A backup is already running');
  return { ...(await runner.start(req.app, destination)) };
}

/** GET /hearth/backup (administrators): the state of the last backup. */
export function backupStatus(req: ApiRequest): ViewResult {
  requireAdmin(req);
  return { ...req.app.backups.current };
}
