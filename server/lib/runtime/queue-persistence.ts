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
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../../context.js';
import type { SavedQueue } from '../../events/queue.js';
import { FEATURE_LEVEL, SERVICE_VERSION } from '../../version.js';

const FILE = 'event-queues.json';

interface SavedQueues {
  version: 1;
  maxMessageId: number;
  usersNextId: number;
  /** The server that saved them (absent: a Hearth from before this field). */
  serverVersion?: string;
  queues: SavedQueue[];
}

const fingerprint = (app: App) => ({
  maxMessageId: app.store.messages.maxId,
  usersNextId: app.store.users.collection.data.nextId,
  serverVersion: `${SERVICE_VERSION}/${FEATURE_LEVEL}`,
});

/** Writes the queues (call when no request or write is left). */
export async function saveQueues(app: App): Promise<number> {
  const queues = app.events.save();
  if (!queues.length) return 0;
  const doc: SavedQueues = { version: 1, ...fingerprint(app), queues };
  const file = join(app.config.dataDir, FILE);
  await writeFile(`${file}.tmp`, JSON.stringify(doc), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  return queues.length;
}

const isSaved = (x: unknown): x is SavedQueues => {
  const d = x as SavedQueues;
  return typeof d === 'object' && d !== null && d.version === 1 && Array.isArray(d.queues) && Number.isInteger(d.maxMessageId);
};

/** Puts saved queues back (those of users still active), then deletes the file. Returns how many. */
export async function restoreQueues(app: App): Promise<number> {
  const file = join(app.config.dataDir, FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return 0;
  }
  await unlink(file).catch(() => undefined);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    app.log.warn('event queues file unreadable: clients will re-register', { file });
    return 0;
  }
  if (!isSaved(doc)) return 0;
  const now = fingerprint(app);
  if (doc.maxMessageId !== now.maxMessageId || doc.usersNextId !== now.usersNextId) {
    app.log.info('event queues were saved against other data: clients will re-register');
    return 0;
  }
  if (doc.serverVersion !== now.serverVersion) {
    app.log.info('event queues were saved by another Hearth version: clients will re-register', { saved: doc.serverVersion ?? 'unknown' });
    return 0;
  }
  const live = doc.queues.filter((q) => q.opts.userId === null || app.store.users.get(q.opts.userId)?.is_active === true);
  return app.events.restore(live);
}
