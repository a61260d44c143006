/**
 * Benchmark runner: `npm run bench -- NAME`. Benchmarks are scripts, not
 * tests: they print figures and a ratio against a baseline measured in the
 * same run. Without a known NAME, lists the benchmarks and exits with code 2.
 */
const benchmarks: Record<string, { about: string; load: () => Promise<{ main(): Promise<void> }> }> = {
  http: {
    about: 'req/s of authenticated GET /api/v1/users/me vs a bare Koa handler (separate processes)',
    load: () => import('./http.js'),
  },
  parked: {
    about: 'RSS per parked long-poll (10,000) vs bare Koa, and wake-up time of all of them by one event',
    load: () => import('./parked.js'),
  },
  p2: {
    about: 'durable sends/s and p99 with 10 parked subscribers per channel (baseline: no queues)',
    load: () => import('./p2.js'),
  },
  p3: {
    about: 'one message to 5,000 parked long-polls: acknowledgement to last delivery (baseline: bare Koa)',
    load: () => import('./p3.js'),
  },
  p6: {
    about: '100-message narrow fetches (GET /messages) on a 1M-message store, p99 (baseline: 10k messages)',
    load: () => import('./p6.js'),
  },
  p5: {
    about: 'POST /register at 10,000 people, 200 channels, 1M messages (mobile and narrowed; bytes plain and gzipped) vs 100 people',
    load: () => import('./p5.js'),
  },
  office: {
    about: "an office's busy hour: 500 people polling, 50 msg/s into channels of 75, presence, typing; delivery latency, server CPU and RSS, exactly once (--minutes N: a soak)",
    load: () => import('./office.js'),
  },
  search: {
    about: 'search narrow (absent, rare, common words; all channels and one) at 10k and 1M messages: word index vs the scan; hostile operands (`t` 10,000 times) and the event loop',
    load: () => import('./search.js'),
  },
  p7: {
    about: '200 durable sends/s on a 1M-message store: event-loop delay and write latency vs 10k messages',
    load: () => import('./p7.js'),
  },
  p8: {
    about: 'cold start with 1M messages: time to open and RSS (baseline: 10k messages)',
    load: () => import('./p8.js'),
  },
  history: {
    about: 'cost of history (issue 34) at 100k, 1M, 5M messages: RSS and time to ready, search index ready, old-history narrow fetch p99 cold and warm, register (baseline: 100k) [--sizes N,N --rounds N]',
    load: () => import('./history.js'),
  },
  access: {
    about: 'channel access diff (group/role changes): 1, 100 and every user of 2,000 x 300 channels vs a pair-by-pair check',
    load: () => import('./channel-access.js'),
  },
  render: {
    about: 'P9 Markdown render+sanitise µs per message vs marked alone, heap over 1M renders, adversarial inputs',
    load: () => import('./render.js'),
  },
  thumbnails: {
    about: 'time to make the thumbnails of a 12-megapixel photo (goal <= 1 s); upload answer time thumbnailed vs not (same run)',
    load: () => import('./thumbnails.js'),
  },
  web: {
    about: 'chat web client in Chromium: delivery to the DOM (vs an API long-poll), cold load at 100k messages, bundle size, a 10k-message channel scrolled',
    load: () => import('./web.js'),
  },
  calls: {
    about: "Hearth calls in Chromium (fake media): Join to the first remote frames, p50 of 20 joins into a room of two (goal <= 1 s) vs a loopback RTCPeerConnection pair; the server's CPU per 3-person call-minute vs the pages idle",
    load: () => import('./calls.js'),
  },
  store: {
    about: 'durable append+save latency in a SegmentedCollection at 10k vs 1M items, event-loop delay',
    load: () => import('./store.js'),
  },
};

const name = process.argv[2];
const bench = name ? benchmarks[name] : undefined;
if (!bench) {
  if (name) console.error(`unknown benchmark: ${name}\n`);
  console.error('usage: npm run bench -- NAME\n\nbenchmarks:');
  for (const [n, b] of Object.entries(benchmarks)) console.error(`  ${n.padEnd(8)} ${b.about}`);
  process.exit(2);
}

try {
  await (await bench.load()).main();
} catch (err) {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
}
