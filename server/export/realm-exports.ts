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
import { DurableJSONFile } from '../store/durable-file.js';
import { stamp } from '../lib/runtime/backup.js';
import { userSetting } from '../lib/people/settings.js';
import { writeRocketChatExport, type ExportProgress } from './rocketchat-export.js';
import { takeSnapshot } from './snapshot.js';
import { tarGzFolder } from './tar.js';

export const EXPORT_PUBLIC = 1;
export const EXPORT_STANDARD = 2;

export interface RealmExportRecord {
  id: number;
  /** Unix seconds (float), as Zulip. */
  export_time: number;
  acting_user_id: number;
  /** Relative to the data dir's `exports/` folder, once written. */
  file: string | null;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  pending: boolean;
  export_type: number;
}

interface ExportsDoc {
  nextId: number;
  exports: RealmExportRecord[];
}

export interface ExportRun {
  id: number;
  progress: ExportProgress;
  error: string | null;
}

/** Per server: the list, and the export in progress. */
export class RealmExports {
  private doc: ExportsDoc | null = null;
  private file: DurableJSONFile<ExportsDoc> | null = null;
  current: ExportRun | null = null;
  /** The organization's address as the last request saw it (events carry absolute URLs, as Zulip's). */
  private origin = '';
  private running: Promise<void> | null = null;
  /** Set from the moment a start is accepted until its export ends (one export at a time). */
  private busy = false;
  private stopping = false;

  dir(app: App): string {
    return join(app.config.dataDir, 'exports');
  }

  async list(app: App): Promise<RealmExportRecord[]> {
    return (await this.load(app)).exports;
  }

  private async load(app: App): Promise<ExportsDoc> {
    if (this.doc) return this.doc;
    this.file = new DurableJSONFile<ExportsDoc>(join(this.dir(app), 'exports.json'));
    const read = (await this.file.read()) ?? { nextId: 1, exports: [] };
    // One that was pending when the server stopped never finishes.
    for (const e of read.exports) {
      if (e.pending) {
        e.pending = false;
        e.failed_timestamp = app.clock.now() / 1000;
      }
    }
    this.doc = read;
    return read;
  }

  private save = async (): Promise<void> => {
    if (!this.doc || !this.file) return;
    await mkdir(join(this.file.file, '..'), { recursive: true, mode: 0o700 });
    await this.file.write(structuredClone(this.doc));
  };

  /** Admins see every export (Zulip sends realm_export to the organization's administrators). */
  private async announce(app: App): Promise<void> {
    const doc = this.doc!;
    const admins = app.store.users.all().filter((u) => u.is_active && !u.is_bot && u.role <= ROLE.ADMIN).map((u) => u.id);
    await commit(app, (tx) => {
      tx.touch(this.save);
      tx.emit({ type: 'realm_export', exports: doc.exports.map((e) => formatExport(e, this.origin)) }, admins);
    });
  }

  /** Starts an export; resolves with its ID once the snapshot is taken and the record saved. */
  async start(app: App, actingUserId: number, exportType: number, origin: string): Promise<number> {
    if (this.busy) throw errors.badRequest('An export is already being written; wait for it to finish.');
    this.busy = true;
    let doc: ExportsDoc;
    try {
      doc = await this.load(app);
    } catch (err) {
      this.busy = false;
      throw err;
    }
    this.origin = origin;
    this.stopping = false;
    const snap = takeSnapshot(app);
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
    this.current = run;
    try {
      await this.announce(app);
    } catch (err) {
      doc.exports.pop();
      this.current = null;
      this.busy = false;
      throw err;
    }
    const token = randomBytes(12).toString('base64url');
    const name = `hearth-export-${stamp(snap.taken)}`;
    const work = join(this.dir(app), `${record.id}.tmp`);
    this.running = (async () => {
      try {
        await rm(work, { recursive: true, force: true });
        await writeRocketChatExport(snap, join(work, name), {
          scope: exportType === EXPORT_PUBLIC ? 'public' : 'consented',
          consenting,
          onProgress: (p) => (run.progress = p.phase === 'done' ? { phase: 'packing', done: 0, total: 1 } : p),
          stopping: () => this.stopping,
        });
        const folder = join(this.dir(app), String(record.id), token);
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
        await rm(work, { recursive: true, force: true }).catch(() => undefined);
        this.busy = false;
      }
      await this.announce(app).catch((err) => app.log.error('export: could not record the result', { error: String(err) }));
    })();
    return record.id;
  }

  /** Resolves when the export in progress (if any) has finished (tests). */
  async finished(): Promise<void> {
    await this.running;
  }

  /** The server is stopping: the export in progress stops at its next step and is marked failed. */
  async cancel(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  /** DELETE /export/realm/{id}: the file goes, the record stays with deleted_timestamp. */
  async remove(app: App, id: number, origin: string): Promise<RealmExportRecord | null> {
    const doc = await this.load(app);
    this.origin = origin;
    const record = doc.exports.find((e) => e.id === id);
    if (record?.pending) throw errors.badRequest('Export still in progress');
    if (!record || record.deleted_timestamp !== null) return null;
    await rm(join(this.dir(app), String(record.id)), { recursive: true, force: true });
    record.deleted_timestamp = app.clock.now() / 1000;
    record.file = null;
    await this.announce(app);
    return record;
  }

  pathOf(app: App, record: RealmExportRecord): string | null {
    return record.file ? join(this.dir(app), record.file) : null;
  }
}

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
