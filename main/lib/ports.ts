/** How many ports after the configured one are tried when it is taken. */
export const PORT_ATTEMPTS = 20;

export interface PortChoice<T> {
  value: T;
  port: number;
  /** The port asked for; differs from `port` when it was taken. */
  requestedPort: number;
}

const inUse = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';

/**
 * Binds through `listen` on `port`, and when that port is taken (EADDRINUSE) on the next
 * ones, up to `attempts` ports in all. Any other error (permission, bad address) is thrown
 * at once. Binding is the test (no probe first), so there is no window for another process
 * to take a port between a check and the bind.
 */
export async function listenWithFallback<T>(
  listen: (port: number) => Promise<T>,
  port: number,
  attempts = PORT_ATTEMPTS,
): Promise<PortChoice<T>> {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`invalid port ${port}`);
  if (port === 0) return { value: await listen(0), port: 0, requestedPort: 0 };
  let lastError: unknown;
  for (let candidate = port; candidate < port + attempts && candidate <= 65535; candidate++) {
    try {
      return { value: await listen(candidate), port: candidate, requestedPort: port };
    } catch (err) {
      if (!inUse(err)) throw err;
      lastError = err;
    }
  }
  throw new Error(`ports ${port}–${Math.min(port + attempts - 1, 65535)} are all in use`, { cause: lastError });
}

/** Parses a configured port (`HEARTH_PORT`, settings): an integer 1–65535, else null. */
export function parsePort(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,5}$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= 1 && n <= 65535 ? n : null;
}
