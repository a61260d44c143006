/**
 * The end of the event loop's current turn (its check phase), shared by all that wait for it:
 * one setImmediate per turn, however many wait.
 *
 * Answers go out together at the end of the turn that made them (server/http/answer-batch.ts):
 * writing each answer as soon as it is ready woke the client process once per answer, and on
 * this machine the write that wakes a sleeping reader cost more than all of Hearth's own work on
 * a request (P1: 11k -> 27k req/s with answers batched). Woken long-polls are answered here
 * too, after the turn's other answers, so a sender hears back before its message's deliveries.
 */
export class TurnEnd {
  private scheduled = false;
  private waiting: Promise<void> | null = null;
  private release: (() => void) | null = null;
  private tasks: (() => void)[] = [];
  private writes: (() => void)[] = [];

  constructor(private readonly onWriteError: (error: unknown) => void) {}

  /** Resolves at the end of this turn. */
  wait(): Promise<void> {
    this.schedule();
    return (this.waiting ??= new Promise<void>((resolve) => (this.release = resolve)));
  }

  /** Runs `task` at the end of this turn, once the waiting answers are released. */
  later(task: () => void): void {
    this.tasks.push(task);
    this.schedule();
  }

  /**
   * Runs `write` once no promise job is left to run, with every other write asked for
   * meanwhile: answers released at the end of a turn and written straight from promise jobs
   * (Koa's, for a plain answer) go first, then these. An answer that waits on anything else
   * (a stream, another write to disk) may go after them. (A tick queued from a promise job
   * runs only once the job queue is empty; one queued from plain code would run before it,
   * hence the job that queues the tick.) A write that throws does not keep the others from
   * being written; its error goes to `onWriteError`.
   */
  write(write: () => void): void {
    this.writes.push(write);
    if (this.writes.length === 1) queueMicrotask(() => process.nextTick(() => this.flushWrites()));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.fire());
  }

  private fire(): void {
    this.scheduled = false;
    const release = this.release;
    const tasks = this.tasks;
    this.waiting = null;
    this.release = null;
    this.tasks = [];
    release?.();
    for (const task of tasks) task();
  }

  private flushWrites(): void {
    const writes = this.writes;
    this.writes = [];
    for (const write of writes) {
      try {
        write();
      } catch (error) {
        this.onWriteError(error);
      }
    }
  }
}
