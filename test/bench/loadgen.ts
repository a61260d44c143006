/**
 * HTTP load generator, run as a child process of the `http` benchmark so it
 * does not share an event loop with the server. `run` keeps `concurrency`
 * keep-alive connections each with one request in flight for
 * warmupMs + durationMs, and reports requests completed in the measuring
 * window, their latency percentiles and the generator's own CPU use.
 */
import { performance } from 'node:perf_hooks';
import { childMain, Samples, summarize, type Summary } from './lib.js';
import { RawConnection } from './raw-http.js';

export interface LoadArgs {
  port: number;
  request: string;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  latency: Summary;
  /** Load generator CPU use over the run, as a fraction of one core. */
  cpu: number;
}

async function run(a: LoadArgs): Promise<LoadResult> {
  const request = Buffer.from(a.request);
  const conns = await Promise.all(Array.from({ length: a.concurrency }, () => RawConnection.connect(a.port)));
  const latencies = new Samples();
  let errors = 0;
  let completed = 0;
  let stop = false;
  const t0 = performance.now();
  const start = t0 + a.warmupMs;
  const end = start + a.durationMs;
  const cpu0 = process.cpuUsage();

  const worker = async (c: RawConnection) => {
    while (!stop) {
      const sent = performance.now();
      const r = await c.send(request);
      if (r.at < start || r.at > end) continue;
      completed++;
      if (r.status !== 200) errors++;
      if (sent >= start) latencies.push(r.at - sent);
    }
  };
  const timer = setTimeout(() => (stop = true), end - t0);
  await Promise.all(conns.map(worker));
  clearTimeout(timer);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  for (const c of conns) c.close();
  const seconds = a.durationMs / 1000;
  return {
    requests: completed,
    errors,
    seconds,
    rps: completed / seconds,
    latency: summarize(latencies.values()),
    cpu: (cpu.user + cpu.system) / 1000 / wall,
  };
}

childMain(async () => ({}), { run });
