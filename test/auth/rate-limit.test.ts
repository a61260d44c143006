/**
 * The failed-password counters (server/auth/rate-limit.ts) forget what is past their window,
 * for keys nobody asks about again too: an address or a username tried once was kept for good,
 * so guessing from ever new addresses (IPv6 gives a LAN host millions) grew them without end.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountAlarm, RateLimiter } from '../../server/auth/rate-limit.js';

describe('failed-password counters', () => {
  it('drop keys whose hits are all past the window', () => {
    const clock = { t: 1_000_000, now() { return this.t; } };
    const limiter = new RateLimiter(clock, 10, 60_000);
    const alarm = new AccountAlarm(clock, 10, 60_000);
    for (let i = 0; i < 5_000; i++) {
      limiter.record(`fd00::${i.toString(16)}`);
      alarm.record(`name:guess${i}`, `fd00::${i.toString(16)}`);
    }
    assert.equal(limiter.size, 5_000);
    clock.t += 60_001;
    limiter.record('fd00::ffff');
    alarm.record('user:1', 'fd00::ffff');
    assert.equal(limiter.size, 1);
    assert.equal(alarm.size, 1);
  });

  it('still count within the window, and a hit taken back is gone', () => {
    const clock = { t: 1_000_000, now() { return this.t; } };
    const limiter = new RateLimiter(clock, 2, 60_000);
    const first = limiter.record('a');
    limiter.record('a');
    assert.ok(limiter.retryAfterSeconds('a') > 0);
    limiter.forget('a', first);
    assert.equal(limiter.retryAfterSeconds('a'), 0);
    clock.t += 70_000;
    limiter.record('b');
    assert.equal(limiter.retryAfterSeconds('a'), 0);
  });
});
