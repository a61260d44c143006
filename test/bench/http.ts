/**
 * `npm run bench -- http`: requests/s of authenticated GET /api/v1/users/me on
 * Hearth against a bare Koa handler, measured the same way in the same run
 * (and, for reference, Node's HTTP server with no framework).
 * Each server and the load generator are separate processes; rounds alternate
 * between the two servers and the figures quoted are medians over rounds.
 */
import type { LoadArgs, LoadResult } from './loadgen.js';
import {
  ChildProc,
  environment,
  cpuMs,
  fmtInt,
  fmtMs,
  goal,
  heading,
  median,
  pct,
  removeTempDir,
  stopAllChildren,
  table,
  tempDir,
  warnIfBusy,
} from './lib.js';
import { basicAuth, RawConnection, rawRequest } from './raw-http.js';

const ROUNDS = 5;
const CONCURRENCY = 64;
const WARMUP_MS = 1000;
const DURATION_MS = 5000;
const GOAL_RATIO = 0.6;

interface Target {
  label: string;
  server: ChildProc;
  port: number;
  request: string;
}

interface RoundResult extends LoadResult {
  serverCpu: number;
}

async function measure(loadgen: ChildProc, t: Target): Promise<RoundResult> {
  const cpu0 = cpuMs(t.server.pid);
  const t0 = performance.now();
  const args: LoadArgs = { port: t.port, request: t.request, concurrency: CONCURRENCY, warmupMs: WARMUP_MS, durationMs: DURATION_MS };
  const r = await loadgen.call<LoadResult>('run', args, 60_000);
  const serverCpu = (cpuMs(t.server.pid) - cpu0) / (performance.now() - t0);
  if (r.errors > 0) throw new Error(`${t.label}: ${r.errors} non-200 answers`);
  return { ...r, serverCpu };
}

/** One request by hand, to check the server answers what we think before loading it. */
async function check(t: Target, expect: (body: Record<string, unknown>) => boolean): Promise<void> {
  const c = await RawConnection.connect(t.port);
  try {
    const r = await c.send(t.request);
    const body = JSON.parse(r.body.toString()) as Record<string, unknown>;
    if (r.status !== 200 || !expect(body)) throw new Error(`${t.label}: unexpected answer ${r.status} ${r.body.toString()}`);
    console.log(`  ${t.label}: ${r.status}, ${r.body.length} byte body`);
  } finally {
    c.close();
  }
}

export async function main(): Promise<void> {
  const started = performance.now();
  const dataDir = tempDir('http');
  try {
    heading('http: GET /api/v1/users/me (Hearth) vs bare Koa');
    console.log(`  ${environment()}`);
    console.log(
      `  ${ROUNDS} rounds per server, alternating; each round ${WARMUP_MS / 1000}s warm-up + ${DURATION_MS / 1000}s measured, ` +
        `${CONCURRENCY} keep-alive connections with one request in flight each; ` +
        `server and load generator in separate processes (2 cores).`,
    );
    const [bare, node, hearth, loadgen] = await Promise.all([
      ChildProc.start<{ port: number }>('bare server', 'server.ts', ['bare']),
      ChildProc.start<{ port: number }>('node server', 'server.ts', ['node']),
      ChildProc.start<{ port: number; email: string; apiKey: string; userId: number }>('hearth server', 'server.ts', [
        'hearth',
        JSON.stringify({ dataDir }),
      ]),
      ChildProc.start<object>('load generator', 'loadgen.ts'),
    ]);
    const auth = basicAuth(hearth.ready.email, hearth.ready.apiKey);
    const targets: Target[] = [
      { label: 'bare', server: bare.child, port: bare.ready.port, request: rawRequest('GET', bare.ready.port, '/api/v1/users/me', auth).toString() },
      { label: 'hearth', server: hearth.child, port: hearth.ready.port, request: rawRequest('GET', hearth.ready.port, '/api/v1/users/me', auth).toString() },
      // Informational: Node's HTTP server with no framework, the floor of any request here.
      { label: 'node', server: node.child, port: node.ready.port, request: rawRequest('GET', node.ready.port, '/api/v1/users/me', auth).toString() },
    ];
    await check(targets[0]!, (b) => b.result === 'success');
    await check(targets[1]!, (b) => b.result === 'success' && b.user_id === hearth.ready.userId);
    await check(targets[2]!, (b) => b.result === 'success');

    const results: Record<string, RoundResult[]> = { bare: [], hearth: [], node: [] };
    const rows: (string | number)[][] = [['round', 'server', 'req/s', 'p50', 'p99', 'max', 'server CPU', 'req per server CPU-s', 'loadgen CPU']];
    // HEARTH_BENCH_PROFILE=DIR: CPU profiles of both servers during the last round (http-bare/-hearth.cpuprofile).
    const profileDir = process.env.HEARTH_BENCH_PROFILE;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const t of targets) {
        const profiling = profileDir !== undefined && round === ROUNDS;
        if (profiling) await t.server.call('profileStart');
        const r = await measure(loadgen.child, t);
        if (profiling) await t.server.call('profileStop', `${profileDir}/http-${t.label}.cpuprofile`);
        results[t.label]!.push(r);
        rows.push([round, t.label, fmtInt(r.rps), fmtMs(r.latency.p50), fmtMs(r.latency.p99), fmtMs(r.latency.max), pct(r.serverCpu), fmtInt(r.rps / r.serverCpu), pct(r.cpu)]);
        console.log(`  round ${round} ${t.label.padEnd(6)} ${fmtInt(r.rps).padStart(7)} req/s  p50 ${fmtMs(r.latency.p50)}  p99 ${fmtMs(r.latency.p99)}`);
      }
    }
    heading('http results');
    table(rows);
    const med = (label: string, f: (r: RoundResult) => number) => median(results[label]!.map(f));
    const bareRps = med('bare', (r) => r.rps);
    const hearthRps = med('hearth', (r) => r.rps);
    const ratio = hearthRps / bareRps;
    console.log('');
    console.log(`  median bare   : ${fmtInt(bareRps)} req/s, p50 ${fmtMs(med('bare', (r) => r.latency.p50))}, p99 ${fmtMs(med('bare', (r) => r.latency.p99))}`);
    console.log(`  median hearth : ${fmtInt(hearthRps)} req/s, p50 ${fmtMs(med('hearth', (r) => r.latency.p50))}, p99 ${fmtMs(med('hearth', (r) => r.latency.p99))}`);
    const roundRatios = results.hearth!.map((h, i) => h.rps / results.bare![i]!.rps);
    console.log(
      `  per-round ratios hearth/bare: ${roundRatios.map((x) => x.toFixed(2)).join(', ')} (median ${median(roundRatios).toFixed(2)})`,
    );
    console.log(`  ratio hearth/bare (medians): ${ratio.toFixed(2)}  (goal >= ${GOAL_RATIO}: ${goal(ratio >= GOAL_RATIO)})`);
    // Requests per CPU-second of the server: less sensitive to other processes taking the CPU.
    const perCpu = (label: string) => med(label, (r) => r.rps / r.serverCpu);
    console.log(
      `  requests per server CPU-second: bare ${fmtInt(perCpu('bare'))}, hearth ${fmtInt(perCpu('hearth'))}, ratio ${(perCpu('hearth') / perCpu('bare')).toFixed(2)}`,
    );
    // Server CPU per request, in µs: what P2's per-poll budget is to be compared with.
    const us = (label: string) => (1e6 / perCpu(label)).toFixed(0);
    console.log(`  server CPU per request: Node's HTTP server alone ${us('node')} µs, bare Koa ${us('bare')} µs, Hearth ${us('hearth')} µs (node: ${fmtInt(med('node', (r) => r.rps))} req/s)`);
    const maxLoadgenCpu = Math.max(...results.bare!.map((r) => r.cpu));
    if (maxLoadgenCpu > 0.9) {
      console.log(`  note: the load generator used up to ${pct(maxLoadgenCpu)} of a core against bare Koa; the bare figure may be capped by it.`);
    }
    warnIfBusy(2);
    console.log(`  (took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    await stopAllChildren();
    removeTempDir(dataDir);
  }
}
