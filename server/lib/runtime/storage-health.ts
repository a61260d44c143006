/**
 * Refusing writes after a failed one, and the rollback to what is on disk (the state itself,
 * `app.storageHealth`, is in ./storage-health-state.ts, which explains the whole).
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { Store } from '../../store/store.js';
import type { StorageHealth } from './storage-health-state.js';

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
  const rolledBack = rollBack(app, h);
  h.rollingBack = rolledBack;
  h.recovered = rolledBack.then(() => untilWritable(app, h));
}

/**
 * At start, on a disk that refused a write or has no room for one: serve reads and refuse every
 * change (STORAGE_FAILED) until a probe write lands. Nothing in memory differs from the disk, so
 * there is nothing to roll back.
 */
export function refuseWritesUntilSpace(app: App, reason: string): void {
  const h = app.storageHealth;
  if (h.failure) return;
  h.failure = reason;
  app.log.error('the data dir takes no writes (disk full?): serving reads, refusing changes until it does', { reason, dataDir: app.config.dataDir });
  h.recovered = untilWritable(app, h);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

async function rollBack(app: App, h: StorageHealth): Promise<void> {
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
  h.rollingBack = null;
  app.log.error('durable write failed: in-memory changes rolled back to the data on disk', { reason: h.failure, queuesDropped: dropped });
}

async function untilWritable(app: App, h: StorageHealth): Promise<void> {
  while (!(await h.probe(app.config.dataDir).catch(() => false))) await sleep(h.retryMs);
  app.log.info('the data dir accepts writes again');
  h.failure = null;
}
