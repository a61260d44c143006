/**
 * Zulip's organization exports API (zerver/views/realm_export.py) over Hearth's export for
 * Zulip's importer: POST /export/realm takes a snapshot at once (one instant), writes the
 * Rocket.Chat-shaped folder in the background, packs it as `.tar.gz` under `exports/` in the
 * data dir, and announces each change with a `realm_export` event to the administrators, as
 * Zulip does. Export type 1 (public) holds public channels only; type 2 (standard) adds
 * private channels and direct messages of people who allow it (`allow_private_data_export`).
 * The list is kept in `exports/exports.json`; an export that was running when the server
 * stopped is marked failed at the next start.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../context.js';
import { commit } from '../actions/commit.js';
import { errors } from '../errors.js';
import { ROLE } from '../store/records.js';
import { stamp } from '../lib/runtime/backup.js';
import { userSetting } from '../lib/people/settings.js';
import type { RealmExportRecord, ExportRun, ExportsDoc } from './export-state.js';
import { writeRocketChatExport } from './rocketchat-export.js';
import { takeSnapshot, type Snapshot } from './snapshot.js';
import { tarGzFolder } from './tar.js';

export const EXPORT_PUBLIC = 1;
export const EXPORT_STANDARD = 2;

/** Where exports are written: `exports/` in the data dir. */
export const exportsDir = (app: App): string => join(app.config.dataDir, 'exports');

const loadExports = (app: App): Promise<ExportsDoc> => app.exports.load(exportsDir(app), app.clock.now() / 1000);

export async function listRealmExports(app: App): Promise<RealmExportRecord[]> {
  return (await loadExports(app)).exports;
}

/** Admins see every export (Zulip sends realm_export to the organization's administrators). */
async function announce(app: App): Promise<void> {
  const state = app.exports;
  const doc = state.doc!;
  const admins = app.store.users.all().filter((u) => u.is_active && !u.is_bot && u.role <= ROLE.ADMIN).map((u) => u.id);
  await commit(app, (tx) => {
    tx.touch(state.save);
    tx.emit({ type: 'realm_export', exports: doc.exports.map((e) => formatExport(e, state.origin)) }, admins);
  });
}

/** Starts an export; resolves with its ID once the snapshot is taken and the record saved. */
export async function startRealmExport(app: App, actingUserId: number, exportType: number, origin: string): Promise<number> {
  const state = app.exports;
  if (state.busy) throw errors.badRequest('An export is already being written; wait for it to finish.');
  state.busy = true;
  let doc: ExportsDoc;
  try {
    doc = await loadExports(app);
  } catch (err) {
    state.busy = false;
    throw err;
  }
  state.origin = origin;
  state.stopping = false;
  let snap: Snapshot;
  try {
    snap = takeSnapshot(app);
  } catch (err) {
    state.busy = false;
    // Its messages' links (exports/.snapshot-*) could not be made: a full or read-only disk.
    const code = (err as NodeJS.ErrnoException).code;
    if (code) throw errors.storageFailed(code);
    throw err;
  }
  const consenting = new Set(snap.users.filter((u) => userSetting(app, u, 'allow_private_data_export') === true).map((u) => u.id));
  const record: RealmExportRecord = {
    id: doc.nextId++,
    export_time: app.clock.now() / 1000,
    acting_user_id: actingUserId,
    file: null,
    deleted_timestamp: null,
    failed_timestamp: null,
    pending: true,
    export_type: exportType,
  };
  doc.exports.push(record);
  const run: ExportRun = { id: record.id, progress: { phase: 'people and channels', done: 0, total: 1 }, error: null };
  state.current = run;
  try {
    await announce(app);
  } catch (err) {
    doc.exports.pop();
    state.current = null;
    state.busy = false;
    snap.messages.release();
    throw err;
  }
  const token = randomBytes(12).toString('base64url');
  const name = `hearth-export-${stamp(snap.taken)}`;
  const work = join(exportsDir(app), `${record.id}.tmp`);
  state.running = (async () => {
    try {
      await rm(work, { recursive: true, force: true });
      await writeRocketChatExport(snap, join(work, name), {
        scope: exportType === EXPORT_PUBLIC ? 'public' : 'consented',
        consenting,
        onProgress: (p) => (run.progress = p.phase === 'done' ? { phase: 'packing', done: 0, total: 1 } : p),
        stopping: () => state.stopping,
      });
      const folder = join(exportsDir(app), String(record.id), token);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await tarGzFolder(join(work, name), name, join(folder, `${name}.tar.gz`));
      record.file = `${record.id}/${token}/${name}.tar.gz`;
      record.pending = false;
      run.progress = { phase: 'done', done: 1, total: 1 };
    } catch (err) {
      record.pending = false;
      record.failed_timestamp = app.clock.now() / 1000;
      run.error = err instanceof Error ? err.message : String(err);
      app.log.error('export failed', { id: record.id, error: run.error });
    } finally {
      // Released by writeRocketChatExport; here too, for a failure before it began.
      snap.messages.release();
      await rm(work, { recursive: true, force: true }).catch(() => undefined);
      state.busy = false;
    }
    await announce(app).catch((err) => app.log.error('export: could not record the result', { error: String(err) }));
  })();
  return record.id;
}

/** DELETE /export/realm/{id}: the file goes, the record stays with deleted_timestamp. */
export async function removeRealmExport(app: App, id: number, origin: string): Promise<RealmExportRecord | null> {
  const doc = await loadExports(app);
  app.exports.origin = origin;
  const record = doc.exports.find((e) => e.id === id);
  if (record?.pending) throw errors.badRequest('Export still in progress');
  if (!record || record.deleted_timestamp !== null) return null;
  await rm(join(exportsDir(app), String(record.id)), { recursive: true, force: true });
  record.deleted_timestamp = app.clock.now() / 1000;
  record.file = null;
  await announce(app);
  return record;
}

export const realmExportPath = (app: App, record: RealmExportRecord): string | null =>
  record.file ? join(exportsDir(app), record.file) : null;

/** The API's shape of an export (Zulip's RealmExport); `origin` makes the URL absolute. */
export function formatExport(e: RealmExportRecord, origin: string): Record<string, unknown> {
  return {
    id: e.id,
    export_time: e.export_time,
    acting_user_id: e.acting_user_id,
    export_url: e.file && e.deleted_timestamp === null ? `${origin}/hearth/exports/${e.file}` : null,
    deleted_timestamp: e.deleted_timestamp,
    failed_timestamp: e.failed_timestamp,
    pending: e.pending,
    export_type: e.export_type,
  };
}
