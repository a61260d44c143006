/**
 * Child process of the `office` benchmark: the people of an office. Each registers, keeps one
 * long-poll parked on its own keep-alive connection (re-polling at once, as Zulip clients
 * do), reports presence every minute (spread), and records when each message event arrives
 * (`performance.timeOrigin + now()`, comparable with the sender's clock on this machine).
 */
import { performance } from 'node:perf_hooks';
import { childMain } from './lib.js';
import { basicAuth, RawConnection, rawRequest } from './raw-http.js';

interface Person {
  id: number;
  email: string;
  apiKey: string;
}

const now = () => performance.timeOrigin + performance.now();
const state = { running: false, failures: 0, presence: 0, reads: 0 };
/** [user id, message id, arrival ms] triples, flat. */
const arrivals: number[] = [];
const conns: RawConnection[] = [];
const timers: NodeJS.Timeout[] = [];

async function person(port: number, p: Person, presenceEveryMs: number, offsetMs: number, readEveryMs: number): Promise<void> {
  const headers = basicAuth(p.email, p.apiKey);
  const conn = await RawConnection.connect(port);
  conns.push(conn);
  const reg = await conn.send(rawRequest('POST', port, '/api/v1/register', headers, new URLSearchParams({ event_types: JSON.stringify(['message', 'presence', 'typing']), fetch_event_types: JSON.stringify(['message']) }).toString()));
  if (reg.status !== 200) throw new Error(`register ${reg.status}`);
  const { queue_id: queue, last_event_id: first } = JSON.parse(reg.body.toString()) as { queue_id: string; last_event_id: number };
  const side = await RawConnection.connect(port);
  conns.push(side);
  const ping = () =>
    void side.send(rawRequest('POST', port, '/api/v1/users/me/presence', headers, 'status=active&new_user_input=true&ping_only=false')).then(
      (r) => (r.status === 200 ? state.presence++ : state.failures++),
      () => state.running && state.failures++,
    );
  timers.push(setTimeout(() => {
    ping();
    timers.push(setInterval(ping, presenceEveryMs));
  }, offsetMs));
  // --read: marks what arrived as read every readEveryMs, as a web client with the channel open does.
  const unread: number[] = [];
  // Only when reading: idle connections would change what the plain run measures.
  const reader = readEveryMs > 0 ? await RawConnection.connect(port) : null;
  if (reader) conns.push(reader);
  let reading = false;
  const markRead = () => {
    if (!reader || reading || unread.length === 0) return;
    reading = true;
    const body = new URLSearchParams({ op: 'add', flag: 'read', messages: JSON.stringify(unread.splice(0)) }).toString();
    reader.send(rawRequest('POST', port, '/api/v1/messages/flags', headers, body)).then(
      (r) => ((reading = false), r.status === 200 ? state.reads++ : state.failures++),
      () => ((reading = false), state.running && state.failures++),
    );
  };
  if (readEveryMs > 0) timers.push(setTimeout(() => timers.push(setInterval(markRead, readEveryMs)), (offsetMs / presenceEveryMs) * readEveryMs));
  let last = first;
  void (async () => {
    while (state.running) {
      let res;
      try {
        res = await conn.send(rawRequest('GET', port, `/api/v1/events?queue_id=${encodeURIComponent(queue)}&last_event_id=${last}`, headers));
      } catch {
        if (state.running) state.failures++;
        return;
      }
      const t = now();
      if (res.status !== 200) {
        state.failures++;
        return;
      }
      for (const e of (JSON.parse(res.body.toString()) as { events: { id: number; type: string; message?: { id: number } }[] }).events) {
        last = Math.max(last, e.id);
        if (e.type === 'message') {
          arrivals.push(p.id, e.message!.id, t);
          if (readEveryMs > 0) unread.push(e.message!.id);
        }
      }
    }
  })();
}

childMain(async () => ({}), {
  async start(a: { port: number; people: Person[]; presenceEveryMs: number; readEveryMs?: number }) {
    state.running = true;
    await Promise.all(a.people.map((p, i) => person(a.port, p, a.presenceEveryMs, (i * a.presenceEveryMs) / a.people.length, a.readEveryMs ?? 0)));
    return { people: a.people.length };
  },
  collect() {
    const out = arrivals.splice(0);
    return { arrivals: out, failures: state.failures, presence: state.presence, reads: state.reads };
  },
  stop() {
    state.running = false;
    for (const t of timers) clearTimeout(t);
    for (const c of conns) c.close();
    return null;
  },
});
