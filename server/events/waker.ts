/** Something parked that an event should wake. */
export interface Wakeable {
  /** Answers the parked long-poll, if it is still parked. */
  wakeForEvent(): void;
}

/** Where the waker's batches run: at the end of the turn (server/events/turn-end.ts's `later`). */
export type Later = (task: () => void) => void;

/**
 * Wakes parked long-polls in batches, one batch per turn of the event loop.
 * Waking means serialising and writing a response; doing thousands in the
 * sending request's own turn blocked the loop for most of a second at 10,000
 * parked polls and delayed the sender's answer behind every delivery. In
 * batches of `batchSize` the sender answers first and other requests
 * interleave with the deliveries.
 */
export class Waker {
  private readonly pending = new Set<Wakeable>();
  private scheduled = false;

  constructor(
    private readonly later: Later,
    private readonly batchSize = 256,
  ) {}

  schedule(target: Wakeable): void {
    this.pending.add(target);
    if (!this.scheduled) {
      this.scheduled = true;
      this.later(() => this.flush());
    }
  }

  private flush(): void {
    let n = 0;
    for (const target of this.pending) {
      this.pending.delete(target);
      target.wakeForEvent();
      if (++n >= this.batchSize) break;
    }
    if (this.pending.size > 0) this.later(() => this.flush());
    else this.scheduled = false;
  }
}
