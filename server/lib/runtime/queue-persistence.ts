/**
 * Event queues outlive a graceful restart, as Zulip's Tornado dumps and reloads
 * them: on stop, once every request has finished and every write has landed,
 * the queues (options, unacknowledged events, ids) go to `event-queues.json`;
 * the next start puts them back and deletes the file, so clients keep polling
 * the same queue instead of re-registering (the mobile app reloads everything
 * on a new queue). Nothing changes while the server is down, except when the
 * data dir itself is replaced (a backup restored): the file records the
 * store's newest message and user IDs, and queues saved against other data are
 * dropped. Queues saved by another Hearth version are dropped too: re-registering is how a
 * client learns the new feature level (Zulip tells its web app with a `restart` event).
 * After a crash there is no file, and clients re-register as before.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { App } from '../../context.js';
import type { SavedQueue } from '../../events/queue.js';
import { FEATURE_LEVEL, SERVICE_VERSION } from '../../version.js';

const FILE = 'event-queues.json';

/**
 * The file: a header line (this), then one line per queue. Written and read a line at a
 * time, so no single string holds every queue (3,000 queues of one user made one
 * `JSON.stringify` fail with "Invalid string length", and the queues were lost).
 */
interface SavedHeader {
  version: 2;
  maxMessageId: number;
  usersNextId: number;
  /** The server that saved them (absent: a Hearth from before this field). */
  serverVersion?: string;
}

/** The file of Hearth before version 2: one JSON document with the queues inside. */
interface SavedQueuesV1 extends Omit<SavedHeader, 'version'> {
  version: 1;
  queues: SavedQueue[];
}

/** How long stopping may spend writing the queues; past it they are dropped (clients re-register). */
export const QUEUE_SAVE_BUDGET_MS = 3000;

const fingerprint = (app: App) => ({
  maxMessageId: app.store.messages.maxId,
  usersNextId: app.store.users.collection.data.nextId,
  serverVersion: `${SERVICE_VERSION}/${FEATURE_LEVEL}`,
});

class SaveAbandoned extends Error {}

/**
 * Writes the queues (call when no request or write is left), a line at a time and giving the
 * loop a turn between lines. A queue too large for one string is left out (its client
 * re-registers); past `budgetMs` the whole file is given up, so stopping never hangs on it.
 */
export async function saveQueues(app: App, budgetMs = QUEUE_SAVE_BUDGET_MS): Promise<number> {
  const queues = app.events.save();
  if (!queues.length) return 0;
  const file = join(app.config.dataDir, FILE);
  const tmp = `${file}.tmp`;
  const deadline = performance.now() + budgetMs;
  let written = 0;
  async function* lines(): AsyncGenerator<string> {
    const header: SavedHeader = { version: 2, ...fingerprint(app) };
    yield `${JSON.stringify(header)}\n`;
    for (const q of queues) {
      if (performance.now() > deadline) throw new SaveAbandoned(`saving ${queues.length} queues took over ${budgetMs} ms`);
      let line: string;
      try {
        line = JSON.stringify(q);
      } catch (err) {
        app.log.warn('an event queue is too large to keep: its client will re-register', { queue: q.id, error: String(err) });
        continue;
      }
      written++;
      yield `${line}\n`;
    }
  }
  try {
    // The budget also bounds a disk that stops taking the writes.
    await pipeline(Readable.from(lines()), createWriteStream(tmp, { mode: 0o600 }), { signal: AbortSignal.timeout(Math.max(1, budgetMs)) });
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await rename(tmp, file);
  return written;
}

const isHeader = (x: unknown): x is SavedHeader | SavedQueuesV1 => {
  const d = x as SavedHeader | SavedQueuesV1;
  if (typeof d !== 'object' || d === null || !Number.isInteger(d.maxMessageId)) return false;
  return d.version === 2 || (d.version === 1 && Array.isArray(d.queues));
};

/** The file's header and its queues, read a line at a time; null when absent or unreadable. */
async function readSaved(app: App, file: string): Promise<{ header: SavedHeader | SavedQueuesV1; queues: SavedQueue[] } | null> {
  let header: SavedHeader | SavedQueuesV1 | null = null;
  const queues: SavedQueue[] = [];
  try {
    const input = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of input) {
      if (line === '') continue;
      const value: unknown = JSON.parse(line);
      if (header === null) {
        if (!isHeader(value)) return null;
        header = value;
        if (header.version === 1) queues.push(...header.queues);
      } else if (typeof value === 'object' && value !== null) {
        queues.push(value as SavedQueue);
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    app.log.warn('event queues file unreadable: clients will re-register', { file, error: String(err) });
    return null;
  }
  return header ? { header, queues } : null;
}

/** Puts saved queues back (those of users still active), then deletes the file. Returns how many. */
export async function restoreQueues(app: App): Promise<number> {
  const file = join(app.config.dataDir, FILE);
  const saved = await readSaved(app, file);
  await unlink(file).catch(() => undefined);
  if (!saved) return 0;
  const doc = saved.header;
  const now = fingerprint(app);
  if (doc.maxMessageId !== now.maxMessageId || doc.usersNextId !== now.usersNextId) {
    app.log.info('event queues were saved against other data: clients will re-register');
    return 0;
  }
  if (doc.serverVersion !== now.serverVersion) {
    app.log.info('event queues were saved by another Hearth version: clients will re-register', { saved: doc.serverVersion ?? 'unknown' });
    return 0;
  }
  const live = saved.queues.filter((q) => q.opts.userId === null || app.store.users.get(q.opts.userId)?.is_active === true);
  return app.events.restore(live);
}
