/**
 * How the message segments reach the disk (server/store/segmented.ts): one flush at a time for the
 * whole collection (group commit), and the files of one change written all or nothing.
 *
 * A change that touches several segment files (a topic moved, a channel marked read, a topic
 * deleted) is written as a set: each file's new contents go to `<file>.next` (fsynced), then the
 * list of them to `pending-write.json` (temp file, fsync, rename, fsync of the folder: the moment
 * the change is on disk), then each `.next` is renamed over its file, the folder fsynced, and the
 * list removed (the folder fsynced again). Opening the folder finishes a set whose list is there
 * (the renames again, for the files whose `.next` is left) and removes any other `.next` (a set
 * stopped before its list was written: nothing of it counts). A write the disk refuses before the
 * list is written removes the `.next` files, so the files are as before.
 */
import { existsSync } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CorruptFileError, DurableJSONFile, fsyncFile } from './durable-file.js';

/** The list of a set of files being written together; present only while it is. */
export const PENDING_WRITE = 'pending-write.json';
const NEXT = '.next';

interface PendingWrite {
  files: string[];
}

/** Writes these files' new contents all or nothing (see the top of this file). */
export async function writeTogether(dir: string, files: { file: string; bytes: string | Buffer }[]): Promise<void> {
  const list = join(dir, PENDING_WRITE);
  const drop = () => Promise.all(files.map(({ file }) => unlink(file + NEXT).catch(() => undefined)));
  try {
    await Promise.all(files.map(({ file, bytes }) => writeSynced(file + NEXT, bytes)));
    await new DurableJSONFile<PendingWrite>(list).write({ files: files.map(({ file }) => basename(file)) });
  } catch (err) {
    // Not on disk unless the list got its name (its rename done, a later fsync refused): then it is, whole.
    if (!existsSync(list)) {
      await drop();
      throw err;
    }
    await moveIntoPlace(dir, files.map(({ file }) => basename(file))).catch(() => undefined);
    throw err;
  }
  await moveIntoPlace(dir, files.map(({ file }) => basename(file)));
}

/** The renames of a set whose list is on disk, then the list removed. Safe to repeat. */
async function moveIntoPlace(dir: string, names: string[]): Promise<void> {
  await Promise.all(
    names.map((name) =>
      rename(join(dir, name + NEXT), join(dir, name)).catch((err: NodeJS.ErrnoException) => {
        // Renamed already (a set finished again at open).
        if (err.code !== 'ENOENT') throw err;
      }),
    ),
  );
  await fsyncFile(dir);
  await unlink(join(dir, PENDING_WRITE));
  await fsyncFile(dir);
}

/**
 * At open, before any segment is read: finishes a set of files written together whose list is
 * on disk, and removes what a set stopped earlier left. Returns the files finished.
 */
export async function finishPendingWrite(dir: string, listing: string[]): Promise<string[]> {
  const stray = listing.filter((n) => n.endsWith(NEXT));
  if (!listing.includes(PENDING_WRITE) && stray.length === 0) return [];
  const list = join(dir, PENDING_WRITE);
  let names: string[] = [];
  if (listing.includes(PENDING_WRITE)) {
    const text = await readFile(list, 'utf8');
    let parsed: PendingWrite;
    try {
      parsed = JSON.parse(text) as PendingWrite;
    } catch (err) {
      throw new CorruptFileError(list, (err as Error).message);
    }
    names = Array.isArray(parsed.files) ? parsed.files.filter((n) => typeof n === 'string' && basename(n) === n) : [];
    await moveIntoPlace(dir, names);
  }
  for (const n of stray) if (!names.includes(n.slice(0, -NEXT.length))) await unlink(join(dir, n)).catch(() => undefined);
  await unlink(`${list}.tmp`).catch(() => undefined);
  return names;
}

async function writeSynced(file: string, bytes: string | Buffer): Promise<void> {
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile(bytes, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Group commit for a collection of files: requests that arrive while a flush runs are handled by
 * the next one, which starts after it. `flush` sees the requests (its synchronous part runs before
 * anything else can change the data) and answers, for each, the error that refused it, or null.
 */
export class FlushQueue<R> {
  private waiting: { req: R; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private queued = false;
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly flush: (reqs: R[]) => Promise<({ error: unknown } | null)[]>) {}

  request(req: R): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ req, resolve, reject }));
    if (!this.queued) {
      this.queued = true;
      this.tail = this.tail.then(async () => {
        this.queued = false;
        const batch = this.waiting.splice(0);
        let outcomes: ({ error: unknown } | null)[];
        try {
          outcomes = await this.flush(batch.map((w) => w.req));
        } catch (error) {
          outcomes = batch.map(() => ({ error }));
        }
        batch.forEach((w, i) => {
          const o = outcomes[i];
          if (o) w.reject(o.error);
          else w.resolve();
        });
      });
    }
    return done;
  }

  /** Resolves when every flush requested so far has finished (landed or failed). */
  async settled(): Promise<void> {
    let t: Promise<void>;
    do {
      t = this.tail;
      await t;
    } while (t !== this.tail);
  }
}

/** Saves' sets of segments joined where they share one (a set is written all or nothing). */
export function joinSets<S>(saves: Iterable<Set<S>>): Set<S>[] {
  const sets: Set<S>[] = [];
  for (const segs of saves) {
    const joined = new Set(segs);
    for (let i = sets.length - 1; i >= 0; i--) {
      if ([...sets[i]!].some((s) => joined.has(s))) for (const s of sets.splice(i, 1)[0]!) joined.add(s);
    }
    if (joined.size) sets.push(joined);
  }
  return sets;
}
