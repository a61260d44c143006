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
  /** `presence_last_update_id`: only presence changed after it. */
  presenceSinceUpdateId?: number;
  /** Base URL of the request (`http://host:port`), for URLs in the state. */
  baseUrl: string;
}

/**
 * Which sections a register asks for: Zulip's `want(name)` in fetch_initial_state_data,
 * over `fetch_event_types` (else `event_types`); `all` when neither was sent.
 */
export interface Want {
  (name: string): boolean;
  readonly all: boolean;
}

export function wantFrom(types: readonly string[] | null): Want {
  const set = types === null ? null : new Set(types);
  return Object.assign((name: string) => set === null || set.has(name), { all: set === null });
}

/**
 * One part of the register response, named as Zulip names it: included when any of
 * `wants` (Zulip's `want("...")` names, server/state/zulip-sections.ts) is wanted and
 * `alsoWhen`, if given, agrees (Zulip's compound conditions). `fetch` must be
 * synchronous: the snapshot is taken in one go right after the queue is allocated, so
 * no event can slip between them.
 */
export interface StateSection {
  wants: string[];
  alsoWhen?: (want: Want, ctx: SnapshotContext) => boolean;
  fetch(ctx: SnapshotContext): Record<string, unknown>;
}

export class StateRegistry {
  private readonly sections: StateSection[] = [];

  add(section: StateSection): void {
    this.sections.push(section);
  }

  /** Every want-name some section answers. */
  wantNames(): Set<string> {
    return new Set(this.sections.flatMap((s) => s.wants));
  }

  snapshot(ctx: SnapshotContext, want: Want): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const s of this.sections) {
      if (s.wants.some(want) && (s.alsoWhen?.(want, ctx) ?? true)) Object.assign(out, s.fetch(ctx));
    }
    return out;
  }
}
