/** Time source passed into the app so tests can control it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const unixSeconds = (clock: Clock): number => Math.floor(clock.now() / 1000);
