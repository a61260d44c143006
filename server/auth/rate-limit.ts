import type { Clock } from '../clock.js';

/**
 * Sliding-window counters for failed logins, per key (an address or a
 * username). `check` says how many seconds a caller must wait, or 0.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private swept = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Keys with hits in the window (or not yet swept). */
  get size(): number {
    return this.hits.size;
  }

  private window(key: string): number[] {
    const now = this.clock.now();
    // Keys nobody asks about again (an address seen once, a username tried once) are dropped
    // once a window: they were kept for good, one more per address or name ever tried.
    if (now - this.swept > this.windowMs) {
      this.swept = now;
      for (const [k, list] of this.hits) if (list.every((t) => now - t >= this.windowMs)) this.hits.delete(k);
    }
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

  /** Counts a hit now; answers its time, for `forget`. */
  record(key: string): number {
    const list = this.window(key);
    const now = this.clock.now();
    list.push(now);
    this.hits.set(key, list);
    return now;
  }

  /** Takes back one hit recorded at `time` (an attempt counted before its outcome, that succeeded). */
  forget(key: string, time: number): void {
    const list = this.hits.get(key);
    const i = list ? list.indexOf(time) : -1;
    if (i < 0) return;
    list!.splice(i, 1);
    if (!list!.length) this.hits.delete(key);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }
}

/** Failures of one account, from every address, that make its holder hear of them. */
export const ACCOUNT_ALARM_THRESHOLD = 10;

/**
 * Failed passwords for each account from every address together. It never refuses anyone (a
 * limit here would let any host lock a colleague out by guessing wrong on purpose): once the
 * failures reach `threshold` within the window, `record` answers the addresses they came from,
 * once per window, for a notice to the account's holder.
 */
export class AccountAlarm {
  private readonly failures = new Map<string, { t: number; address: string }[]>();
  private readonly warnedAt = new Map<string, number>();
  private swept = 0;

  constructor(
    private readonly clock: Clock,
    private readonly threshold: number,
    private readonly windowMs: number,
  ) {}

  /** Accounts with failures or a notice in the window (or not yet swept). */
  get size(): number {
    return Math.max(this.failures.size, this.warnedAt.size);
  }

  record(key: string, address: string): string[] | null {
    const now = this.clock.now();
    if (now - this.swept > this.windowMs) {
      this.swept = now;
      for (const [k, list] of this.failures) if (list.every((f) => now - f.t >= this.windowMs)) this.failures.delete(k);
      for (const [k, t] of this.warnedAt) if (now - t >= this.windowMs) this.warnedAt.delete(k);
    }
    const list = (this.failures.get(key) ?? []).filter((f) => now - f.t < this.windowMs);
    list.push({ t: now, address });
    this.failures.set(key, list);
    const warned = this.warnedAt.get(key);
    if (list.length < this.threshold || (warned !== undefined && now - warned < this.windowMs)) return null;
    this.warnedAt.set(key, now);
    return [...new Set(list.map((f) => f.address))];
  }
}

/**
 * Failed sign-ins (and wrong old passwords): refused with 429 per client address (any
 * accounts: one host guessing many) and per account from one address (one host guessing one
 * account); from all addresses together only an alarm, so nobody can lock a colleague out.
 */
export interface LoginLimits {
  byAddress: RateLimiter;
  byAccountAddress: RateLimiter;
  accountAlarm: AccountAlarm;
}

/** The key of one account's failures from one address. */
export const accountAddressKey = (accountKey: string, address: string): string => `${accountKey}|${address}`;
