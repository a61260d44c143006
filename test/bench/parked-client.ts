/**
 * Client side of the `parked` benchmark, run as a child process: registers
 * event queues, parks thousands of long-polls on raw keep-alive sockets, then
 * fires the trigger request and times when every long-poll answer arrives.
 * All timestamps are taken in this one process (performance.now()).
 */
import { performance } from 'node:perf_hooks';
import { childMain, pool } from './lib.js';
import { RawConnection, rawRequest, type RawResponse } from './raw-http.js';

interface Parked {
  conn: RawConnection;
  answer: Promise<RawResponse>;
  answered: RawResponse | null;
  error: Error | null;
}

let parked: Parked[] = [];

export interface RegisterArgs {
  port: number;
  headers: Record<string, string>;
  n: number;
  concurrency: number;
}

/** POST /api/v1/register n times (event_types ["drafts"]); returns the queue ids. */
async function register(a: RegisterArgs): Promise<string[]> {
  const body = new URLSearchParams({ event_types: JSON.stringify(['drafts']) }).toString();
  const req = rawRequest('POST', a.port, '/api/v1/register', a.headers, body);
  const conns = await Promise.all(Array.from({ length: a.concurrency }, () => RawConnection.connect(a.port)));
  const ids: string[] = [];
  try {
    await Promise.all(
      conns.map(async (c) => {
        while (ids.length < a.n) {
          const r = await c.send(req);
          const b = JSON.parse(r.body.toString()) as { queue_id?: string; last_event_id?: number };
          if (r.status !== 200 || typeof b.queue_id !== 'string' || b.last_event_id !== -1) {
            throw new Error(`register failed: ${r.status} ${r.body.toString()}`);
          }
          ids.push(b.queue_id);
        }
      }),
    );
  } finally {
    for (const c of conns) c.close();
  }
  return ids.slice(0, a.n);
}

export interface ParkArgs {
  /** One request per long-poll, as sent. */
  requests: string[];
  port: number;
  connectConcurrency: number;
}

/** Opens one connection per request and sends it; resolves once every request is written. */
async function park(a: ParkArgs): Promise<{ ms: number }> {
  const t0 = performance.now();
  const fresh = await pool(a.requests, a.connectConcurrency, async (req) => {
    const conn = await RawConnection.connect(a.port);
    const p: Parked = { conn, answer: conn.send(req), answered: null, error: null };
    p.answer.then(
      (r) => (p.answered = r),
      (e: Error) => (p.error = e),
    );
    return p;
  });
  parked.push(...fresh);
  return { ms: performance.now() - t0 };
}

/** Long-polls answered (or failed) so far: should be 0 until the trigger. */
function status(): { parked: number; answered: number; failed: number } {
  let answered = 0;
  let failed = 0;
  for (const p of parked) {
    if (p.answered) answered++;
    if (p.error) failed++;
  }
  return { parked: parked.length, answered, failed };
}

export interface TriggerArgs {
  port: number;
  request: string;
  /** A substring every long-poll answer must contain. */
  expect: string;
}

export interface TriggerResult {
  triggerStatus: number;
  triggerBody: string;
  /** When the POST was sent, on the epoch clock (performance.timeOrigin + now), to line up with the server's stalls. */
  sendEpoch: number;
  /** POST sent → its response arrived. */
  postMs: number;
  /** POST sent → first / last long-poll answer arrived. */
  sendToFirstMs: number;
  sendToLastMs: number;
  /** POST response arrived → last long-poll answer arrived (negative: all arrived before it). */
  responseToLastMs: number;
  /** Long-poll answers that arrived before the POST response. */
  beforeResponse: number;
  woken: number;
  bad: number;
  /** CPU this client process spent from the trigger to the last answer. */
  clientCpuMs: number;
  sample: string;
}

/** Sends the trigger on a fresh connection and waits for every parked long-poll to answer. */
async function trigger(a: TriggerArgs): Promise<TriggerResult> {
  const conn = await RawConnection.connect(a.port);
  const early = parked.filter((p) => p.answered || p.error).length;
  if (early) throw new Error(`${early} long-polls answered before the trigger`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await conn.send(a.request);
  const answers = await Promise.all(parked.map((p) => p.answer));
  const cpu = process.cpuUsage(cpu0);
  conn.close();
  let first = Infinity;
  let last = -Infinity;
  let bad = 0;
  let beforeResponse = 0;
  for (const r of answers) {
    first = Math.min(first, r.at);
    last = Math.max(last, r.at);
    if (r.at < res.at) beforeResponse++;
    if (r.status !== 200 || !r.body.toString().includes(a.expect)) bad++;
  }
  return {
    triggerStatus: res.status,
    triggerBody: res.body.toString(),
    sendEpoch: performance.timeOrigin + t0,
    postMs: res.at - t0,
    sendToFirstMs: first - t0,
    sendToLastMs: last - t0,
    responseToLastMs: last - res.at,
    beforeResponse,
    woken: answers.length,
    bad,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
    sample: answers[0]?.body.toString() ?? '',
  };
}

function closeAll(): void {
  for (const p of parked) p.conn.close();
  parked = [];
}

childMain(async () => ({}), { register, park, status, trigger, closeAll });
