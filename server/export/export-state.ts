/**
 * A server's organization exports as data (`app.exports`): the list kept in `exports/exports.json`
 * and the export in progress. What reads and changes it is server/export/realm-exports.ts; this
 * file knows nothing of the App, so context.ts can hold it without an import cycle.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DurableJSONFile } from '../store/durable-file.js';

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

export interface ExportsDoc {
  nextId: number;
  exports: RealmExportRecord[];
}

/** How far an export has got (server/export/rocketchat-export.ts reports it). */
export interface ExportProgress {
  phase: 'people and channels' | 'messages' | 'uploads' | 'custom emoji' | 'packing' | 'done';
  done: number;
  total: number;
}

export interface ExportRun {
  id: number;
  progress: ExportProgress;
  error: string | null;
}

/** Per server: the list, and the export in progress. */
export class RealmExports {
  doc: ExportsDoc | null = null;
  private file: DurableJSONFile<ExportsDoc> | null = null;
  current: ExportRun | null = null;
  /** The organization's address as the last request saw it (events carry absolute URLs, as Zulip's). */
  origin = '';
  running: Promise<void> | null = null;
  /** Set from the moment a start is accepted until its export ends (one export at a time). */
  busy = false;
  stopping = false;

  /** The list, read from `dir` the first time; `nowSeconds` marks one left pending by a stopped server failed. */
  async load(dir: string, nowSeconds: number): Promise<ExportsDoc> {
    if (this.doc) return this.doc;
    this.file = new DurableJSONFile<ExportsDoc>(join(dir, 'exports.json'));
    const read = (await this.file.read()) ?? { nextId: 1, exports: [] };
    // One that was pending when the server stopped never finishes.
    for (const e of read.exports) {
      if (e.pending) {
        e.pending = false;
        e.failed_timestamp = nowSeconds;
      }
    }
    this.doc = read;
    return read;
  }

  readonly save = async (): Promise<void> => {
    if (!this.doc || !this.file) return;
    await mkdir(join(this.file.file, '..'), { recursive: true, mode: 0o700 });
    await this.file.write(structuredClone(this.doc));
  };

  /** Resolves when the export in progress (if any) has finished (tests). */
  async finished(): Promise<void> {
    await this.running;
  }

  /** The server is stopping: the export in progress stops at its next step and is marked failed. */
  async cancel(): Promise<void> {
    this.stopping = true;
    await this.running;
  }
}
