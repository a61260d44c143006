/**
 * `npm run bench -- p8`: cold start with 1M messages. Generates the data set
 * in a temp dir, then starts Hearth on it in fresh child processes (3 rounds)
 * and reports the time to open (Store.open with all messages and indexes, then
 * listen) and the RSS once ready. Baseline: the same with 10k messages.
 * Goal: ready <= 3 s, RSS <= 1.5 GB.
 */
import { generateDataSet, DEFAULT_DATA_SET } from './messages-data.js';
import { ChildProc, environment, fmtInt, fmtMB, fmtMs, goal, heading, median, removeTempDir, stopAllChildren, table, tempDir } from './lib.js';

const ROUNDS = 3;

interface Ready {
  port: number;
  openMs: number;
  openCpuMs: number;
  uptimeMs: number;
  rssKB: number;
  messages: number;
}

async function coldStarts(dir: string): Promise<Ready[]> {
  const out: Ready[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const { child, ready } = await ChildProc.start<Ready>('hearth', 'messages-server.ts', [dir], { startTimeoutMs: 120_000 });
    out.push(ready);
    await child.stop();
  }
  return out;
}

export async function main(): Promise<void> {
  heading('P8 cold start with 1M messages (baseline: 10k messages)');
  console.log(environment());
  const results: Record<string, Ready[]> = {};
  for (const n of [10_000, 1_000_000]) {
    const dir = tempDir(`hearth-p8-${n}-`);
    try {
      const info = await generateDataSet(dir, { ...DEFAULT_DATA_SET, messages: n });
      console.log(`generated ${fmtInt(n)} messages (${fmtMB(info.bytes / 1024)} of JSON) in ${fmtMs(info.generateMs, 0)}`);
      results[n] = await coldStarts(dir);
    } finally {
      await stopAllChildren();
      removeTempDir(dir);
    }
  }
  const rows: (string | number)[][] = [
    ['messages', 'open (median)', 'open CPU time', 'process uptime at ready', 'RSS at ready (median)'],
  ];
  for (const [n, rs] of Object.entries(results)) {
    rows.push([
      fmtInt(Number(n)),
      fmtMs(median(rs.map((r) => r.openMs)), 0),
      fmtMs(median(rs.map((r) => r.openCpuMs)), 0),
      fmtMs(median(rs.map((r) => r.uptimeMs)), 0),
      fmtMB(median(rs.map((r) => r.rssKB))),
    ]);
  }
  table(rows);
  const big = results[1_000_000]!;
  const open = median(big.map((r) => r.openMs));
  const rss = median(big.map((r) => r.rssKB));
  const base = results[10_000]!;
  console.log(`ratio 1M/10k: open ${(open / median(base.map((r) => r.openMs))).toFixed(1)}x, RSS ${(rss / median(base.map((r) => r.rssKB))).toFixed(1)}x`);
  console.log('(open CPU time includes the garbage collector threads; on a busy machine wall time exceeds it)');
  console.log(`goal: ready <= 3 s: ${goal(open <= 3000)} (${fmtMs(open, 0)}); RSS <= 1.5 GB: ${goal(rss <= 1.5 * 1024 * 1024)} (${fmtMB(rss)})`);
}
