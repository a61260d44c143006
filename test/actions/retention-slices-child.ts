/**
 * A child process for test/actions/retention-slices.test.ts, run with `--single-threaded-gc` so
 * that the process's CPU time is the main thread's (and the file system's threads, which wait
 * more than they compute): it builds 20,000 messages, all past the organization's period of one
 * day, with 20 people's event queues open, runs one retention pass and measures the loop while it
 * runs. Prints one JSON line: the pass's report, the messages before and after, the longest turn
 * of the loop in CPU time and on the wall clock (a busy computer also counts the time it gave the
 * CPU to others there).
 *
 *   node --import tsx --single-threaded-gc test/actions/retention-slices-child.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../../server/app.js';
import { runRetentionPass } from '../../server/actions/retention.js';
import { silentLogger } from '../../server/log.js';
import { Store } from '../../server/store/store.js';
import { generateDataSet } from '../bench/messages-data.js';
import { eventually } from '../helpers/eventually.js';
import { Client } from '../helpers/server.js';

const MESSAGES = 20_000;
const dir = await mkdtemp(join(tmpdir(), 'hearth-retention-'));
try {
  const { users } = await generateDataSet(dir, { messages: MESSAGES, users: 100, channels: 40, subscribersPerChannel: 10, topicsPerChannel: 50 });
  const store = await Store.open(dir);
  const clock = { t: Date.now() + 3 * 86_400_000, now() { return this.t; } };
  const server = createApp({ store, log: silentLogger, clock, config: { apiRateLimitPerMinute: 0, retentionFirstPassMs: 3_600_000 } });
  const url = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  // The search index builds in slices of its own after the store opens: measure the pass alone.
  await eventually(() => store.messages.search.ready, 'the search index is built');
  const owner = new Client(url, { ...users[0]!, password: '' });
  if ((await owner.patch('/realm', { message_retention_days: 1 })).status !== 200) throw new Error('the period was not set');
  // Twenty people have the app open: every batch's events reach their queues.
  for (const u of users.slice(1, 21)) await new Client(url, { ...u, password: '' }).post('/register', { event_types: ['message', 'delete_message'] });
  const preview = (await owner.get('/hearth/retention/preview', { days: 1 })).body;
  const before = store.messages.size;

  let longestCpu = 0;
  let longestWall = 0;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let watching = true;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    longestCpu = Math.max(longestCpu, (cpu.user + cpu.system) / 1000);
    longestWall = Math.max(longestWall, now - last);
    last = now;
    lastCpu = process.cpuUsage();
    if (watching) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  const report = await runRetentionPass(server.app);
  const elapsedMs = performance.now() - started;
  watching = false;
  const out = { preview, before, after: store.messages.size, report, elapsedMs, longestCpu, longestWall };
  await server.close();
  await store.close();
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
