/**
 * The data dir's disk: its free space for the status page (a warning under 1 GiB or 5%), and at
 * start, whether it takes a write at all, so Hearth starts on a full disk serving reads and
 * refusing changes (lib/runtime/storage-health.ts) instead of stopping.
 */
import { statfs } from 'node:fs/promises';
import type { App } from '../../context.js';
import { HearthError } from '../../errors.js';
import { failureReason, isOutOfSpace } from '../../store/no-space.js';
import { refuseWritesUntilSpace } from './storage-health.js';

/** Under this much free space the status page warns (or under LOW_SPACE_FRACTION of the disk). */
export const LOW_SPACE_BYTES = 1024 ** 3;
export const LOW_SPACE_FRACTION = 0.05;
/** Below this much free space a start tries a probe write before taking changes. */
const START_PROBE_BELOW = 1024 * 1024;

export interface DiskSpace {
  /** Bytes Hearth may still write on the data dir's disk (statfs `bavail`). */
  free: number;
  /** The disk's size in bytes. */
  total: number;
  /** True when free space is under 1 GiB or under 5% of the disk. */
  low: boolean;
}

/** The data dir's disk space, or null when the system cannot tell. */
export async function diskSpace(dataDir: string): Promise<DiskSpace | null> {
  const fs = await statfs(dataDir).catch(() => null);
  if (!fs) return null;
  const free = fs.bavail * fs.bsize;
  const total = fs.blocks * fs.bsize;
  return { free, total, low: isLow(free, total) };
}

export function isLow(free: number, total: number): boolean {
  return free < LOW_SPACE_BYTES || (total > 0 && free < total * LOW_SPACE_FRACTION);
}

/**
 * At start: when opening the store could not write for want of space, or the disk has almost no
 * free byte and a probe write fails for want of space, the server starts refusing changes.
 */
export async function refuseWritesIfDiskFull(app: App, probeBelow = START_PROBE_BELOW): Promise<void> {
  const reason = app.store.startWriteFailure ?? (await probeWhenNearlyFull(app, probeBelow));
  if (reason) refuseWritesUntilSpace(app, reason);
}

async function probeWhenNearlyFull(app: App, probeBelow: number): Promise<string | null> {
  const space = await diskSpace(app.config.dataDir);
  if (!space || space.free >= probeBelow) return null;
  try {
    await app.storageHealth.probe(app.config.dataDir);
    return null;
  } catch (err) {
    return isOutOfSpace(err) ? failureReason(err) : null;
  }
}

/**
 * Runs a start-up step that may write (system groups, system bots, calls kept over a restart):
 * when the data dir refuses the write (STORAGE_FAILED) the start goes on, and the step is
 * retried at the next start.
 */
export async function startStep(app: App, what: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (!(err instanceof HearthError) || err.code !== 'STORAGE_FAILED') throw err;
    app.log.warn(`${what}: not saved, the data dir takes no writes; retried at the next start`, { reason: app.storageHealth.failure });
  }
}
