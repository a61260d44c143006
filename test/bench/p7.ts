/**
 * `npm run bench -- p7`: 200 durable sends per second (POST /messages, open
 * loop, 8 keep-alive connections) for 10 s against a 1M-message store, with
 * the server's event-loop delay watched throughout. Baseline: the same on a
 * 10k-message store. Goals: event-loop delay never above 50 ms; write latency
 * at 1M / at 10k <= 1.5.
 */
import { environment, fmtMs, goal, heading, sleep, Samples, summarize, table, type Summary } from './lib.js';
import { withDataSet } from './messages-bench-lib.js';
import { RawConnection } from './raw-http.js';

const RATE = 200;
const SECONDS = 10;
const WARMUP = 200;
const CONNECTIONS = 8;

interface Result {
  latency: Summary;
  loop: { maxMs: number; p99Ms: number; maxGapMs: number };
  late: number;
}

async function measure(n: number): Promise<Result> {
  return withDataSet(n, async (s) => {
    const conns = await Promise.all(Array.from({ length: CONNECTIONS }, () => RawConnection.connect(s.ready.port)));
    const free = [...conns];
    const send = async (i: number): Promise<number> => {
      const ch = s.info.channels[i % s.info.channels.length]!;
      const req = s.request(ch.subscribers[i % ch.subscribers.length]!, 'POST', '/messages', {
        type: 'stream',
        to: String(ch.id),
        topic: `load ${i % 20}`,
        content: `load message ${i}: the quick brown fox jumps over the lazy dog`,
      });
      const conn = free.pop();
      if (!conn) throw new Error('no free connection: the server fell behind');
      const t0 = performance.now();
      const res = await conn.send(req);
      free.push(conn);
      if (res.status !== 200) throw new Error(`send failed: ${res.status} ${res.body.toString().slice(0, 200)}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < WARMUP; i++) await send(i);
    await s.child.call('loopStart');
    const lat = new Samples();
    const inflight: Promise<void>[] = [];
    const start = performance.now();
    let late = 0;
    for (let i = 0; i < RATE * SECONDS; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      else if (wait < -5) late++;
      if (free.length === 0) await Promise.race(inflight);
      const p = send(WARMUP + i).then((ms) => {
        lat.push(ms);
      });
      inflight.push(p);
      p.then(() => inflight.splice(inflight.indexOf(p), 1));
    }
    await Promise.all(inflight);
    const loop = await s.child.call<Result['loop']>('loopStop');
    for (const c of conns) c.close();
    return { latency: summarize(lat.values()), loop, late };
  });
}

export async function main(): Promise<void> {
  heading(`P7 ${RATE} msg/s for ${SECONDS} s on a 1M-message store (baseline: 10k)`);
  console.log(environment());
  const small = await measure(10_000);
  const big = await measure(1_000_000);
  const row = (name: string, r: Result) => [
    name,
    fmtMs(r.latency.p50),
    fmtMs(r.latency.p99),
    fmtMs(r.latency.max),
    fmtMs(r.loop.maxMs),
    fmtMs(r.loop.maxGapMs),
    String(r.late),
  ];
  table([['store', 'send p50', 'send p99', 'send max', 'loop delay max', 'longest gap', 'late sends'], row('10k', small), row('1M', big)]);
  const ratio50 = big.latency.p50 / small.latency.p50;
  const ratio99 = big.latency.p99 / small.latency.p99;
  console.log(`ratio 1M/10k: p50 ${ratio50.toFixed(2)}x, p99 ${ratio99.toFixed(2)}x`);
  console.log(`goal: event-loop delay <= 50 ms at 1M: ${goal(big.loop.maxMs <= 50)} (${fmtMs(big.loop.maxMs)})`);
  console.log(`goal: write latency 1M/10k <= 1.5 (p50): ${goal(ratio50 <= 1.5)} (${ratio50.toFixed(2)}x)`);
}
