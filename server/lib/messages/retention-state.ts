/**
 * The retention pass's state, held by the App (`app.retention`; the rules are in retention.ts, the
 * pass and its timer in actions/retention.ts). Apart from retention.ts so context.ts can name it
 * without a cycle.
 */

/** What the last pass did (ms since the epoch by the app's clock). */
export interface RetentionPassReport {
  started: number;
  finished: number | null;
  messages: number;
  attachments: number;
  batches: number;
  /**
   * The longest turn of the event loop a batch took (choosing it, deleting it in memory,
   * serialising its segments), in CPU time (the process's, so a busy computer that takes the CPU
   * away does not count), and the same on the wall clock.
   */
  longestSliceMs: number;
  longestSliceWallMs: number;
}

export interface RetentionState {
  /** The first pass after start, then the daily one. */
  timers: NodeJS.Timeout[];
  /** The pass in progress (one at a time). */
  running: Promise<RetentionPassReport> | null;
  /** Set by stop: the pass ends after the batch in progress. */
  stopping: boolean;
  /** Messages per batch, adapted so each batch's synchronous work stays well under the bound. */
  batchSize: number;
  last: RetentionPassReport | null;
}

export const newRetentionState = (): RetentionState => ({ timers: [], running: null, stopping: false, batchSize: 1, last: null });
