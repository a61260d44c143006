/**
 * `npm run bench -- search`: the `search` narrow at 10k and 1M messages, for a word in no
 * message, a rare word (20 messages posted during the run, so the index's live updates are
 * what finds them) and a common one, over all of a user's channels and in one channel;
 * 100-message pages from the newest, sequential over one keep-alive connection. Baseline: the
 * same queries with the index switched off (the scan), in the same run. Also how long the
 * index takes to build after start, its terms and the RSS. Goal: any search p99 <= 15 ms at 1M.
 */
import { environment, fmtMs, goal, heading, Samples, summarize, table, type Summary } from './lib.js';
import { withDataSet } from './messages-bench-lib.js';
import { RawConnection } from './raw-http.js';

const WARMUP = 20;
const REQUESTS = 200;
const QUERIES = [
  { name: 'absent word', operand: 'xylophone' },
  { name: 'rare word', operand: 'quasar' },
  { name: 'common word', operand: 'release' },
  { name: 'rare + common', operand: 'quasar release' },
];

interface Row {
  name: string;
  all: Summary;
  one: Summary;
  count: number;
}

async function measure(n: number): Promise<{ index: Row[]; scan: Row[]; readyMs: number; terms: number; rssMB: number }> {
  return withDataSet(n, async (s) => {
    const ready = (await s.child.call('searchReady')) as { readyMs: number; terms: number; rssKB: number };
    const ch = s.info.channels[0]!;
    const user = ch.subscribers[0]!;
    const conn = await RawConnection.connect(s.ready.port);
    // The rare word arrives through the API, as people write it.
    for (let i = 0; i < 20; i++) {
      const res = await conn.send(s.request(user, 'POST', '/messages', { type: 'stream', to: String(ch.id), topic: 'space', content: `a quasar sighting number ${i} before the release` }));
      if (res.status !== 200) throw new Error(`send failed: ${res.status} ${res.body.toString().slice(0, 200)}`);
    }
    const run = async (operand: string, oneChannel: boolean) => {
      const narrow = [...(oneChannel ? [{ operator: 'channel', operand: ch.id }] : []), { operator: 'search', operand }];
      const lat = new Samples();
      let count = 0;
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const t0 = performance.now();
        const res = await conn.send(s.request(user, 'GET', '/messages', { anchor: 'newest', num_before: '100', num_after: '0', narrow: JSON.stringify(narrow) }));
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`search failed: ${res.status} ${res.body.toString().slice(0, 200)}`);
        if (i === 0) count = (JSON.parse(res.body.toString()) as { messages: unknown[] }).messages.length;
        if (i >= WARMUP) lat.push(ms);
      }
      return { s: summarize(lat.values()), count };
    };
    const rows = async (): Promise<Row[]> => {
      const out: Row[] = [];
      for (const q of QUERIES) {
        const all = await run(q.operand, false);
        const one = await run(q.operand, true);
        out.push({ name: q.name, all: all.s, one: one.s, count: all.count });
      }
      return out;
    };
    const index = await rows();
    await s.child.call('searchScan', true);
    const scan = await rows();
    conn.close();
    return { index, scan, readyMs: ready.readyMs, terms: ready.terms, rssMB: ready.rssKB / 1024 };
  });
}

export async function main(): Promise<void> {
  heading('search narrow at 10k and 1M messages: word index vs the scan (same run)');
  console.log(environment());
  const results = [
    { n: '10k', r: await measure(10_000) },
    { n: '1M', r: await measure(1_000_000) },
  ];
  const lines: string[][] = [['case', 'index p50', 'index p99', 'scan p50 (baseline)', 'scan p99', 'p99 ratio', 'results']];
  let worst = 0;
  for (const { n, r } of results) {
    console.log(`${n}: index ready ${fmtMs(r.readyMs, 0)} after start, ${r.terms.toLocaleString('en-US')} terms, RSS then ${r.rssMB.toFixed(0)} MB`);
    r.index.forEach((row, i) => {
      const base = r.scan[i]!;
      for (const [where, x, b] of [['all channels', row.all, base.all], ['one channel', row.one, base.one]] as const) {
        lines.push([`${n} ${row.name}, ${where}`, fmtMs(x.p50), fmtMs(x.p99), fmtMs(b.p50), fmtMs(b.p99), `${(x.p99 / b.p99).toFixed(2)}x`, String(row.count)]);
        if (n === '1M') worst = Math.max(worst, x.p99);
      }
    });
  }
  table(lines);
  console.log(`goal: any search p99 <= 15 ms at 1M: ${goal(worst <= 15)} (worst ${fmtMs(worst)})`);
}
