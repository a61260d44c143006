/**
 * The retention pass (Zulip's archive_messages, run daily there by cron): messages older than
 * their channel's or the organization's `message_retention_days` are deleted, with the files only
 * they linked (server/lib/messages/retention.ts has the rules). Started and stopped with the app:
 * a first pass shortly after start (`retentionFirstPassMs`), then one a day (`retentionEveryMs`).
 *
 * Each batch goes through the normal delete path (doDeleteMessages: one commit, durable before the
 * next batch starts, `delete_message` events to everyone who could read the messages, unread
 * counts and the search index kept with the store), so a stop or a crash between batches loses
 * nothing and the next pass (at the next start) carries on with what is left. Zulip's archiving
 * sends no events (its clients keep showing archived messages until they reload); Hearth's open
 * clients drop them as they would a deletion.
 *
 * The event loop is never held long: a batch is the oldest expired messages of one segment file
 * (the store writes a changed segment whole), and its turn of the loop (choosing it, deleting it in
 * memory, serialising the segment) is timed in CPU time (the process's, so a busy computer giving
 * the CPU to others does not count); the batch size follows: one message first (the first batch
 * runs code compiled on first use), doubled while turns stay well under RETENTION_AIM_MS, halved
 * above it, at most RETENTION_MAX_BATCH (Zulip's MESSAGE_BATCH_SIZE), under the bound of
 * RETENTION_SLICE_MS. Between batches the pass waits for the write and one more turn.
 */
import type { App } from '../context.js';
import { expiredMessages, retentionTargets } from '../lib/messages/retention.js';
import type { RetentionPassReport } from '../lib/messages/retention-state.js';
import type { AttachmentRecord } from '../store/attachment-records.js';
import { doDeleteMessages } from './message-delete.js';

/** The bound: no synchronous stretch of the pass may be longer. */
export const RETENTION_SLICE_MS = 20;
/** What a batch aims for, well under the bound (events and the write's completion come in later turns). */
export const RETENTION_AIM_MS = 2;
/** Zulip's MESSAGE_BATCH_SIZE. */
export const RETENTION_MAX_BATCH = 1000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs a pass now (or joins the one running); resolves with what it did. */
export function runRetentionPass(app: App): Promise<RetentionPassReport> {
  const state = app.retention;
  if (state.running) return state.running;
  const running = pass(app).finally(() => {
    if (state.running === running) state.running = null;
  });
  state.running = running;
  return running;
}

async function pass(app: App): Promise<RetentionPassReport> {
  const state = app.retention;
  const report: RetentionPassReport = { started: app.clock.now(), finished: null, messages: 0, attachments: 0, batches: 0, longestSliceMs: 0, longestSliceWallMs: 0 };
  state.last = report;
  // The first batch runs cold code (compiled on first use): one message, then doubling while turns stay short.
  state.batchSize = 1;
  while (!state.stopping) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    // Re-read every batch: settings may change, and people may delete or move messages meanwhile.
    const batch = expiredMessages(app, retentionTargets(app), state.batchSize);
    if (!batch.length) {
      report.finished = app.clock.now();
      break;
    }
    const files = new Set<AttachmentRecord>();
    for (const m of batch) for (const a of app.store.attachments.linkedTo(m.id)) files.add(a);
    const deleted = doDeleteMessages(app, batch);
    deleted.catch(() => undefined); // awaited below; a failure ends the pass there
    // The batch's turn of the loop: choosing it, deleting it in memory, serialising its segments
    // (the store's flush runs in this turn's microtasks) and whatever else this turn ran.
    await nextTurn();
    const cpu = process.cpuUsage(cpu0);
    const slice = (cpu.user + cpu.system) / 1000;
    report.longestSliceMs = Math.max(report.longestSliceMs, slice);
    report.longestSliceWallMs = Math.max(report.longestSliceWallMs, performance.now() - t0);
    if (slice > RETENTION_AIM_MS && state.batchSize > 1) state.batchSize = Math.max(1, Math.floor(state.batchSize / 2));
    else if (slice < RETENTION_AIM_MS / 3) state.batchSize = Math.min(RETENTION_MAX_BATCH, state.batchSize * 2);
    await deleted;
    report.batches++;
    report.messages += batch.length;
    for (const a of files) if (!app.store.attachments.byPathId(a.path_id)) report.attachments++;
    await nextTurn();
  }
  if (report.messages) app.log.info('retention: old messages deleted', { messages: report.messages, files: report.attachments, batches: report.batches });
  return report;
}

/** Starts the timers: the first pass `retentionFirstPassMs` after start, then every `retentionEveryMs`. */
export function startRetention(app: App): void {
  const state = app.retention;
  stopRetentionTimers(app);
  state.stopping = false;
  const run = () => {
    runRetentionPass(app).catch((err: unknown) => app.log.warn('retention pass stopped', { error: String(err) }));
  };
  const first = setTimeout(run, app.config.retentionFirstPassMs);
  const daily = setInterval(run, app.config.retentionEveryMs);
  first.unref();
  daily.unref();
  state.timers.push(first, daily);
}

function stopRetentionTimers(app: App): void {
  for (const t of app.retention.timers) clearTimeout(t);
  app.retention.timers = [];
}

/** Stops the timers and lets the batch in progress finish (its write lands); the next start carries on. */
export async function stopRetention(app: App): Promise<void> {
  stopRetentionTimers(app);
  app.retention.stopping = true;
  await app.retention.running?.catch(() => undefined);
}
