/**
 * `npm run bench -- p5`: POST /register in an organization of 10,000 people, 200 channels
 * (100 subscribers each) and 1M messages, as the mobile app asks for it (every event type, no
 * fetch_event_types) and as a narrowed web window does (`narrow` to one channel), sequential
 * over one keep-alive connection, with and without gzip. Each register's queue is deleted
 * right after. Baseline: the same requests in a 100-person organization with 10k messages.
 * Zulip's own figure for its 10,000-user development realm is about 300 ms and 4 MB.
 * Goal: p50 <= 100 ms and p99 <= 200 ms at 10,000 people.
 */
import { gunzipSync } from 'node:zlib';
import { ChildProc, environment, fmtMs, goal, heading, removeTempDir, Samples, stopAllChildren, summarize, table, tempDir, type Summary } from './lib.js';
import { generateDataSet, type DataSetOptions } from './messages-data.js';
import { basicAuth, RawConnection, rawRequest } from './raw-http.js';
import type { ServerReady } from './messages-bench-lib.js';

const RUNS = 100;
const WARMUP = 5;

/** What zulip-flutter sends (lib/api/route/events.dart): every event type, its capabilities. */
export const MOBILE = {
  apply_markdown: 'true',
  client_gravatar: 'true',
  slim_presence: 'true',
  include_subscribers: 'false',
  client_capabilities: JSON.stringify({ notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true, user_settings_object: true, empty_topic_name: true, simplified_presence_events: true }),
};

interface Case {
  time: Summary;
  bytes: number;
  gzipBytes: number;
}

async function measure(o: DataSetOptions): Promise<{ mobile: Case; narrowed: Case; openMs: number }> {
  const dir = tempDir(`hearth-p5-${o.users}-`);
  try {
    const info = await generateDataSet(dir, o);
    const { child, ready } = await ChildProc.start<ServerReady>('hearth', 'messages-server.ts', [dir], { startTimeoutMs: 300_000, nodeArgs: ['--expose-gc', ...(process.env.P5_NODE_ARGS ?? '').split(' ').filter(Boolean)] });
    // Steady state: the word index builds in the background after a start (slices of a few ms
    // between requests); its build is timed here and kept out of the registers measured.
    const search = await child.call<{ readyMs: number; terms: number }>('searchReady', null, 600_000);
    console.log(`  ${o.users} people: search index ready ${(search.readyMs / 1000).toFixed(1)} s after the process started (${search.terms.toLocaleString('en')} terms)`);
    await child.call('gc');
    const conn = await RawConnection.connect(ready.port);
    const user = info.channels[0]!.subscribers[1] ?? info.users[1]!.id;
    const account = info.users.find((u) => u.id === user)!;
    const auth = basicAuth(account.email, account.apiKey);
    const register = async (params: Record<string, string>, gzip: boolean) => {
      const t0 = performance.now();
      const res = await conn.send(rawRequest('POST', ready.port, '/api/v1/register', { ...auth, ...(gzip ? { 'Accept-Encoding': 'gzip' } : {}) }, new URLSearchParams(params).toString()));
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.body.toString().slice(0, 200)}`);
      const text = gzip ? gunzipSync(res.body).toString() : res.body.toString();
      const queue = (JSON.parse(text) as { queue_id: string }).queue_id;
      const del = await conn.send(rawRequest('DELETE', ready.port, `/api/v1/events?queue_id=${encodeURIComponent(queue)}`, auth));
      if (del.status !== 200) throw new Error(`delete queue failed: ${del.status}`);
      return { ms, bytes: res.body.length };
    };
    const run = async (params: Record<string, string>): Promise<Case> => {
      const lat = new Samples();
      let bytes = 0;
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const r = await register(params, false);
        if (i >= WARMUP) lat.push(r.ms);
        bytes = r.bytes;
      }
      const gz = await register(params, true);
      return { time: summarize(lat.values()), bytes, gzipBytes: gz.bytes };
    };
    // HEARTH_BENCH_PROFILE=DIR: the server's CPU profile over the 10,000-person mobile registers (p5-mobile.cpuprofile).
    const profileDir = o.users >= 10_000 ? process.env.HEARTH_BENCH_PROFILE : undefined;
    if (profileDir) await child.call('profileStart');
    const mobile = await run(MOBILE);
    if (profileDir) await child.call('profileStop', `${profileDir}/p5-mobile.cpuprofile`);
    const narrowed = await run({ ...MOBILE, narrow: JSON.stringify([['channel', info.channels[0]!.name]]) });
    conn.close();
    return { mobile, narrowed, openMs: ready.openMs };
  } finally {
    await stopAllChildren();
    removeTempDir(dir);
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

export async function main(): Promise<void> {
  heading('P5 POST /register at 10,000 people, 200 channels, 1M messages (baseline: 100 people, 10k messages)');
  console.log(environment());
  const small = await measure({ users: 100, channels: 40, subscribersPerChannel: 10, topicsPerChannel: 50, messages: 10_000 });
  const big = await measure({ users: 10_000, channels: 200, subscribersPerChannel: 100, topicsPerChannel: 50, messages: 1_000_000 });
  const row = (name: string, c: Case) => [name, fmtMs(c.time.p50), fmtMs(c.time.p99), fmtMs(c.time.max), kb(c.bytes), kb(c.gzipBytes)];
  table([
    ['case', 'p50', 'p99', 'max', 'bytes', 'gzipped'],
    row('100 people, mobile', small.mobile),
    row('100 people, narrowed', small.narrowed),
    row('10,000 people, mobile', big.mobile),
    row('10,000 people, narrowed', big.narrowed),
  ]);
  console.log(`ratio 10,000/100 p50: mobile ${(big.mobile.time.p50 / small.mobile.time.p50).toFixed(1)}x, narrowed ${(big.narrowed.time.p50 / small.narrowed.time.p50).toFixed(1)}x`);
  const p50 = Math.max(big.mobile.time.p50, big.narrowed.time.p50);
  const p99 = Math.max(big.mobile.time.p99, big.narrowed.time.p99);
  console.log(`goal: p50 <= 100 ms: ${goal(p50 <= 100)} (${fmtMs(p50)}); p99 <= 200 ms: ${goal(p99 <= 200)} (${fmtMs(p99)})`);
}
