import type { Clock } from '../clock.js';
import type { ClientEvent } from './types.js';
import type { MessageRecord } from '../store/message-records.js';
import type { Wakeable, Waker } from './waker.js';

export type { ClientEvent };

/** A compiled queue narrow: whether a message matches it, given the user's flags (null without a row). */
export interface QueueNarrow {
  matches(message: MessageRecord, flags: number | null): boolean;
}

export interface QueueOptions {
  userId: number | null;
  /** null = all types. */
  eventTypes: Set<string> | null;
  narrow: string[][];
  allPublicStreams: boolean;
  clientCapabilities: Record<string, boolean>;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  idleTimeoutSecs: number;
}

/** A queue as kept on disk between a graceful stop and the next start (server/lib/runtime/queue-persistence.ts). */
export interface SavedQueue {
  id: string;
  opts: Omit<QueueOptions, 'eventTypes'> & { eventTypes: string[] | null };
  events: { id: number; event: ClientEvent }[];
  nextEventId: number;
  newestPrunedId: number;
  lastActivity: number;
}

export type WakeReason = 'event' | 'superseded' | 'heartbeat' | 'closed' | 'shutdown';

interface Waiter {
  wake(reason: WakeReason): void;
}

/**
 * One client's event queue: events get increasing ids from 0; the client
 * acknowledges with `last_event_id`, which prunes what it has seen. At most
 * one long-poll waits on a queue at a time.
 */
export class EventQueue implements Wakeable {
  private readonly events: { id: number; event: ClientEvent }[] = [];
  private nextEventId = 0;
  private newestPrunedId = -1;
  private waiter: Waiter | null = null;
  lastActivity: number;
  /** Event tickets whose changes were already in this queue's register snapshot. */
  readonly skipTickets: Set<number>;
  /**
   * The queue's `narrow` as the message filter compiled it (server/register/messages.ts), kept
   * for the queue's life; null when it no longer resolves (nothing matches); undefined until the
   * first message event, and always for a narrow that reads the user's mutes or follows.
   */
  compiledNarrow: QueueNarrow | null | undefined = undefined;

  constructor(
    readonly id: string,
    readonly opts: QueueOptions,
    private readonly clock: Clock,
    skipTickets: Set<number>,
    private readonly waker: Waker,
  ) {
    this.lastActivity = clock.now();
    this.skipTickets = skipTickets;
  }

  /** The queue's state for saving; parked polls are not part of it. */
  saved(): SavedQueue {
    return {
      id: this.id,
      opts: { ...this.opts, eventTypes: this.opts.eventTypes ? [...this.opts.eventTypes] : null },
      events: this.events.map((e) => ({ ...e })),
      nextEventId: this.nextEventId,
      newestPrunedId: this.newestPrunedId,
      lastActivity: this.lastActivity,
    };
  }

  /** A saved queue back in service (events, ids and idle time as they were). */
  static restore(s: SavedQueue, clock: Clock, waker: Waker): EventQueue {
    const q = new EventQueue(s.id, { ...s.opts, eventTypes: s.opts.eventTypes ? new Set(s.opts.eventTypes) : null }, clock, new Set(), waker);
    q.events.push(...s.events);
    q.nextEventId = s.nextEventId;
    q.newestPrunedId = s.newestPrunedId;
    q.lastActivity = s.lastActivity;
    return q;
  }

  get userId(): number | null {
    return this.opts.userId;
  }

  wants(type: string): boolean {
    return type === 'heartbeat' || this.opts.eventTypes === null || this.opts.eventTypes.has(type);
  }

  capability(name: string): boolean {
    return this.opts.clientCapabilities[name] === true;
  }

  /** The id of the newest event ever added (-1 when none). */
  get lastEventId(): number {
    return this.nextEventId - 1;
  }

  get pending(): number {
    return this.events.length;
  }

  get isParked(): boolean {
    return this.waiter !== null;
  }

  push(event: ClientEvent): number {
    const id = this.nextEventId++;
    this.events.push({ id, event });
    if (this.waiter) this.waker.schedule(this);
    return id;
  }

  wakeForEvent(): void {
    if (this.events.length > 0) this.waiter?.wake('event');
  }

  /**
   * Drops events the client has acknowledged. Returns an error message
   * (Zulip's wording) when the acknowledgement cannot be honoured.
   */
  acknowledge(lastEventId: number): string | null {
    if (lastEventId < this.newestPrunedId) return `An event newer than ${lastEventId} has already been pruned!`;
    if (lastEventId > this.lastEventId) return `Event ${lastEventId} was not in this queue`;
    let n = 0;
    while (n < this.events.length && this.events[n]!.id <= lastEventId) n++;
    if (n > 0) {
      this.newestPrunedId = this.events[n - 1]!.id;
      this.events.splice(0, n);
    }
    return null;
  }

  /** The unacknowledged events as held (for serialising without copies: events/serialize.ts). */
  held(): readonly { id: number; event: ClientEvent }[] {
    return this.events;
  }

  /** The unacknowledged events, each with its id, ready to serialise. */
  contents(): Record<string, unknown>[] {
    return this.events.map(({ id, event }) => ({ ...event, id }));
  }

  /**
   * Parks a long-poll until an event arrives, a newer poll takes over, the heartbeat interval
   * passes or the connection closes; then calls `done` once, with the reason. (A callback, not a
   * promise: thousands of polls wake at once, and each promise and resumption costs.)
   */
  park(heartbeatMs: number, onClose: (cb: () => void) => () => void, done: (reason: WakeReason) => void): void {
    this.supersede();
    const timer = setTimeout(() => waiter.wake('heartbeat'), heartbeatMs);
    const detach = onClose(() => waiter.wake('closed'));
    const waiter: Waiter = {
      wake: (reason) => {
        if (this.waiter !== waiter) return;
        this.waiter = null;
        clearTimeout(timer);
        detach();
        this.lastActivity = this.clock.now();
        done(reason);
      },
    };
    this.waiter = waiter;
    this.lastActivity = this.clock.now();
  }

  /** Finishes the parked long-poll, if any: a newer poll on this queue took over. */
  supersede(): void {
    this.waiter?.wake('superseded');
  }

  shutdown(): void {
    this.waiter?.wake('shutdown');
  }

  isIdle(now: number): boolean {
    return this.waiter === null && now - this.lastActivity > this.opts.idleTimeoutSecs * 1000;
  }
}
