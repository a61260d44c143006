import type { App } from '../context.js';
import type { UserRecord } from '../store/records.js';
import type { QueueOptions } from './queue.js';

/** What a state section sees when `POST /register` takes its snapshot. */
export interface SnapshotContext {
  app: App;
  /** null for a spectator (unauthenticated register). */
  user: UserRecord | null;
  queue: QueueOptions;
  includeSubscribers: 'true' | 'false' | 'partial';
  presenceHistoryLimitDays: number;
  /** Base URL of the request (`http://host:port`), for URLs in the state. */
  baseUrl: string;
}

/**
 * One part of the register response. It is included when any of its `types`
 * is wanted by `fetch_event_types` (all sections when that is absent).
 * `fetch` must be synchronous: the snapshot is taken in one go right after the
 * queue is allocated, so no event can slip between them.
 */
export interface StateSection {
  types: string[];
  fetch(ctx: SnapshotContext): Record<string, unknown>;
}

export class StateRegistry {
  private readonly sections: StateSection[] = [];

  add(section: StateSection): void {
    this.sections.push(section);
  }

  /** Every event type some section serves (the types register knows). */
  knownTypes(): Set<string> {
    return new Set(this.sections.flatMap((s) => s.types));
  }

  snapshot(ctx: SnapshotContext, want: (type: string) => boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const s of this.sections) {
      if (s.types.some(want)) Object.assign(out, s.fetch(ctx));
    }
    return out;
  }
}
