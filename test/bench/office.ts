/**
 * `npm run bench -- office [--minutes N]`: an office's busy hour. 500 people each hold a
 * long-poll (two client processes), 50 messages a second go into 50 channels of 75 people,
 * everyone reports presence each minute, someone is typing five times a second. Measured:
 * delivery latency from the start of each send to its arrival in every recipient's poll, the
 * server's CPU (fraction of one core) and RSS, and that every delivery arrived exactly once.
 * `--minutes` makes it a soak (one line per minute: RSS and latency should stay flat). `--read` adds
 * reading: everyone marks what arrived as read every 2 s (POST /messages/flags), as open web clients do.
 * Goals: p99 <= 100 ms, server <= 50% of one core, RSS <= 500 MB, nothing lost or doubled.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChildProc, environment, fmtMs, goal, heading, removeTempDir, Samples, stopAllChildren, summarize, table, tempDir } from './lib.js';
import { generateDataSet } from './messages-data.js';
import type { ServerReady } from './messages-bench-lib.js';
import { basicAuth, RawConnection, rawRequest } from './raw-http.js';

const PEOPLE = 500;
const RATE = 50;
const TYPING_RATE = 5;
const SENDERS = 12;
const now = () => performance.timeOrigin + performance.now();
const reading = () => process.argv.includes('--read');
const READ_EVERY_MS = 2_000;
const minutesArg = () => {
  const i = process.argv.indexOf('--minutes');
  const n = i >= 0 ? Number(process.argv[i + 1]) : 1;
  return Number.isFinite(n) && n > 0 ? n : 1;
};

export async function main(): Promise<void> {
  const minutes = minutesArg();
  heading(`office: 500 people polling, ${RATE} msg/s into channels of 75, presence, typing${reading() ? ', reading every 2 s' : ''}, for ${minutes} min`);
  console.log(environment());
  const dir = tempDir('hearth-office-');
  try {
    const info = await generateDataSet(dir, { users: PEOPLE, channels: 50, subscribersPerChannel: 75, topicsPerChannel: 20, messages: 10_000 });
    const { child: server, ready } = await ChildProc.start<ServerReady>('hearth', 'messages-server.ts', [dir], { startTimeoutMs: 120_000, nodeArgs: ['--expose-gc'] });
    await server.call('gc');
    const halves = [info.users.slice(0, PEOPLE / 2), info.users.slice(PEOPLE / 2)];
    const clients = (await Promise.all(halves.map((_, i) => ChildProc.start(`office-${i}`, 'office-client.ts', [], { startTimeoutMs: 30_000 })))).map((c) => c.child);
    await Promise.all(clients.map((c, i) => c.call('start', { port: ready.port, people: halves[i], presenceEveryMs: 60_000, readEveryMs: reading() ? READ_EVERY_MS : 0 })));
    console.log(`${PEOPLE} people registered and polling`);
    const accounts = new Map(info.users.map((u) => [u.id, u]));
    const senders = await Promise.all(Array.from({ length: SENDERS }, () => RawConnection.connect(ready.port)));
    const sentAt = new Map<number, number>();
    const recipients = new Map<number, number[]>();
    let seq = 0;
    // Sends (messages and typing) not made because all sender connections were busy, answered other than 200, or failed.
    const sendMisses = { skipped: 0, refused: 0, failed: 0 };
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const busy = new Array<boolean>(SENDERS).fill(false);
    const send = (kind: 'message' | 'typing') => {
      const slot = busy.indexOf(false);
      if (slot < 0) return void sendMisses.skipped++;
      const ch = info.channels[Math.floor(rnd() * info.channels.length)]!;
      const who = accounts.get(ch.subscribers[Math.floor(rnd() * ch.subscribers.length)]!)!;
      const topic = `topic ${ch.id}-${Math.floor(rnd() * 20)}`;
      const body =
        kind === 'message'
          ? new URLSearchParams({ type: 'stream', to: String(ch.id), topic, content: `busy hour message ${++seq}` })
          : new URLSearchParams({ type: 'stream', op: 'start', stream_id: String(ch.id), topic });
      busy[slot] = true;
      const t0 = now();
      senders[slot]!.send(rawRequest('POST', ready.port, kind === 'message' ? '/api/v1/messages' : '/api/v1/typing', basicAuth(who.email, who.apiKey), body.toString())).then(
        (res) => {
          busy[slot] = false;
          if (res.status !== 200) return void sendMisses.refused++;
          if (kind === 'message') {
            const id = (JSON.parse(res.body.toString()) as { id: number }).id;
            sentAt.set(id, t0);
            recipients.set(id, ch.subscribers);
          }
        },
        () => {
          busy[slot] = false;
          sendMisses.failed++;
        },
      );
    };
    // HEARTH_BENCH_PROFILE=DIR: the server's CPU profile over the run, as office.cpuprofile there.
    const profileDir = process.env.HEARTH_BENCH_PROFILE;
    if (profileDir) await server.call('profileStart');
    const cpu0 = (await server.call('cpu')) as number;
    const t0 = now();
    const rss: number[] = [];
    const perMinute: string[][] = [['minute', 'p50', 'p99', 'RSS', 'JS heap', 'outside the heap']];
    const latencies = new Samples();
    const seen = new Map<string, number>();
    let unexpected = 0;
    const clientReads = [0, 0];
    const clientFailures = [0, 0];
    const drain = async () => {
      for (const [ci, c] of clients.entries()) {
        const got = (await c.call('collect')) as { arrivals: number[]; failures: number; reads: number };
        clientReads[ci] = got.reads;
        clientFailures[ci] = got.failures;
        for (let i = 0; i < got.arrivals.length; i += 3) {
          const [user, msg, at] = [got.arrivals[i]!, got.arrivals[i + 1]!, got.arrivals[i + 2]!];
          const start = sentAt.get(msg);
          if (start === undefined) continue; // not ours (none expected)
          const key = `${user}:${msg}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
          if (!recipients.get(msg)!.includes(user)) unexpected++;
          latencies.push(at - start);
        }
      }
    };
    const msgTimer = setInterval(() => send('message'), 1000 / RATE);
    const typingTimer = setInterval(() => send('typing'), 1000 / TYPING_RATE);
    for (let m = 1; m <= minutes; m++) {
      const before = latencies.values().length;
      for (let s = 0; s < 12; s++) {
        await new Promise((r) => setTimeout(r, 5_000));
        rss.push(((await server.call('mem')) as { rssKB: number }).rssKB / 1024);
      }
      await drain();
      const minute = summarize(latencies.values().slice(before));
      // Where RSS goes: V8's heap (live and not yet collected) and what lives outside it (Buffers).
      const mem = (await server.call('mem')) as { heapUsed: number; external: number };
      const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
      perMinute.push([String(m), fmtMs(minute.p50), fmtMs(minute.p99), `${rss[rss.length - 1]!.toFixed(0)} MB`, mb(mem.heapUsed), mb(mem.external)]);
    }
    clearInterval(msgTimer);
    clearInterval(typingTimer);
    await new Promise((r) => setTimeout(r, 2_000));
    await drain();
    const seconds = (now() - t0) / 1000;
    const cpu = ((await server.call('cpu')) as number) - cpu0;
    if (profileDir) await server.call('profileStop', join(profileDir, 'office.cpuprofile'));
    let missing = 0;
    let doubled = 0;
    for (const [msg, users] of recipients) {
      for (const u of users) {
        const n = seen.get(`${u}:${msg}`) ?? 0;
        if (n === 0) missing++;
        if (n > 1) doubled++;
      }
    }
    for (const c of clients) await c.call('stop');
    for (const s of senders) s.close();
    const lat = summarize(latencies.values());
    const core = cpu / 1000 / seconds;
    const maxRss = Math.max(...rss);
    if (minutes > 1) table(perMinute);
    table([
      ['figure', 'value'],
      ['messages sent', `${recipients.size} (${(recipients.size / seconds).toFixed(1)}/s; ${sendMisses.skipped} skipped with every sender busy, ${sendMisses.refused} refused, ${sendMisses.failed} failed)`],
      ['deliveries', `${latencies.values().length} (missing ${missing}, doubled ${doubled}, to non-recipients ${unexpected})`],
      ['delivery latency', `p50 ${fmtMs(lat.p50)}, p99 ${fmtMs(lat.p99)}, max ${fmtMs(lat.max)}`],
      ['server CPU', `${(core * 100).toFixed(0)}% of one core`],
      ['server RSS', `max ${maxRss.toFixed(0)} MB`],
      ...(reading() ? [['read batches', `${clientReads[0]! + clientReads[1]!} (client failures ${clientFailures[0]! + clientFailures[1]!})`]] : []),
    ]);
    console.log(
      `goal: p99 <= 100 ms: ${goal(lat.p99 <= 100)} (${fmtMs(lat.p99)}); CPU <= 50% of a core: ${goal(core <= 0.5)} (${(core * 100).toFixed(0)}%); RSS <= 500 MB: ${goal(maxRss <= 500)} (${maxRss.toFixed(0)} MB); exactly once: ${goal(missing === 0 && doubled === 0 && unexpected === 0)}`,
    );
  } finally {
    await stopAllChildren();
    removeTempDir(dir);
  }
}
