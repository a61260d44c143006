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
