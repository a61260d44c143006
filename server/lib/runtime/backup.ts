import { linkSync, mkdirSync } from 'node:fs';
import { copyFile, lstat, mkdir, open, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../log.js';
import type { Store } from '../../store/store.js';

export type BackupState = 'idle' | 'running' | 'done' | 'failed';

export interface BackupStatus {
  state: BackupState;
  copied_bytes: number;
  total_bytes: number;
  /** The folder the backup is written to (a new `hearth-backup-...` folder inside the chosen one). */
  destination: string | null;
  error: string | null;
}

/** Hard links to the message files as of a backup's snapshot, inside the data dir while it runs. */
const STAGING = '.backup-staging';
/** In a backup folder until the last byte is on disk. */
const INCOMPLETE = 'INCOMPLETE-BACKUP.txt';

/**
 * Files in the data dir that are not data: the process lock, write temps, spooled uploads, a
 * backup's staging links; organization exports (`exports/`, made again at will); and `tls/`, whose authority key never leaves the data dir (a
 * restored backup makes a new authority, which devices trust again).
 */
function skipped(rel: string): boolean {
  const parts = rel.split(sep);
  return (
    rel === 'hearth.lock' ||
    parts[0] === 'tls' ||
    parts[0] === 'exports' ||
    rel === '.write-probe' ||
    rel.endsWith('.tmp') ||
    parts[0] === STAGING ||
    (parts[0] === 'uploads' && parts[1] === 'tmp')
  );
}

/** fsync a file or folder (folders: best effort, Windows cannot open them). */
async function syncPath(path: string, folder = false): Promise<void> {
  let handle;
  try {
    handle = await open(path, folder ? 'r' : 'r+');
  } catch (err) {
    if (folder) return;
    throw err;
  }
  try {
    await handle.sync();
  } catch (err) {
    if (!folder) throw err;
  } finally {
    await handle.close();
  }
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

/** `20261125-083412`: a time for folder and file names (backups, exports). */
export const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');

/** Why a destination cannot take a backup, or null when it can. */
export async function destinationProblem(dataDir: string, destination: string): Promise<string | null> {
  if (!isAbsolute(destination)) return 'The backup folder must be an absolute path';
  // A network share (\\server\share, //server/share): the data would leave this computer.
  if (/^[\\/]{2}/.test(destination)) return 'The backup folder must be on this computer, not a network share';
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
 * What a backup uses of its server (the App, passed whole: `store` is read when the snapshot is
 * taken, after a rollback may have replaced it). Named here so this file, which context.ts
 * holds as `app.backups`, needs nothing of the App.
 */
export interface BackupSource {
  readonly store: Store;
  readonly clock: Clock;
  readonly log: Logger;
  readonly config: { readonly dataDir: string };
}

/** One file of a backup: taken from `text` (a snapshot in memory) or copied from `source`. */
interface Entry {
  rel: string;
  size: number;
  text?: string;
  source?: string;
}

/**
 * Copies a server's data dir, one backup at a time, as of one instant. Once the
 * store has settled, one synchronous step (actions mutate memory synchronously,
 * so nothing changes during it) captures the single-file collections from
 * memory and the message files: a file with no write in flight or failed is
 * hard-linked into a staging folder in the data dir (a later write renames a new
 * file over the name, the link keeps this one), the others are serialized from
 * memory. Messages sent afterwards are not in the backup, so it never holds a
 * message whose channel or sender it lacks. Uploads, avatars and emoji images
 * (written once, never changed) are copied as they are. Every file is fsynced;
 * the folder holds INCOMPLETE-BACKUP.txt until the end, and a failed backup is
 * removed. One per server (`app.backups`).
 */
export class BackupRunner {
  private status: BackupStatus = { state: 'idle', copied_bytes: 0, total_bytes: 0, destination: null, error: null };
  private running: Promise<void> | null = null;
  /** Set when the server stops: the copy ends at the next file and the partial folder is removed. */
  private stopping = false;
  /** Tests: runs right after the snapshot, before any byte is copied. */
  afterSnapshot: (() => Promise<void>) | null = null;

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
  async start(app: BackupSource, destination: string): Promise<BackupStatus> {
    const wanted = join(resolve(destination), `hearth-backup-${stamp(app.clock.now())}`);
    this.stopping = false;
    this.status = { state: 'running', copied_bytes: 0, total_bytes: 0, destination: wanted, error: null };
    const fail = (err: unknown) => {
      this.status.state = 'failed';
      this.status.error = err instanceof Error ? err.message : String(err);
      app.log.error('backup failed', { destination: this.status.destination, error: this.status.error });
    };
    let target: string;
    try {
      target = await makeFreshFolder(wanted);
      await writeFile(
        join(target, INCOMPLETE),
        'This backup did not finish (Hearth stopped or the copy failed). Do not restore from it.\n',
        { mode: 0o600 },
      );
    } catch (err) {
      fail(err);
      return this.current;
    }
    this.status.destination = target;
    this.running = this.run(app, target).then(
      () => {
        this.status.state = 'done';
        app.log.info('backup done', { destination: target, bytes: this.status.copied_bytes });
      },
      async (err) => {
        fail(err);
        // Half a backup is worse than none: it looks restorable. (Best effort: the disk may be gone.)
        await rm(target, { recursive: true, force: true }).catch(() => undefined);
      },
    );
    return this.current;
  }

  /** Resolves when the backup in progress (if any) has finished. */
  async finished(): Promise<void> {
    await this.running;
  }

  /**
   * Stopping the server (quitting the desktop app) during a backup: the copy stops after the
   * file in progress, the partial folder is removed (it would look restorable), and the
   * status says why. Resolves once that is done; no-op when no backup runs.
   */
  async cancel(): Promise<void> {
    if (!this.isRunning) return;
    this.stopping = true;
    await this.running;
  }

  private async run(app: BackupSource, target: string): Promise<void> {
    const dataDir = app.config.dataDir;
    const staging = join(dataDir, STAGING);
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { mode: 0o700 });
    try {
      const entries = await this.snapshot(app, dataDir, staging);
      if (this.afterSnapshot) await this.afterSnapshot();
      this.status.total_bytes = entries.reduce((sum, e) => sum + e.size, 0);
      const folders = new Set<string>([target]);
      for (const e of entries) {
        if (this.stopping) throw new Error('Hearth stopped before the backup finished; the partial copy was removed.');
        const to = join(target, e.rel);
        for (let d = dirname(to); d.startsWith(target) && !folders.has(d); d = dirname(d)) folders.add(d);
        await mkdir(dirname(to), { recursive: true, mode: 0o700 });
        if (e.text !== undefined) {
          await writeFile(to, e.text, { mode: 0o600 });
        } else {
          try {
            await copyFile(e.source!, to);
          } catch (err) {
            // An upload deleted since the listing is not data any more.
            if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
              this.status.total_bytes -= e.size;
              continue;
            }
            throw err;
          }
        }
        await syncPath(to);
        this.status.copied_bytes += e.size;
      }
      await unlink(join(target, INCOMPLETE));
      for (const d of [...folders].sort((a, b) => b.length - a.length)) await syncPath(d, true);
      await syncPath(dirname(target), true);
    } finally {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** What the backup holds: the collections and message files as of one instant, then the other files. */
  private async snapshot(app: BackupSource, dataDir: string, staging: string): Promise<Entry[]> {
    const { store } = app;
    await store.settled();
    const entries: Entry[] = [];
    const taken = new Set<string>();
    // --- One synchronous step from here: no action can run in between. ---
    for (const c of store.collections()) {
      const text = JSON.stringify(c.data);
      entries.push({ rel: relative(dataDir, c.file), size: Buffer.byteLength(text), text });
    }
    const madeDirs = new Set<string>();
    for (const f of store.messages.files()) {
      const rel = relative(dataDir, f.file);
      taken.add(rel);
      if (f.clean) {
        const link = join(staging, rel);
        try {
          if (!madeDirs.has(dirname(link))) {
            mkdirSync(dirname(link), { recursive: true, mode: 0o700 });
            madeDirs.add(dirname(link));
          }
          linkSync(f.file, link);
          entries.push({ rel, size: -1, source: link });
          continue;
        } catch (err) {
          // Never written (a last-id file not needed yet): nothing to back up.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
          // No hard links on this file system: take it from memory.
        }
      }
      const text = JSON.stringify(f.data);
      entries.push({ rel, size: Buffer.byteLength(text), text });
    }
    // --- End of the synchronous step. ---
    for (const c of store.collections()) taken.add(relative(dataDir, c.file));
    for (const e of entries) if (e.size < 0) e.size = (await stat(e.source!)).size;
    const messagesDir = relative(dataDir, store.messages.items.dir);
    for (const f of await listDataFiles(dataDir)) {
      // Message files written after the snapshot are not in it.
      if (taken.has(f.rel) || f.rel.startsWith(messagesDir + sep)) continue;
      entries.push({ rel: f.rel, size: f.size, source: join(dataDir, f.rel) });
    }
    return entries;
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
