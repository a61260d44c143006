/**
 * Zulip's API rate limit: at most N requests a minute per user (authenticated) or per
 * address (anonymous API calls), over a sliding window; the next one gets 429
 * `RATE_LIMIT_HIT` with `Retry-After`. Applies to every client, loopback included. Each key
 * keeps a ring of its last N request times, so a check is O(1) and memory is bounded by the
 * number of active callers (idle ones are swept).
 */
const WINDOW_MS = 60_000;

interface Ring {
  times: Float64Array;
  next: number;
  count: number;
  last: number;
}

export class ApiRateLimiter {
  private readonly rings = new Map<string, Ring>();
  private swept = 0;

  /** 0 when the call may go ahead (and it is counted), else the seconds to wait. */
  take(key: string, limit: number, now: number): number {
    if (now - this.swept > WINDOW_MS) this.sweep(now);
    let ring = this.rings.get(key);
    if (!ring || ring.times.length !== limit) {
      ring = { times: new Float64Array(limit), next: 0, count: 0, last: now };
      this.rings.set(key, ring);
    }
    if (ring.count === limit) {
      const oldest = ring.times[ring.next]!;
      const wait = oldest + WINDOW_MS - now;
      if (wait > 0) return wait / 1000;
    } else ring.count++;
    ring.times[ring.next] = now;
    ring.next = (ring.next + 1) % limit;
    ring.last = now;
    return 0;
  }

  private sweep(now: number): void {
    this.swept = now;
    for (const [key, ring] of this.rings) if (now - ring.last > WINDOW_MS) this.rings.delete(key);
  }
}
