import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The one way tests wait for something that happens on its own time (a parked poll, a page
 * catching up with the server): calls `check` until it returns a truthy value, and returns that
 * value; after `ms` it fails with `not in time: WHAT` (`what` may be a function, called then, to
 * say what was seen instead). Checks at once, then every 100 ms (some browser specs catch a
 * moment that lasts about that long: a faster or uneven pace misses it). An exception from `check`
 * fails at once.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  what: string | (() => string | Promise<string>) = 'the condition holds',
  ms = 10_000,
): Promise<Exclude<Awaited<T>, false | null | undefined | 0 | ''>> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<Awaited<T>, false | null | undefined | 0 | ''>;
    if (Date.now() > end) assert.fail(`not in time: ${typeof what === 'function' ? await what() : what}`);
    await sleep(100);
  }
}
