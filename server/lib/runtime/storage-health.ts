import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { Store } from '../../store/store.js';

/**
 * What Hearth does when the disk refuses a write (full, read-only, failing).
 *
 * The action that failed has already changed the in-memory store, so the
 * store is rolled back to what is on disk: every write in flight finishes,
 * the data dir is opened again (reading only) and replaces `app.store`, and
 * every event queue is dropped, because clients may hold state that is no
 * longer true (they re-register, as Zulip clients do on BAD_EVENT_QUEUE_ID).
 * Until a probe write lands, every change is refused with a 503 before it
 * touches memory; reads keep working throughout.
 */
export interface StorageHealth {
  /** Why writes are refused (an errno code or message), or null when they are not. */
  failure: string | null;
  /** Resolves when writes are accepted again. */
  recovered: Promise<void>;
  /** Milliseconds between reload and probe attempts. */
  retryMs: number;
  /** Tries a small durable write in the data dir; tests replace it. */
  probe: (dataDir: string) => Promise<boolean>;
  /** Rollbacks done since start (status page, tests). */
  rollbacks: number;
}

/** A server's storage health at start (`app.storageHealth`): writes accepted. */
export function newStorageHealth(): StorageHealth {
  return { failure: null, recovered: Promise.resolve(), retryMs: 2000, probe: probeWrite, rollbacks: 0 };
}

/** Refuses a change while the store is being rolled back or the disk still refuses writes. */
export function assertWritable(app: App): void {
  const h = app.storageHealth;
  if (h.failure) throw errors.storageFailed(h.failure);
}

/** Called when a durable write failed: starts the rollback unless one is running. */
export function reportWriteFailure(app: App, reason: string): void {
  const h = app.storageHealth;
  if (h.failure) return;
  h.failure = reason;
  h.recovered = recover(app, h);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

async function recover(app: App, h: StorageHealth): Promise<void> {
  const old = app.store;
  for (;;) {
    try {
      app.store = await Store.reopen(old);
      break;
    } catch (err) {
      app.log.error('reloading the data dir after a failed write failed; retrying', { error: String(err) });
      await sleep(h.retryMs);
    }
  }
  h.rollbacks++;
  const dropped = app.events.deleteAll();
  app.log.error('durable write failed: in-memory changes rolled back to the data on disk', { reason: h.failure, queuesDropped: dropped });
  while (!(await h.probe(app.config.dataDir).catch(() => false))) await sleep(h.retryMs);
  app.log.info('the data dir accepts writes again');
  h.failure = null;
}

async function probeWrite(dataDir: string): Promise<boolean> {
  const file = join(dataDir, '.write-probe');
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile('x'.repeat(4096));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await unlink(file);
  return true;
}
