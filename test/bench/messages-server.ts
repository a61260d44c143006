/**
 * Child process of the message benchmarks: opens a data dir as a Hearth
 * server and reports how long opening took (`openMs`: Store.open with every
 * message, the indexes and listen), its RSS, and the port. Answers `gc`,
 * `mem`, `loopStart`/`loopStop` (event-loop delay), `profileStart`/`profileStop`
 * (a V8 CPU profile written to a file: HEARTH_BENCH_PROFILE), `searchReady` and `searchScan` over IPC.
 */
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { childMain, profilerHandlers, rssKB } from './lib.js';

const dataDir = process.argv[2]!;
let running: RunningServer | null = null;
let hist: IntervalHistogram | null = null;
let gapTimer: NodeJS.Timeout | null = null;
let maxGap = 0;
let tracked: string[] = [];
const gc = (globalThis as { gc?: () => void }).gc;

childMain(
  async () => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    running = await startServer({ dataDir, host: '127.0.0.1', port: 0, log: silentLogger, config: { heartbeatMs: 600_000, apiRateLimitPerMinute: 0 } });
    const openMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return {
      port: running.port,
      openMs,
      openCpuMs: (cpu.user + cpu.system) / 1000,
      uptimeMs: process.uptime() * 1000,
      rssKB: rssKB(),
      messages: running.store.messages.size,
    };
  },
  {
    gc() {
      gc?.();
      gc?.();
      return { rssKB: rssKB(), heapUsed: process.memoryUsage().heapUsed };
    },
    mem: () => ({ rssKB: rssKB(), ...process.memoryUsage() }),
    /** The process's CPU time so far, ms (user + system). */
    cpu: () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    },
    /** Queue ids whose parked state `parked` reports. */
    track(ids: string[]) {
      tracked = ids;
    },
    parked() {
      const events = running!.server.app.events;
      let n = 0;
      for (const id of tracked) if (events.get(id)?.isParked) n++;
      return n;
    },
    ...profilerHandlers(),
    /** Waits until the search index is built; answers how long that took since start, its terms and the RSS. */
    async searchReady() {
      const search = running!.store.messages.search;
      while (!search.ready) await new Promise((r) => setTimeout(r, 20));
      return { readyMs: process.uptime() * 1000, terms: search.terms, rssKB: rssKB() };
    },
    /** The baseline of the search benchmark: the index answers nothing, so every search scans. */
    searchScan(on: boolean) {
      const search = running!.store.messages.search as unknown as { candidates: (...a: unknown[]) => unknown; original?: (...a: unknown[]) => unknown };
      search.original ??= search.candidates;
      search.candidates = on ? () => null : search.original;
    },
    loopStart() {
      hist = monitorEventLoopDelay({ resolution: 5 });
      hist.enable();
      maxGap = 0;
      let prev = performance.now();
      gapTimer = setInterval(() => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - prev);
        prev = now;
      }, 5);
    },
    loopStop() {
      hist?.disable();
      if (gapTimer) clearInterval(gapTimer);
      const out = { maxMs: (hist?.max ?? 0) / 1e6, p99Ms: (hist?.percentile(99) ?? 0) / 1e6, maxGapMs: maxGap };
      hist = null;
      return out;
    },
  },
);
