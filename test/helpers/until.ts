import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until `cond` holds (checked every 5 ms), or fails naming `what`. */
export async function until(cond: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}
