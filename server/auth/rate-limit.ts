import type { Clock } from '../clock.js';

/**
 * Sliding-window counters for failed logins, per key (an address or a
 * username). `check` says how many seconds a caller must wait, or 0.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private window(key: string): number[] {
    const now = this.clock.now();
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  retryAfterSeconds(key: string): number {
    const list = this.window(key);
    if (list.length < this.limit) return 0;
    return Math.max(1, Math.ceil((list[0]! + this.windowMs - this.clock.now()) / 1000));
  }

  record(key: string): void {
    const list = this.window(key);
    list.push(this.clock.now());
    this.hits.set(key, list);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }
}

export interface LoginLimits {
  byAddress: RateLimiter;
  byUsername: RateLimiter;
}
