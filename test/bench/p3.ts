/**
 * `npm run bench -- p3`: one channel message to 5,000 parked long-polls (100
 * subscribers with 50 queues each, all registered for `message` events): the
 * time from the send's acknowledgement (POST /messages answered) to the last
 * long-poll answer, measured by one client process. Baseline: 5,000 polls
 * parked on a bare Koa server woken by one trigger request. Goal (issue 18):
 * send to last delivery <= 1.05x bare Koa's.
 */
import type { ParkArgs, TriggerArgs, TriggerResult } from './parked-client.js';
import { generateDataSet } from './messages-data.js';
import {
  ChildProc,
  cpuMs,
  environment,
  fmtMs,
  goal,
  heading,
  median,
  removeTempDir,
  sleep,
  stopAllChildren,
  table,
  tempDir,
} from './lib.js';
import { RawConnection, basicAuth, rawRequest } from './raw-http.js';

const POLLS = 5000;
const ROUNDS = 5;
const BATCH = 500;

async function waitParked(server: ChildProc, n: number): Promise<void> {
  const deadline = performance.now() + 60_000;
  while ((await server.call<number>('parked')) < n) {
    if (performance.now() > deadline) throw new Error(`fewer than ${n} long-polls parked`);
    await sleep(20);
  }
}

async function park(server: ChildProc, client: ChildProc, port: number, requests: string[], track: boolean) {
  for (let i = 0; i < requests.length; i += BATCH) {
    await client.call('park', { port, requests: requests.slice(i, i + BATCH), connectConcurrency: 100 } satisfies ParkArgs);
    if (track) await waitParked(server, i + Math.min(BATCH, requests.length - i));
  }
  if (!track) await sleep(500);
}

/** A wake as the client saw it, and the server's CPU over it (from /proc: all its threads). */
type Wake = TriggerResult & { serverCpuMs: number };

/**
 * Fires the trigger and waits for every answer. HEARTH_BENCH_PROFILE=DIR: the server's CPU profile
 * over the wake as DIR/<name>.cpuprofile (the last round's is what stays).
 */
async function measureWake(server: ChildProc, client: ChildProc, trigger: TriggerArgs, name: string): Promise<Wake> {
  const profileDir = process.env.HEARTH_BENCH_PROFILE;
  if (profileDir) await server.call('profileStart');
  const cpu0 = cpuMs(server.pid);
  const wake = await client.call<TriggerResult>('trigger', trigger);
  const serverCpuMs = cpuMs(server.pid) - cpu0;
  if (profileDir) await server.call('profileStop', `${profileDir}/${name}.cpuprofile`);
  return { ...wake, serverCpuMs };
}

async function hearthRound(client: ChildProc): Promise<Wake> {
  const dir = tempDir('hearth-p3-');
  try {
    const info = await generateDataSet(dir, { messages: 1000, users: 100, channels: 1, subscribersPerChannel: 100, topicsPerChannel: 5 });
    const { child: server, ready } = await ChildProc.start<{ port: number }>('hearth', 'messages-server.ts', [dir]);
    const port = ready.port;
    const ch = info.channels[0]!;
    const users = info.users.filter((u) => ch.subscribers.includes(u.id));
    const conn = await RawConnection.connect(port);
    const ids: string[] = [];
    const requests: string[] = [];
    for (let i = 0; i < POLLS; i++) {
      const u = users[i % users.length]!;
      const headers = basicAuth(u.email, u.apiKey);
      const body = new URLSearchParams({ event_types: JSON.stringify(['message']) }).toString();
      const res = await conn.send(rawRequest('POST', port, '/api/v1/register', headers, body));
      const id = (JSON.parse(res.body.toString()) as { queue_id: string }).queue_id;
      ids.push(id);
      requests.push(rawRequest('GET', port, `/api/v1/events?queue_id=${encodeURIComponent(id)}&last_event_id=-1`, headers).toString());
    }
    conn.close();
    await server.call('track', ids);
    await park(server, client, port, requests, true);
    const sender = users[0]!;
    const body = new URLSearchParams({ type: 'stream', to: String(ch.id), topic: 'wake', content: 'wake up everyone' }).toString();
    const trigger: TriggerArgs = {
      port,
      request: rawRequest('POST', port, '/api/v1/messages', basicAuth(sender.email, sender.apiKey), body).toString(),
      expect: 'wake up everyone',
    };
    const wake = await measureWake(server, client, trigger, 'p3-hearth');
    if (wake.triggerStatus !== 200) throw new Error(`send failed: ${wake.triggerBody}`);
    if (wake.bad) throw new Error(`${wake.bad} answers without the message; e.g. ${wake.sample}`);
    await client.call('closeAll');
    await server.stop();
    return wake;
  } finally {
    removeTempDir(dir);
  }
}

async function bareRound(client: ChildProc, bodyBytes = 0): Promise<Wake> {
  const { child: server, ready } = await ChildProc.start<{ port: number }>('bare', 'server.ts', ['bare-park', JSON.stringify({ bodyBytes })]);
  const port = ready.port;
  const headers = basicAuth('owner@example.com', 'x'.repeat(32));
  const requests = Array.from({ length: POLLS }, (_, i) =>
    rawRequest('GET', port, `/api/v1/events?queue_id=q:${i}&last_event_id=-1`, headers).toString(),
  );
  await park(server, client, port, requests, false);
  while ((await server.call<number>('parked')) < POLLS) await sleep(20);
  const trigger: TriggerArgs = { port, request: rawRequest('POST', port, '/trigger', headers, '').toString(), expect: '"drafts"' };
  const wake = await measureWake(server, client, trigger, bodyBytes ? 'p3-bare-sized' : 'p3-bare');
  await client.call('closeAll');
  await server.stop();
  return wake;
}

export async function main(): Promise<void> {
  heading(`P3 one message to ${POLLS} parked long-polls (baseline: bare Koa woken by one request)`);
  console.log(environment());
  const { child: client } = await ChildProc.start<object>('client', 'parked-client.ts');
  const rows: (string | number)[][] = [['round', 'server', 'POST answered', 'send -> first', 'send -> last', 'ack -> last', 'answers', 'client CPU', 'server CPU']];
  const hearth: Wake[] = [];
  const bare: Wake[] = [];
  const sameSize: Wake[] = [];
  try {
    for (let r = 1; r <= ROUNDS; r++) {
      const h = await hearthRound(client);
      const b = await bareRound(client);
      // Informational: bare Koa answering bodies as large as Hearth's message event.
      const s = await bareRound(client, h.sample.length);
      hearth.push(h);
      bare.push(b);
      sameSize.push(s);
      for (const [kind, w] of [['hearth', h], ['bare', b], [`bare, ${h.sample.length} B body`, s]] as const) {
        rows.push([r, kind, fmtMs(w.postMs, 1), fmtMs(w.sendToFirstMs, 1), fmtMs(w.sendToLastMs, 1), fmtMs(w.responseToLastMs, 1), w.woken, fmtMs(w.clientCpuMs, 0), fmtMs(w.serverCpuMs, 0)]);
      }
    }
  } finally {
    await stopAllChildren();
  }
  table(rows);
  const hAck = median(hearth.map((w) => w.responseToLastMs));
  const hSend = median(hearth.map((w) => w.sendToLastMs));
  const bSend = median(bare.map((w) => w.sendToLastMs));
  const sSend = median(sameSize.map((w) => w.sendToLastMs));
  console.log(`median send -> last answer: hearth ${fmtMs(hSend, 1)}, bare ${fmtMs(bSend, 1)}, ratio ${(hSend / bSend).toFixed(2)}`);
  console.log(`  against bare Koa with answers as large as Hearth's (${hearth[0]!.sample.length} bytes): ${fmtMs(sSend, 1)}, ratio ${(hSend / sSend).toFixed(2)}`);
  console.log(`median acknowledgement -> last answer: hearth ${fmtMs(hAck, 1)}`);
  // The two parts of send -> last: until the first answer (Hearth: the send, its write to disk and the
  // events to every queue; bare Koa: building every answer), then the answers one after another.
  const spread = (ws: TriggerResult[]) => median(ws.map((w) => ((w.sendToLastMs - w.sendToFirstMs) * 1000) / w.woken));
  console.log(
    `median send -> first answer: hearth ${fmtMs(median(hearth.map((w) => w.sendToFirstMs)), 1)}, bare ${fmtMs(median(bare.map((w) => w.sendToFirstMs)), 1)}; ` +
      `then per answer: hearth ${spread(hearth).toFixed(0)} µs, bare ${spread(bare).toFixed(0)} µs, bare with Hearth-sized answers ${spread(sameSize).toFixed(0)} µs`,
  );
  console.log(`goal: send -> last answer <= 1.05x bare Koa's: ${goal(hSend / bSend <= 1.05)} (${(hSend / bSend).toFixed(2)}x)`);
}
