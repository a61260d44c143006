/**
 * `npm run bench -- p6`: 100-message narrow fetches (GET /messages, channel +
 * topic narrow, anchor newest, and a channel narrow anchored at a random
 * message) against a 1M-message store, sequentially over one keep-alive
 * connection. Baseline: the same on a 10k-message store. Goal: p99 <= 10 ms.
 */
import { environment, fmtMs, goal, heading, Samples, summarize, table, type Summary } from './lib.js';
import { withDataSet } from './messages-bench-lib.js';
import { RawConnection } from './raw-http.js';
import { topicName } from './messages-data.js';

const WARMUP = 100;
const REQUESTS = 1000;

async function measure(n: number): Promise<{ topic: Summary; channel: Summary; count: number }> {
  return withDataSet(n, async (s) => {
    const conn = await RawConnection.connect(s.ready.port);
    const reqs = (i: number, kind: 'topic' | 'channel') => {
      const ch = s.info.channels[i % s.info.channels.length]!;
      const user = ch.subscribers[i % ch.subscribers.length]!;
      const narrow =
        kind === 'topic'
          ? [{ operator: 'channel', operand: ch.id }, { operator: 'topic', operand: topicName(ch.id, (i * 7) % s.info.topicsPerChannel) }]
          : [{ operator: 'channel', operand: ch.id }];
      const anchor = kind === 'topic' ? 'newest' : String(1 + ((i * 7919) % n));
      return s.request(user, 'GET', '/messages', {
        anchor,
        num_before: kind === 'topic' ? '100' : '50',
        num_after: kind === 'topic' ? '0' : '50',
        narrow: JSON.stringify(narrow),
      });
    };
    let count = 0;
    const run = async (kind: 'topic' | 'channel') => {
      const lat = new Samples();
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const req = reqs(i, kind);
        const t0 = performance.now();
        const res = await conn.send(req);
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`fetch failed: ${res.status} ${res.body.toString().slice(0, 200)}`);
        if (i === WARMUP) count = (JSON.parse(res.body.toString()) as { messages: unknown[] }).messages.length;
        if (i >= WARMUP) lat.push(ms);
      }
      return summarize(lat.values());
    };
    const topic = await run('topic');
    const channel = await run('channel');
    conn.close();
    return { topic, channel, count };
  });
}

export async function main(): Promise<void> {
  heading('P6 100-message narrow fetch on a 1M-message store (baseline: 10k)');
  console.log(environment());
  const small = await measure(10_000);
  const big = await measure(1_000_000);
  const row = (name: string, x: Summary) => [name, fmtMs(x.p50), fmtMs(x.p90), fmtMs(x.p99), fmtMs(x.max)];
  table([
    ['case', 'p50', 'p90', 'p99', 'max'],
    row('10k channel+topic, newest', small.topic),
    row('1M  channel+topic, newest', big.topic),
    row('10k channel, 50/50 around an ID', small.channel),
    row('1M  channel, 50/50 around an ID', big.channel),
  ]);
  console.log(`messages per answer (1M, first measured): ${big.count}`);
  console.log(`ratio 1M/10k p99: topic ${(big.topic.p99 / small.topic.p99).toFixed(2)}x, channel ${(big.channel.p99 / small.channel.p99).toFixed(2)}x`);
  const worst = Math.max(big.topic.p99, big.channel.p99);
  console.log(`goal: p99 <= 10 ms on 1M: ${goal(worst <= 10)} (${fmtMs(worst)})`);
}
