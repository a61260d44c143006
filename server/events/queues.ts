import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { EventQueue, type QueueOptions, type SavedQueue } from './queue.js';
import type { ClientEvent, ClientEventType, Event, EventOf, EventType } from './types.js';
import type { TurnEnd } from './turn-end.js';
import { Waker } from './waker.js';

/**
 * Decides, per queue, whether (and in what form) an event is delivered.
 * Areas register one per event type (e.g. `message` applies the queue's
 * narrow and `apply_markdown`). Return null to skip the queue.
 */
export type QueueFilter<T extends EventType = EventType> = (queue: EventQueue, event: EventOf<T>) => ClientEvent | null;

export interface EventQueuesConfig {
  heartbeatMs: number;
  gcIntervalMs: number;
}

/**
 * All event queues of the server, in memory. Actions send events here after
 * their write has landed. Each action holds a "ticket" from the moment it
 * mutates in-memory state until its events are sent: a queue registered in
 * between already has that change in its snapshot, so it skips the ticket's
 * events (no duplicates), while every later ticket reaches it (no losses).
 */
export class EventQueues {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private readonly filters = new Map<EventType, QueueFilter>();
  /** Other event types a filter may turn an event into (legacy names clients list in event_types). */
  private readonly filterOutputs = new Map<string, string[]>();
  private readonly openTickets = new Set<number>();
  private nextTicket = 1;
  private nextQueue = 0;
  private readonly prefix = `${Math.floor(Date.now() / 1000)}${randomBytes(2).toString('hex')}`;
  private gcTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly waker: Waker;

  /** `turn`: woken polls are answered at the end of the turn, after its other answers. */
  constructor(
    private readonly clock: Clock,
    readonly config: EventQueuesConfig,
    turn: TurnEnd,
  ) {
    this.waker = new Waker((task) => turn.later(task));
  }

  /**
   * Shapes `type` events per queue (null drops the event). `outputs` names the other types the
   * filter may produce: a queue that lists one of them in its event_types gets the event too.
   */
  addFilter<T extends EventType>(type: T, filter: QueueFilter<T>, outputs: ClientEventType[] = []): void {
    if (this.filters.has(type)) throw new Error(`a filter for ${type} events is already registered`);
    const ofType = (event: Event): event is EventOf<T> => event.type === type;
    this.filters.set(type, (queue, event) => (ofType(event) ? filter(queue, event) : null));
    if (outputs.length) this.filterOutputs.set(type, outputs);
  }

  /** Opens a ticket: call right before mutating in-memory state. */
  begin(): number {
    const t = this.nextTicket++;
    this.openTickets.add(t);
    return t;
  }

  /** Closes a ticket without sending (the action failed). */
  abandon(ticket: number): void {
    this.openTickets.delete(ticket);
  }

  /**
   * Delivers events to the queues of `userIds` (null: every queue, e.g.
   * spectators too) and closes the ticket. Only actions call this, after their
   * write has landed.
   */
  send(ticket: number, event: Event, userIds: Iterable<number> | null): void {
    const targets: Iterable<EventQueue> =
      userIds === null ? this.queues.values() : this.queuesOf(userIds);
    const filter = this.filters.get(event.type);
    const outputs = this.filterOutputs.get(event.type);
    for (const q of targets) {
      if (q.skipTickets.has(ticket)) continue;
      if (!q.wants(event.type) && !outputs?.some((t) => q.wants(t))) continue;
      // The internal forms (types.ts) all have a filter that reshapes them, so an unfiltered event is a client event.
      const delivered = filter ? filter(q, event) : (event as ClientEvent);
      if (delivered && (q.wants(delivered.type) || q.wants(event.type))) q.push(delivered);
    }
  }

  close(ticket: number): void {
    this.openTickets.delete(ticket);
    // Tickets only matter while open; queues forget closed ones lazily.
  }

  private *queuesOf(userIds: Iterable<number>): IterableIterator<EventQueue> {
    for (const id of new Set(userIds)) {
      const set = this.byUser.get(id);
      if (set) yield* set;
    }
  }

  /** Allocates a queue; call synchronously right before taking the register snapshot. */
  allocate(opts: QueueOptions): EventQueue {
    const id = `${this.prefix}:${this.nextQueue++}`;
    return this.add(new EventQueue(id, opts, this.clock, new Set(this.openTickets), this.waker));
  }

  private add(q: EventQueue): EventQueue {
    this.queues.set(q.id, q);
    if (q.userId !== null) {
      let set = this.byUser.get(q.userId);
      if (!set) this.byUser.set(q.userId, (set = new Set()));
      set.add(q);
    }
    return q;
  }

  /** Every queue's state, for keeping across a restart. */
  save(): SavedQueue[] {
    return [...this.queues.values()].map((q) => q.saved());
  }

  /** Puts saved queues back (ids kept; new queues get ids of this run's own prefix). */
  restore(saved: SavedQueue[]): number {
    let n = 0;
    for (const s of saved) {
      if (this.queues.has(s.id)) continue;
      this.add(EventQueue.restore(s, this.clock, this.waker));
      n++;
    }
    return n;
  }

  get(id: string): EventQueue | undefined {
    return this.queues.get(id);
  }

  delete(id: string): boolean {
    const q = this.queues.get(id);
    if (!q) return false;
    q.shutdown();
    this.queues.delete(id);
    if (q.userId !== null) {
      const set = this.byUser.get(q.userId);
      set?.delete(q);
      if (set?.size === 0) this.byUser.delete(q.userId);
    }
    return true;
  }

  /** Drops every queue of a user (deactivation, key change). */
  deleteUser(userId: number): void {
    for (const q of [...(this.byUser.get(userId) ?? [])]) this.delete(q.id);
  }

  /** Drops every queue (the state they were registered against is gone); clients re-register. */
  deleteAll(): number {
    const ids = [...this.queues.keys()];
    for (const id of ids) this.delete(id);
    return ids.length;
  }

  /** Removes queues idle past their timeout; returns how many. */
  collectGarbage(): number {
    const now = this.clock.now();
    let n = 0;
    for (const q of [...this.queues.values()]) {
      if (q.isIdle(now)) {
        this.delete(q.id);
        n++;
      }
    }
    return n;
  }

  get size(): number {
    return this.queues.size;
  }

  /** Distinct users with at least one live queue ("connected clients"). */
  get connectedUsers(): number {
    return this.byUser.size;
  }

  /** Whether the server is stopping: polls are answered at once, and their connections closed. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    this.stopped = false;
    if (this.gcTimer) return;
    this.gcTimer = setInterval(() => this.collectGarbage(), this.config.gcIntervalMs);
    this.gcTimer.unref();
  }

  /** Stops collection and finishes every parked long-poll. */
  stop(): void {
    this.stopped = true;
    if (this.gcTimer) clearInterval(this.gcTimer);
    this.gcTimer = null;
    for (const q of this.queues.values()) q.shutdown();
  }
}
