/**
 * A server's storage health as data (`app.storageHealth`): whether writes are refused after a
 * failed one. What reports a failure and rolls the store back is
 * server/lib/runtime/storage-health.ts; this file knows nothing of the App, so context.ts can
 * hold it without an import cycle.
 */
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What Hearth does when the disk refuses a write (full, read-only, failing).
 *
 * The action that failed has already changed the in-memory store, so the
 * store is rolled back to what is on disk: every write in flight finishes,
 * the data dir is opened again (reading only) and replaces `app.store`, and
 * every event queue is dropped, because clients may hold state that is no
 * longer true (they re-register, as Zulip clients do on BAD_EVENT_QUEUE_ID).
 * Until a probe write lands, every change is refused with a 503 before it
 * touches memory; reads wait for the rollback (so none sees the refused
 * change), then keep working. A start on a disk with no room for a write
 * refuses changes the same way, with nothing to roll back.
 */
export interface StorageHealth {
  /** Why writes are refused (an errno code or message), or null when they are not. */
  failure: string | null;
  /** Resolves when writes are accepted again. */
  recovered: Promise<void>;
  /**
   * While memory is being rolled back to the disk after a failed write: resolves once it is. Requests
   * wait for it before their view runs, so none reads a change whose write failed.
   */
  rollingBack: Promise<void> | null;
  /** Milliseconds between reload and probe attempts. */
  retryMs: number;
  /** Tries a small durable write in the data dir; tests replace it. */
  probe: (dataDir: string) => Promise<boolean>;
  /** Rollbacks done since start (status page, tests). */
  rollbacks: number;
}

/** A server's storage health at start (`app.storageHealth`): writes accepted. */
export function newStorageHealth(): StorageHealth {
  return { failure: null, recovered: Promise.resolve(), rollingBack: null, retryMs: 2000, probe: probeWrite, rollbacks: 0 };
}

async function probeWrite(dataDir: string): Promise<boolean> {
  const file = join(dataDir, '.write-probe');
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile('x'.repeat(4096));
    await handle.sync();
  } catch (err) {
    // What a full disk took of the probe is given back.
    await handle.close().catch(() => undefined);
    await unlink(file).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await unlink(file);
  return true;
}
