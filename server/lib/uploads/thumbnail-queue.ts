/**
 * The app's line of uploads waiting for thumbnails (Zulip's `thumbnail` queue and its worker), in
 * memory: jobs run one at a time by default, so a burst of photo uploads keeps at most one core
 * busy decoding and the event loop free. Each upload is in the line at most once; a request for a
 * thumbnail not made yet moves its upload to the front and waits for it (Zulip makes it then and
 * there). Nothing is lost on a stop: at start, uploads whose thumbnails are missing are queued again
 * (server/actions/thumbnails.ts). A job that throws is logged by its runner and the line moves on.
 */
export type ThumbnailJob = () => Promise<void>;

interface Entry {
  id: number;
  job: ThumbnailJob;
  done: Promise<void>;
  resolve: () => void;
}

export class ThumbnailQueue {
  private readonly waiting: Entry[] = [];
  private readonly byId = new Map<number, Entry>();
  private running = 0;
  private stopped = false;
  private readonly active = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];

  /** `concurrency`: jobs run at once (1: one core for thumbnails on a small office server). */
  constructor(
    private readonly concurrency = 1,
    private readonly onError: (id: number, err: unknown) => void = () => {},
  ) {}

  /** Queues the job of upload `id` unless it is already queued or running; resolves when it has run. */
  add(id: number, job: ThumbnailJob, urgent = false): Promise<void> {
    const known = this.byId.get(id);
    if (known) {
      if (urgent) this.toFront(known);
      return known.done;
    }
    if (this.stopped) return Promise.resolve();
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const entry: Entry = { id, job, done, resolve };
    this.byId.set(id, entry);
    if (urgent) this.waiting.unshift(entry);
    else this.waiting.push(entry);
    this.pump();
    return done;
  }

  private toFront(entry: Entry): void {
    const i = this.waiting.indexOf(entry);
    if (i > 0) {
      this.waiting.splice(i, 1);
      this.waiting.unshift(entry);
    }
  }

  /** Uploads waiting or being thumbnailed. */
  get size(): number {
    return this.byId.size;
  }

  private pump(): void {
    while (!this.stopped && this.running < this.concurrency && this.waiting.length > 0) {
      const entry = this.waiting.shift()!;
      this.running++;
      const run = (async () => {
        try {
          await entry.job();
        } catch (err) {
          this.onError(entry.id, err);
        }
      })().finally(() => {
        this.running--;
        this.byId.delete(entry.id);
        this.active.delete(run);
        entry.resolve();
        this.pump();
        if (this.byId.size === 0) this.wakeIdle();
      });
      this.active.add(run);
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Resolves once nothing is waiting or running (tests, the demo builder, benchmarks). */
  idle(): Promise<void> {
    if (this.byId.size === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /** Takes no more jobs; the ones running finish. Jobs still waiting are dropped (queued again at the next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const e of this.waiting) {
      this.byId.delete(e.id);
      e.resolve();
    }
    this.waiting.length = 0;
    await Promise.all([...this.active]);
    this.wakeIdle();
  }
}
