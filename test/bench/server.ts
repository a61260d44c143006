/**
 * A server under test, run as a child process of a benchmark:
 *
 *   server.ts bare        Koa answering {result:'success'} to everything
 *   server.ts node        Node's HTTP server alone answering that body (no Koa)
 *   server.ts bare-park   Koa whose handler awaits a promise until POST /trigger
 *                         ('{"bodyBytes": N}': each answer padded to about N bytes)
 *   server.ts hearth '{"dataDir": "..."}'
 *                         Hearth (startServer) with an organization and its owner
 *
 * Reports {port, ...} as ready; answers `gc`, `mem`, `stallsStart`/`stallsStop`, `track`
 * and `parked` over IPC.
 * Memory is read by the parent from /proc/<pid>/status, not through a route.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import Koa from 'koa';
import { doCreateRealm } from '../../server/actions/users.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { childMain, profilerHandlers, removeOnExit } from './lib.js';

const mode = process.argv[2];
const opts = JSON.parse(process.argv[3] ?? '{}') as { dataDir?: string; heartbeatMs?: number; bodyBytes?: number };

let running: RunningServer | null = null;
let tracked: string[] = [];
const waiters: (() => void)[] = [];

function listenBare(handler: Koa | RequestListener): Promise<number> {
  const server: Server = createServer(handler instanceof Koa ? handler.callback() : handler);
  server.keepAliveTimeout = 65_000; // as Hearth
  server.requestTimeout = 0;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function init(): Promise<unknown> {
  if (mode === 'bare') {
    const koa = new Koa();
    koa.use((ctx) => {
      ctx.body = { result: 'success' };
    });
    return { port: await listenBare(koa) };
  }
  if (mode === 'node') {
    // No framework at all: Node's HTTP server answering the same body (the floor under any Node server).
    return {
      port: await listenBare((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': 20 });
        res.end('{"result":"success"}');
      }),
    };
  }
  if (mode === 'bare-park') {
    const koa = new Koa();
    koa.use(async (ctx) => {
      if (ctx.method === 'POST' && ctx.path === '/trigger') {
        const n = waiters.length;
        for (const w of waiters.splice(0)) w();
        ctx.body = { result: 'success', woken: n };
        return;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
      const event: Record<string, unknown> = { type: 'drafts', op: 'add', drafts: [], id: 0 };
      // bodyBytes: padded to the size of a real answer (P3's same-size baseline).
      if (opts.bodyBytes) event.pad = 'x'.repeat(Math.max(0, opts.bodyBytes - 110));
      ctx.body = { result: 'success', msg: '', events: [event], queue_id: 'q' };
    });
    return { port: await listenBare(koa) };
  }
  if (mode === 'hearth') {
    if (!opts.dataDir) throw new Error('hearth mode needs a dataDir');
    removeOnExit(opts.dataDir);
    running = await startServer({
      dataDir: opts.dataDir,
      host: '127.0.0.1',
      port: 0,
      log: silentLogger,
      // The benchmark is one client making tens of thousands of calls: no API rate limit.
      config: { apiRateLimitPerMinute: 0, ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}) },
    });
    const owner = await doCreateRealm(running.server.app, 'Bench Org', {
      email: 'owner@example.com',
      password: 'correct horse battery',
      fullName: 'Olive Owner',
    });
    return { port: running.port, email: owner.email, apiKey: owner.api_key, userId: owner.id };
  }
  throw new Error(`unknown server mode ${mode}`);
}

let gapTimer: NodeJS.Timeout | null = null;
let gaps: [number, number][] = [];
const gc = (globalThis as { gc?: () => void }).gc;

childMain(init, {
  ...profilerHandlers(),
  gc() {
    if (!gc) throw new Error('start the server with --expose-gc');
    gc();
    gc();
  },
  mem: () => process.memoryUsage(),
  /**
   * Starts recording this process's event-loop stalls (over 20 ms) as
   * [start, end] on the epoch clock (performance.timeOrigin based, comparable
   * with the client process's timestamps).
   */
  stallsStart() {
    if (gapTimer) clearInterval(gapTimer);
    gaps = [];
    let prev = performance.now();
    gapTimer = setInterval(() => {
      const now = performance.now();
      if (now - prev > 20) gaps.push([performance.timeOrigin + prev, performance.timeOrigin + now]);
      prev = now;
    }, 2);
  },
  stallsStop() {
    if (gapTimer) clearInterval(gapTimer);
    gapTimer = null;
    return gaps;
  },
  /** Queue ids whose parked state `parked` reports (Hearth). */
  track(ids: string[]) {
    tracked = ids;
  },
  /** How many long-polls are parked right now. */
  parked() {
    if (mode === 'bare-park') return waiters.length;
    if (!running) return 0;
    const events = running.server.app.events;
    let n = 0;
    for (const id of tracked) if (events.get(id)?.isParked) n++;
    return n;
  },
});
