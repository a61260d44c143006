import { copyFile, lstat, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { App } from '../context.js';

export type BackupState = 'idle' | 'running' | 'done' | 'failed';

export interface BackupStatus {
  state: BackupState;
  copied_bytes: number;
  total_bytes: number;
  /** The folder the backup is written to (a new `hearth-backup-...` folder inside the chosen one). */
  destination: string | null;
  error: string | null;
}

/** Files in the data dir that are not data: the process lock, write temps and spooled uploads. */
function skipped(rel: string): boolean {
  const parts = rel.split(sep);
  return rel === 'hearth.lock' || rel.endsWith('.tmp') || (parts[0] === 'uploads' && parts[1] === 'tmp');
}

/** Regular files under `dir` (relative paths), skipping symlinks and non-data files. */
export async function listDataFiles(dir: string): Promise<{ rel: string; size: number }[]> {
  const out: { rel: string; size: number }[] = [];
  const walk = async (sub: string): Promise<void> => {
    const entries = await readdir(join(dir, sub), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const rel = sub ? join(sub, e.name) : e.name;
      if (skipped(rel)) continue;
      if (e.isDirectory()) await walk(rel);
      else if (e.isFile()) {
        const s = await lstat(join(dir, rel)).catch(() => null);
        if (s?.isFile()) out.push({ rel, size: s.size });
      }
    }
  };
  await walk('');
  return out;
}

/** Bytes of data under `dir` (what the status page calls the store size). */
export async function directorySize(dir: string): Promise<number> {
  return (await listDataFiles(dir)).reduce((sum, f) => sum + f.size, 0);
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');

/** Why a destination cannot take a backup, or null when it can. */
export async function destinationProblem(dataDir: string, destination: string): Promise<string | null> {
  if (!isAbsolute(destination)) return 'The backup folder must be an absolute path';
  const dest = resolve(destination);
  const data = resolve(dataDir);
  const rel = relative(data, dest);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return 'The backup folder cannot be inside the data folder';
  const s = await stat(dest).catch(() => null);
  if (!s) return `The backup folder ${dest} does not exist`;
  if (!s.isDirectory()) return `${dest} is not a folder`;
  return null;
}

/**
 * Copies a server's data dir, one backup at a time. Consistency: once the store has
 * settled, the single-file collections are captured from memory in one synchronous step
 * (a consistent point: actions mutate them synchronously), then every other file
 * (message segments, uploads) is copied file by file; each is replaced atomically by
 * its writer, so no copy is torn.
 */
export class BackupRunner {
  private status: BackupStatus = { state: 'idle', copied_bytes: 0, total_bytes: 0, destination: null, error: null };
  private running: Promise<void> | null = null;

  constructor(private readonly app: App) {}

  get current(): BackupStatus {
    return { ...this.status };
  }

  get isRunning(): boolean {
    return this.status.state === 'running';
  }

  /**
   * Starts a backup into a new folder inside `destination` (checked by the caller): resolves
   * once that folder exists (or creating it failed), while the copy goes on.
   */
  async start(destination: string): Promise<BackupStatus> {
    const wanted = join(resolve(destination), `hearth-backup-${stamp(this.app.clock.now())}`);
    this.status = { state: 'running', copied_bytes: 0, total_bytes: 0, destination: wanted, error: null };
    const fail = (err: unknown) => {
      this.status.state = 'failed';
      this.status.error = err instanceof Error ? err.message : String(err);
      this.app.log.error('backup failed', { destination: this.status.destination, error: this.status.error });
    };
    let target: string;
    try {
      target = await makeFreshFolder(wanted);
    } catch (err) {
      fail(err);
      return this.current;
    }
    this.status.destination = target;
    this.running = this.run(target).then(() => {
      this.status.state = 'done';
      this.app.log.info('backup done', { destination: target, bytes: this.status.copied_bytes });
    }, fail);
    return this.current;
  }

  /** Resolves when the backup in progress (if any) has finished. */
  async finished(): Promise<void> {
    await this.running;
  }

  private async run(target: string): Promise<void> {
    const { store } = this.app;
    const dataDir = this.app.config.dataDir;
    await store.settled();
    // One synchronous step: every JSON collection as of the same instant.
    const snapshots = new Map<string, string>();
    for (const c of store.collections()) snapshots.set(relative(dataDir, c.file), JSON.stringify(c.data));
    const files = await listDataFiles(dataDir);
    for (const rel of snapshots.keys()) if (!files.some((f) => f.rel === rel)) files.push({ rel, size: 0 });
    this.status.total_bytes = files.reduce(
      (sum, f) => sum + (snapshots.has(f.rel) ? Buffer.byteLength(snapshots.get(f.rel)!) : f.size),
      0,
    );
    for (const f of files) {
      const to = join(target, f.rel);
      await mkdir(join(to, '..'), { recursive: true, mode: 0o700 });
      const snap = snapshots.get(f.rel);
      if (snap !== undefined) {
        await writeFile(to, snap, { mode: 0o600 });
        this.status.copied_bytes += Buffer.byteLength(snap);
        continue;
      }
      try {
        await copyFile(join(dataDir, f.rel), to);
      } catch (err) {
        // A file removed since the listing (a compacted segment, a deleted upload) is not data any more.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          this.status.total_bytes -= f.size;
          continue;
        }
        throw err;
      }
      this.status.copied_bytes += f.size;
    }
  }
}

/** Creates `wanted`, or `wanted-2`, `wanted-3`... when a backup of the same second exists. */
async function makeFreshFolder(wanted: string): Promise<string> {
  for (let n = 1; ; n++) {
    const path = n === 1 ? wanted : `${wanted}-${n}`;
    try {
      await mkdir(path, { mode: 0o700 });
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw err;
    }
  }
}

const runners = new WeakMap<App, BackupRunner>();

/** The backup runner of a server (one per app instance). */
export function backupRunner(app: App): BackupRunner {
  let runner = runners.get(app);
  if (!runner) {
    runner = new BackupRunner(app);
    runners.set(app, runner);
  }
  return runner;
}
