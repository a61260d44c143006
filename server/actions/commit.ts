import type { App } from '../context.js';
import { errors, HearthError } from '../errors.js';
import type { Event } from '../events/types.js';
import { assertWritable, reportWriteFailure } from '../lib/runtime/storage-health.js';

/** Something whose in-memory state an action changed and that must land on disk. */
export interface Durable {
  save(): Promise<void>;
}

export interface Transaction {
  /** Marks a collection as changed; it is saved before the call answers. */
  touch(target: Durable | (() => Promise<void>)): void;
  /** Queues an event for these users (null: every queue), sent after the writes land. */
  emit(event: Event, userIds: Iterable<number> | null): void;
}

/**
 * The one way actions change state: `mutate` runs synchronously on the
 * in-memory store under an event ticket, then every touched collection is
 * written durably, then the events go out. Views validate first, so
 * `mutate` does not throw on user input.
 */
export async function commit<R>(app: App, mutate: (tx: Transaction) => R): Promise<R> {
  assertWritable(app);
  const ticket = app.events.begin();
  const saves = new Set<Durable | (() => Promise<void>)>();
  const out: { event: Event; userIds: Iterable<number> | null }[] = [];
  let result: R;
  try {
    result = mutate({
      touch: (target) => saves.add(target),
      emit: (event, userIds) => out.push({ event, userIds }),
    });
  } catch (err) {
    app.events.abandon(ticket);
    throw err;
  }
  try {
    await Promise.all([...saves].map((s) => (typeof s === 'function' ? s() : s.save())));
  } catch (err) {
    // Disk full, read-only or failing: the client hears it plainly (503), nothing is announced as
    // done, and the in-memory change is rolled back to what is on disk (lib/runtime/storage-health.ts).
    app.events.abandon(ticket);
    if (err instanceof HearthError) throw err;
    const e = err as NodeJS.ErrnoException;
    app.log.error('durable write failed', { error: e.stack ?? String(err) });
    const reason = e.code ?? e.message ?? 'write error';
    reportWriteFailure(app, reason);
    throw errors.storageFailed(reason);
  }
  for (const { event, userIds } of out) app.events.send(ticket, event, userIds);
  app.events.close(ticket);
  return result;
}
