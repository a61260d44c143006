/**
 * `npm run bench -- store`: durable writes (append + save) into a
 * SegmentedCollection holding 10k items and holding 1M items, in this process.
 * The data sets are written as segment files directly, then opened with
 * SegmentedCollection.open. Measures sequential write latency, a concurrent
 * case that shows group commit, and the event-loop delay during the writes.
 * The baseline is the 10k collection: the ratio is 1M/10k.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { SegmentedCollection } from '../../server/store/segmented.js';
import {
  environment,
  fmtInt,
  fmtMB,
  fmtMs,
  goal,
  heading,
  median,
  removeTempDir,
  rssKB,
  Samples,
  summarize,
  table,
  tempDir,
  warnIfBusy,
  type Summary,
} from './lib.js';

const SIZES = [10_000, 1_000_000];
const SEGMENT_SIZE = 1000; // SegmentedCollection's default
const ROUNDS = 5;
const SEQUENTIAL_WRITES = 500;
const WRITERS = 50;
const CONCURRENT_WRITES = 2000;
const WARMUP_WRITES = 200;
const GOAL_RATIO = 1.5;
const GOAL_STALL_MS = 50;

interface Message {
  id: number;
  type: 'stream';
  sender_id: number;
  recipient_id: number;
  topic: string;
  content: string;
  timestamp: number;
  flags: string[];
  last_edit_timestamp: number | null;
}

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna ' +
  'aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo';

function message(id: number): Message {
  return {
    id,
    type: 'stream',
    sender_id: 1 + (id % 37),
    recipient_id: 1 + (id % 11),
    topic: 'some topic',
    content: `${LOREM} #${id}`, // ~200 characters
    timestamp: 1_700_000_000 + id,
    flags: id % 3 ? ['read'] : [],
    last_edit_timestamp: null,
  };
}

/** Writes `n` items as full segment files, as SegmentedCollection lays them out, then syncs the disk. */
async function generate(dir: string, n: number): Promise<{ ms: number; bytes: number; syncMs: number }> {
  const t0 = performance.now();
  let bytes = 0;
  const firsts: number[] = [];
  for (let first = 1; first <= n; first += SEGMENT_SIZE) firsts.push(first);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < firsts.length) {
        const first = firsts[next++]!;
        const items: Message[] = [];
        for (let id = first; id < Math.min(first + SEGMENT_SIZE, n + 1); id++) items.push(message(id));
        const text = JSON.stringify(items);
        bytes += text.length;
        await writeFile(join(dir, `seg-${String(first).padStart(12, '0')}.json`), text, { mode: 0o600 });
      }
    }),
  );
  const ms = performance.now() - t0;
  // Flush the generated files now, so background writeback does not land in the measured fsyncs.
  const s0 = performance.now();
  execFileSync('sync');
  return { ms, bytes, syncMs: performance.now() - s0 };
}

/** Counts group-commit flushes from the outside: writes acknowledged in the same microtask drain share a flush. */
class BatchCounter {
  batches = 0;
  private open = false;

  acknowledged(): void {
    if (this.open) return;
    this.open = true;
    this.batches++;
    process.nextTick(() => (this.open = false));
  }
}

async function writeOne(c: SegmentedCollection<Message>): Promise<number> {
  const t0 = performance.now();
  const m = c.append(message(0)); // the id is assigned by append
  await c.save(m.id);
  return performance.now() - t0;
}

interface PhaseResult {
  latency: Summary;
  ms: number;
  writesPerSec: number;
  flushes: number;
  stall: { maxMs: number; p99Ms: number };
}

function watchLoop(): IntervalHistogram {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  return h;
}

function stallOf(h: IntervalHistogram): { maxMs: number; p99Ms: number } {
  h.disable();
  return { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6 };
}

async function sequential(c: SegmentedCollection<Message>, n: number): Promise<PhaseResult> {
  const lat = new Samples();
  const h = watchLoop();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) lat.push(await writeOne(c));
  const ms = performance.now() - t0;
  return { latency: summarize(lat.values()), ms, writesPerSec: (n / ms) * 1000, flushes: n, stall: stallOf(h) };
}

async function concurrent(c: SegmentedCollection<Message>, writers: number, total: number): Promise<PhaseResult> {
  const lat = new Samples();
  const counter = new BatchCounter();
  let left = total;
  const h = watchLoop();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (left > 0) {
        left--;
        lat.push(await writeOne(c));
        counter.acknowledged();
      }
    }),
  );
  const ms = performance.now() - t0;
  return { latency: summarize(lat.values()), ms, writesPerSec: (total / ms) * 1000, flushes: counter.batches, stall: stallOf(h) };
}

interface SizeResult {
  size: number;
  genMs: number;
  genBytes: number;
  syncMs: number;
  loadMs: number;
  segments: number;
  rssKB: number;
  heapKB: number;
  seq: PhaseResult[];
  conc: PhaseResult[];
  gcMaxMs: number;
  gcCount: number;
  gcTotalMs: number;
  stallMaxMs: number;
  stallP99Ms: number;
}

async function runSize(size: number): Promise<SizeResult> {
  const dir = tempDir(`store-${size}`);
  try {
    const gen = await generate(dir, size);
    console.log(`  ${fmtInt(size)} items: generated ${fmtMB(gen.bytes / 1024)} in ${fmtMs(gen.ms, 0)} (+ sync ${fmtMs(gen.syncMs, 0)})`);
    const t0 = performance.now();
    const c = await SegmentedCollection.open<Message>(dir, SEGMENT_SIZE);
    const loadMs = performance.now() - t0;
    if (c.maxId !== size) throw new Error(`loaded maxId ${c.maxId}, expected ${size}`);
    const mem = process.memoryUsage();
    const rss = rssKB();
    console.log(`  ${fmtInt(size)} items: SegmentedCollection.open took ${fmtMs(loadMs, 0)}, ${c.segmentCount} segments, RSS ${fmtMB(rss)}, JS heap ${fmtMB(mem.heapUsed / 1024)}`);

    for (let i = 0; i < WARMUP_WRITES; i++) await writeOne(c);

    const gcs: number[] = [];
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcs.push(e.duration);
    });
    obs.observe({ entryTypes: ['gc'] });
    const whole = watchLoop();
    const seq: PhaseResult[] = [];
    const conc: PhaseResult[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const s = await sequential(c, SEQUENTIAL_WRITES);
      seq.push(s);
      const k = await concurrent(c, WRITERS, CONCURRENT_WRITES);
      conc.push(k);
      console.log(
        `    round ${r}: sequential p50 ${fmtMs(s.latency.p50)} p99 ${fmtMs(s.latency.p99)}; ` +
          `concurrent ${fmtInt(k.writesPerSec)} writes/s in ${k.flushes} flushes, p50 ${fmtMs(k.latency.p50)} p99 ${fmtMs(k.latency.p99)}`,
      );
    }
    const stall = stallOf(whole);
    await new Promise((r) => setImmediate(r)); // let the observer deliver the last entries
    obs.disconnect();
    await c.settled();
    return {
      size,
      genMs: gen.ms,
      genBytes: gen.bytes,
      syncMs: gen.syncMs,
      loadMs,
      segments: c.segmentCount,
      rssKB: rss,
      heapKB: mem.heapUsed / 1024,
      seq,
      conc,
      gcMaxMs: gcs.length ? Math.max(...gcs) : 0,
      gcCount: gcs.length,
      gcTotalMs: gcs.reduce((a, b) => a + b, 0),
      stallMaxMs: stall.maxMs,
      stallP99Ms: stall.p99Ms,
    };
  } finally {
    removeTempDir(dir);
  }
}

export async function main(): Promise<void> {
  const started = performance.now();
  heading('store: durable append+save in a SegmentedCollection, 10k vs 1M items');
  console.log(`  ${environment()}; temp dirs under ${process.env.TMPDIR ?? '/tmp'}`);
  console.log(
    `  per size: ${ROUNDS} rounds of ${SEQUENTIAL_WRITES} sequential append+save(id), then ${WRITERS} concurrent writers ` +
      `doing ${CONCURRENT_WRITES} in all; segments of ${SEGMENT_SIZE}; message-like items of ~330 bytes of JSON. ` +
      `Event-loop delay: monitorEventLoopDelay({resolution: 10}) over the write phase ` +
      `(its values include the 10 ms sampling interval: an idle loop reads ~10 ms).`,
  );
  const results: SizeResult[] = [];
  for (const size of SIZES) {
    results.push(await runSize(size));
    (globalThis as { gc?: () => void }).gc?.();
  }

  heading('store results');
  table([
    ['items', 'load', 'RSS after load', 'round', 'seq p50', 'seq p99', 'seq max', 'conc writes/s', 'flushes', 'writes/flush', 'conc p50', 'conc p99', 'loop max (seq/conc)'],
    ...results.flatMap((r) =>
      r.seq.map((s, i) => {
        const k = r.conc[i]!;
        return [
          i === 0 ? fmtInt(r.size) : '',
          i === 0 ? fmtMs(r.loadMs, 0) : '',
          i === 0 ? fmtMB(r.rssKB) : '',
          i + 1,
          fmtMs(s.latency.p50),
          fmtMs(s.latency.p99),
          fmtMs(s.latency.max),
          fmtInt(k.writesPerSec),
          k.flushes,
          (CONCURRENT_WRITES / k.flushes).toFixed(1),
          fmtMs(k.latency.p50),
          fmtMs(k.latency.p99),
          `${fmtMs(s.stall.maxMs, 1)} / ${fmtMs(k.stall.maxMs, 1)}`,
        ];
      }),
    ),
  ]);
  console.log('');
  const p50 = (r: SizeResult) => median(r.seq.map((s) => s.latency.p50));
  const p99 = (r: SizeResult) => median(r.seq.map((s) => s.latency.p99));
  for (const r of results) {
    console.log(
      `  ${fmtInt(r.size).padStart(9)} items: load ${fmtMs(r.loadMs, 0)}, RSS ${fmtMB(r.rssKB)}, heap ${fmtMB(r.heapKB)}; ` +
        `sequential p50 ${fmtMs(p50(r))}, p99 ${fmtMs(p99(r))} (medians of ${ROUNDS} rounds); ` +
        `concurrent ${fmtInt(median(r.conc.map((k) => k.writesPerSec)))} writes/s, ${median(r.conc.map((k) => k.flushes))} flushes for ${CONCURRENT_WRITES} writes, ` +
        `p50 ${fmtMs(median(r.conc.map((k) => k.latency.p50)))}, p99 ${fmtMs(median(r.conc.map((k) => k.latency.p99)))}`,
    );
    console.log(
      `  ${''.padStart(9)}        event loop during writes: max ${fmtMs(r.stallMaxMs, 1)}, p99 ${fmtMs(r.stallP99Ms, 1)} ` +
        `(goal: never above ${GOAL_STALL_MS} ms: ${goal(r.stallMaxMs <= GOAL_STALL_MS)}); GC: ${r.gcCount} pauses, max ${fmtMs(r.gcMaxMs, 1)}, total ${fmtMs(r.gcTotalMs, 0)}`,
    );
  }
  const [small, big] = results as [SizeResult, SizeResult];
  const ratio = p50(big) / p50(small);
  console.log(`  sequential p50 ratio 1M/10k: ${ratio.toFixed(2)}  (goal <= ${GOAL_RATIO}: ${goal(ratio <= GOAL_RATIO)}); p99 ratio ${(p99(big) / p99(small)).toFixed(2)}`);
  warnIfBusy(1);
  console.log(`  (took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
