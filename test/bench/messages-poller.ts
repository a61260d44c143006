/**
 * Child process of P2: keeps one long-poll parked on each given event queue,
 * re-polling as soon as an answer arrives (as a Zulip client does), and
 * counts the message events received.
 */
import { childMain } from './lib.js';
import { RawConnection, rawRequest } from './raw-http.js';

export interface PollArgs {
  port: number;
  queues: { queueId: string; headers: Record<string, string> }[];
}

let running = false;
let received = 0;
let failures = 0;
const loops: Promise<void>[] = [];
const conns: RawConnection[] = [];

async function loop(port: number, queueId: string, headers: Record<string, string>): Promise<void> {
  const conn = await RawConnection.connect(port);
  conns.push(conn);
  let last = -1;
  while (running) {
    const path = `/api/v1/events?queue_id=${encodeURIComponent(queueId)}&last_event_id=${last}`;
    let res;
    try {
      res = await conn.send(rawRequest('GET', port, path, headers));
    } catch {
      if (running) failures++;
      return;
    }
    if (res.status !== 200) {
      failures++;
      return;
    }
    const body = JSON.parse(res.body.toString()) as { events: { id: number; type: string }[] };
    for (const e of body.events) {
      last = Math.max(last, e.id);
      if (e.type === 'message') received++;
    }
  }
}

childMain(async () => ({}), {
  start(a: PollArgs) {
    running = true;
    received = 0;
    failures = 0;
    for (const q of a.queues) loops.push(loop(a.port, q.queueId, q.headers));
    return null;
  },
  count: () => ({ received, failures }),
  stop() {
    running = false;
    for (const c of conns) c.close();
    return { received, failures };
  },
});
