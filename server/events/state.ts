import type { RegisterState, SnapshotContext } from '../context.js';
import type { Want } from './want.js';

// The sections import these from here; SnapshotContext is defined in context.ts, beside the App it holds.
export type { SnapshotContext };
export { wantFrom, type Want } from './want.js';

/**
 * One part of the register response, named as Zulip names it: included when any of
 * `wants` (Zulip's `want("...")` names, test/helpers/zulip-register-sections.ts) is wanted and
 * `alsoWhen`, if given, agrees (Zulip's compound conditions). `fetch` must be
 * synchronous: the snapshot is taken in one go right after the queue is allocated, so
 * no event can slip between them.
 */
export interface StateSection {
  wants: string[];
  alsoWhen?: (want: Want, ctx: SnapshotContext) => boolean;
  fetch(ctx: SnapshotContext): Record<string, unknown>;
}

export class StateRegistry implements RegisterState {
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
