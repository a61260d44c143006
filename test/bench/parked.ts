/**
 * `npm run bench -- parked`: 10,000 parked long-polls (GET /api/v1/events) on
 * Hearth. Measures the server's RSS per parked poll (read from
 * /proc/<pid>/status by this process) and how long one event takes to wake
 * them all; the baseline is the same on a bare Koa server whose handler
 * awaits a promise until a trigger request. Server and client are separate
 * child processes; rounds alternate between the two servers.
 */
import type { ParkArgs, RegisterArgs, TriggerArgs, TriggerResult } from './parked-client.js';
import {
  ChildProc,
  environment,
  cpuMs,
  fmtInt,
  fmtKB,
  fmtMB,
  fmtMs,
  goal,
  heading,
  median,
  removeTempDir,
  rssKB,
  sleep,
  stopAllChildren,
  table,
  tempDir,
  warnIfBusy,
} from './lib.js';
import { basicAuth, rawRequest } from './raw-http.js';

const POLLS = 10_000;
const ROUNDS = 3;
const PARK_BATCH = 500;
const GOAL_KB = 20;
const GOAL_WAKE_MS = 150;

interface RoundResult {
  kind: 'hearth' | 'bare';
  setupMs: number;
  parkMs: number;
  /** RSS delta per parked poll, in KB: after a forced GC, and without one. */
  kbPerPoll: number;
  kbPerPollNoGc: number;
  heapBytesPerPoll: number;
  rssBefore: number;
  rssAfter: number;
  wake: TriggerResult;
  /** Longest event-loop stall of the server around the wake-up (over 20 ms, else 0). */
  serverStallMs: number;
  /** When that stall started and ended, in ms after the trigger was sent (server and client clocks). */
  stall: { from: number; to: number } | null;
  /** Server CPU time from the trigger until every answer arrived (10 ms ticks). */
  serverCpuMs: number;
}

/** Reads RSS once it has stopped moving (two reads 200 ms apart within 1%), or after 3 s. */
async function stableRss(pid: number): Promise<number> {
  let prev = rssKB(pid);
  for (let i = 0; i < 15; i++) {
    await sleep(200);
    const cur = rssKB(pid);
    if (Math.abs(cur - prev) <= prev * 0.01) return cur;
    prev = cur;
  }
  return prev;
}

async function waitParked(server: ChildProc, client: ChildProc, n: number, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const parked = await server.call<number>('parked');
    if (parked >= n) return;
    if (performance.now() > deadline) {
      const st = await client.call<{ parked: number; answered: number; failed: number }>('status');
      throw new Error(`only ${parked} of ${n} long-polls parked on the server after ${timeoutMs} ms (client: ${JSON.stringify(st)})`);
    }
    await sleep(20);
  }
}

async function round(kind: 'hearth' | 'bare', client: ChildProc): Promise<RoundResult> {
  const t0 = performance.now();
  const dataDir = kind === 'hearth' ? tempDir('parked') : null;
  try {
    const { child: server, ready } = await ChildProc.start<{ port: number; email?: string; apiKey?: string }>(
      `${kind} server`,
      'server.ts',
      kind === 'hearth' ? ['hearth', JSON.stringify({ dataDir })] : ['bare-park'],
      { nodeArgs: ['--expose-gc'] },
    );
    const port = ready.port;
    const headers = kind === 'hearth' ? basicAuth(ready.email!, ready.apiKey!) : basicAuth('owner@example.com', 'x'.repeat(32));
    let requests: string[];
    if (kind === 'hearth') {
      const ids = await client.call<string[]>('register', { port, headers, n: POLLS, concurrency: 16 } satisfies RegisterArgs);
      await server.call('track', ids);
      requests = ids.map((id) =>
        rawRequest('GET', port, `/api/v1/events?queue_id=${encodeURIComponent(id)}&last_event_id=-1`, headers).toString(),
      );
    } else {
      // The same request shape as Hearth's (a queue id, an Authorization header), ignored.
      const prefix = `${Math.floor(Date.now() / 1000)}abcd`;
      requests = Array.from({ length: POLLS }, (_, i) =>
        rawRequest('GET', port, `/api/v1/events?queue_id=${encodeURIComponent(`${prefix}:${i}`)}&last_event_id=-1`, headers).toString(),
      );
    }
    const setupMs = performance.now() - t0;

    const rssBeforeNoGc = await stableRss(server.pid);
    await server.call('gc');
    const rssBefore = await stableRss(server.pid);
    const heapBefore = (await server.call<NodeJS.MemoryUsage>('mem')).heapUsed;

    // In batches, each waited for on the server, so the listen backlog never overflows (a dropped
    // handshake is retried only after seconds, and can lose a request).
    const tPark = performance.now();
    for (let i = 0; i < POLLS; i += PARK_BATCH) {
      const batch = requests.slice(i, i + PARK_BATCH);
      await client.call('park', { port, requests: batch, connectConcurrency: 100 } satisfies ParkArgs);
      await waitParked(server, client, i + batch.length);
    }
    const parkMs = performance.now() - tPark;

    const rssAfterNoGc = await stableRss(server.pid);
    await server.call('gc');
    const rssAfter = await stableRss(server.pid);
    const heapAfter = (await server.call<NodeJS.MemoryUsage>('mem')).heapUsed;
    const st = await client.call<{ parked: number; answered: number; failed: number }>('status');
    if (st.answered || st.failed) throw new Error(`${st.answered} answered / ${st.failed} failed before the trigger`);

    const trigger: TriggerArgs =
      kind === 'hearth'
        ? {
            port,
            request: rawRequest(
              'POST',
              port,
              '/api/v1/drafts',
              headers,
              new URLSearchParams({ drafts: JSON.stringify([{ type: '', to: [], topic: '', content: 'wake up' }]) }).toString(),
            ).toString(),
            expect: '"wake up"',
          }
        : { port, request: rawRequest('POST', port, '/trigger', headers, '').toString(), expect: '"drafts"' };
    await server.call('stallsStart');
    await sleep(50);
    const cpu0 = cpuMs(server.pid);
    const wake = await client.call<TriggerResult>('trigger', trigger);
    const serverCpuMs = cpuMs(server.pid) - cpu0;
    const gaps = await server.call<[number, number][]>('stallsStop');
    // The server's longest event-loop stall, relative to the moment the trigger was sent.
    const longest = gaps.reduce<[number, number]>((a, g) => (g[1] - g[0] > a[1] - a[0] ? g : a), [0, 0]);
    const stall = gaps.length ? { from: longest[0] - wake.sendEpoch, to: longest[1] - wake.sendEpoch } : null;
    if (wake.triggerStatus !== 200) throw new Error(`trigger failed: ${wake.triggerStatus} ${wake.triggerBody}`);
    if (wake.bad) throw new Error(`${wake.bad} long-poll answers without the event; e.g. ${wake.sample}`);
    await client.call('closeAll');
    await server.stop();
    return {
      kind,
      setupMs,
      parkMs,
      kbPerPoll: (rssAfter - rssBefore) / POLLS,
      kbPerPollNoGc: (rssAfterNoGc - rssBeforeNoGc) / POLLS,
      heapBytesPerPoll: (heapAfter - heapBefore) / POLLS,
      rssBefore,
      rssAfter,
      wake,
      serverStallMs: longest[1] - longest[0],
      stall,
      serverCpuMs,
    };
  } finally {
    await client.call('closeAll').catch(() => undefined);
    if (dataDir) removeTempDir(dataDir);
  }
}

export async function main(): Promise<void> {
  const started = performance.now();
  try {
    heading(`parked: ${fmtInt(POLLS)} parked GET /api/v1/events long-polls (Hearth) vs bare Koa awaiting a promise`);
    console.log(`  ${environment()}`);
    console.log(
      `  ${ROUNDS} rounds per server, alternating, a fresh server process each round; one client process holds all ` +
        `${fmtInt(POLLS)} sockets and takes every timestamp. RSS from /proc/<pid>/status after a forced GC ` +
        `(also without one). Hearth's trigger is POST /api/v1/drafts by the queues' owner; bare's is POST /trigger.`,
    );
    const { child: client } = await ChildProc.start<object>('parked client', 'parked-client.ts');
    const results: RoundResult[] = [];
    for (let i = 1; i <= ROUNDS; i++) {
      for (const kind of ['hearth', 'bare'] as const) {
        const r = await round(kind, client);
        results.push(r);
        console.log(
          `  round ${i} ${kind.padEnd(6)} ${fmtKB(r.kbPerPoll)}/poll, RSS ${fmtMB(r.rssBefore)} -> ${fmtMB(r.rssAfter)}; ` +
            `wake: send->last ${fmtMs(r.wake.sendToLastMs, 1)}, POST response->last ${fmtMs(r.wake.responseToLastMs, 1)}, ` +
            `server stall ${fmtMs(r.serverStallMs, 0)}`,
        );
      }
    }

    heading('parked results');
    console.log('  memory (per parked poll = RSS delta / polls):');
    table([
      ['round', 'server', 'KB/poll', 'KB/poll no GC', 'JS heap B/poll', 'RSS before', 'RSS after', 'setup', 'park all'],
      ...results.map((r, i) => [
        Math.floor(i / 2) + 1,
        r.kind,
        r.kbPerPoll.toFixed(1),
        r.kbPerPollNoGc.toFixed(1),
        fmtInt(r.heapBytesPerPoll),
        fmtMB(r.rssBefore),
        fmtMB(r.rssAfter),
        fmtMs(r.setupMs, 0),
        fmtMs(r.parkMs, 0),
      ]),
    ]);
    console.log('  wake-up (client clock; "send" = trigger POST written, "resp" = its response read):');
    table([
      ['round', 'server', 'POST rtt', 'send->first', 'send->last', 'resp->last', 'answers before resp', 'server stall (from..to after send)', 'server CPU', 'client CPU'],
      ...results.map((r, i) => [
        Math.floor(i / 2) + 1,
        r.kind,
        fmtMs(r.wake.postMs, 1),
        fmtMs(r.wake.sendToFirstMs, 1),
        fmtMs(r.wake.sendToLastMs, 1),
        fmtMs(r.wake.responseToLastMs, 1),
        fmtInt(r.wake.beforeResponse),
        r.stall ? `${fmtMs(r.serverStallMs, 0)} (${r.stall.from.toFixed(0)}..${r.stall.to.toFixed(0)})` : '< 20 ms',
        fmtMs(r.serverCpuMs, 0),
        fmtMs(r.wake.clientCpuMs, 0),
      ]),
    ]);
    const med = (kind: string, f: (r: RoundResult) => number) => median(results.filter((r) => r.kind === kind).map(f));
    console.log('');
    console.log(`  medians over ${ROUNDS} rounds:`);
    for (const kind of ['hearth', 'bare']) {
      console.log(
        `    ${kind.padEnd(6)}: ${fmtKB(med(kind, (r) => r.kbPerPoll))} RSS per parked poll ` +
          `(${fmtKB(med(kind, (r) => r.kbPerPollNoGc))} without forced GC; JS heap ${fmtInt(med(kind, (r) => r.heapBytesPerPoll))} B)`,
      );
      console.log(
        `            wake: send -> first ${fmtMs(med(kind, (r) => r.wake.sendToFirstMs), 1)}, send -> last ${fmtMs(med(kind, (r) => r.wake.sendToLastMs), 1)}, ` +
          `POST response -> last ${fmtMs(med(kind, (r) => r.wake.responseToLastMs), 1)} ` +
          `(${fmtInt(med(kind, (r) => r.wake.beforeResponse))} answers before the POST response); ` +
          `server event-loop stall ${fmtMs(med(kind, (r) => r.serverStallMs), 0)}`,
      );
    }
    const hKB = med('hearth', (r) => r.kbPerPoll);
    const bKB = med('bare', (r) => r.kbPerPoll);
    const hResp = med('hearth', (r) => r.wake.responseToLastMs);
    const hLast = med('hearth', (r) => r.wake.sendToLastMs);
    const bLast = med('bare', (r) => r.wake.sendToLastMs);
    console.log(`  RSS per parked poll: hearth ${fmtKB(hKB)}, bare ${fmtKB(bKB)}, ratio hearth/bare ${(hKB / bKB).toFixed(2)}  (goal <= ${GOAL_KB} KB: ${goal(hKB <= GOAL_KB)})`);
    console.log(`  POST response -> last long-poll answer (hearth): ${fmtMs(hResp, 1)}  (goal <= ${GOAL_WAKE_MS} ms: ${goal(hResp <= GOAL_WAKE_MS)})`);
    console.log(
      `  trigger sent -> last long-poll answer: hearth ${fmtMs(hLast, 1)}, bare ${fmtMs(bLast, 1)}, ratio hearth/bare ${(hLast / bLast).toFixed(2)}` +
        `  (vs ${GOAL_WAKE_MS} ms: ${goal(hLast <= GOAL_WAKE_MS)})`,
    );
    if (med('hearth', (r) => r.wake.beforeResponse) >= POLLS) {
      console.log(`  note: Hearth answers the POST only after every woken long-poll, so "POST response -> last" is <= 0; "sent -> last" is the wake-up time.`);
    }
    warnIfBusy(2);
    console.log(`  (took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    await stopAllChildren();
  }
}
