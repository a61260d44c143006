/**
 * The short way for long-polls (server/views/events-direct.ts): a valid poll that will wait is
 * parked without Koa; every other poll goes through Koa and is answered exactly as before. The
 * server here is the test server's app behind `directPolls`, with Koa's listener wrapped to
 * record which polls reached it.
 */
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { directPolls } from '../../server/views/events-direct.js';
import { eventually } from '../helpers/eventually.js';
import { encodeParams, startTestServer, type Account, type TestServer } from '../helpers/server.js';

type Body = Record<string, unknown>;
interface Answer {
  status: number;
  type: string | null;
  body: Body;
}

const basic = (a: Account) => `Basic ${Buffer.from(`${a.email}:${a.apiKey}`).toString('base64')}`;

interface Harness {
  ts: TestServer;
  base: string;
  /** `METHOD path?query` of each /events request Koa saw. */
  viaKoa: string[];
  close(): Promise<void>;
}

async function harness(opts: Parameters<typeof startTestServer>[0] = {}): Promise<Harness> {
  const ts = await startTestServer(opts);
  const viaKoa: string[] = [];
  const koa = ts.server.koa.callback();
  const srv: Server = createServer(
    directPolls(ts.app, (req, res) => {
      if (req.url?.includes('/events')) viaKoa.push(`${req.method} ${req.url}`);
      void koa(req, res);
    }),
  );
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return {
    ts,
    base,
    viaKoa,
    async close() {
      ts.app.events.stop();
      srv.closeAllConnections();
      await new Promise((resolve) => srv.close(resolve));
      await ts.stop();
    },
  };
}

function poll(base: string, path: string, params: Record<string, string | number | boolean>, headers: Record<string, string>) {
  const controller = new AbortController();
  const done = fetch(`${base}${path}?${encodeParams(params)}`, { headers, signal: controller.signal }).then(
    async (res): Promise<Answer> => ({ status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Body }),
  );
  return { done, abort: () => controller.abort() };
}

async function register(h: Harness, account: Account): Promise<string> {
  const res = await fetch(`${h.base}/api/v1/register`, {
    method: 'POST',
    headers: { authorization: basic(account), 'content-type': 'application/x-www-form-urlencoded' },
    body: encodeParams({ event_types: ['drafts'] }).toString(),
  });
  const body = (await res.json()) as { queue_id: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.queue_id;
}

async function addDraft(h: Harness, account: Account, content: string): Promise<void> {
  const res = await fetch(`${h.base}/api/v1/drafts`, {
    method: 'POST',
    headers: { authorization: basic(account), 'content-type': 'application/x-www-form-urlencoded' },
    body: encodeParams({ drafts: [{ type: '', to: [], topic: '', content }] }).toString(),
  });
  assert.equal(res.status, 200);
}

const parked = (h: Harness, queueId: string) => h.ts.app.events.get(queueId)?.isParked === true;

describe('long-polls the short way', () => {
  let h: Harness;
  const clock = { t: 1_800_000_000_000, now() { return this.t; } };
  before(async () => {
    h = await harness({ clock });
  });
  after(() => h.close());

  it('a poll that waits parks without Koa; woken, it gets the answer Koa would send', async () => {
    const q = await register(h, h.ts.owner);
    const p = poll(h.base, '/api/v1/events', { queue_id: q, last_event_id: -1, user_client: 'test', bogus: 1 }, { authorization: basic(h.ts.owner) });
    await eventually(() => parked(h, q), 'the poll is parked', 2_000);
    await addDraft(h, h.ts.owner, 'hello');
    const a = await p.done;
    assert.equal(a.status, 200);
    assert.equal(a.type, 'application/json; charset=utf-8');
    assert.equal(a.body.result, 'success');
    assert.equal(a.body.msg, '');
    assert.equal(a.body.queue_id, q);
    assert.deepEqual(a.body.ignored_parameters_unsupported, ['bogus']);
    const events = a.body.events as Body[];
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'drafts');
    assert.equal(events[0]!.id, 0);
    assert.deepEqual(h.viaKoa, [], 'Koa never saw the poll');
  });

  it('the web app’s /json/events with its session cookie parks the same way, unless the session is due a write', async () => {
    const login = await fetch(`${h.base}/json/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: h.ts.owner.email, password: h.ts.owner.password }),
    });
    assert.equal(login.status, 200);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const q = await register(h, h.ts.owner);
    h.viaKoa.length = 0;
    const first = poll(h.base, '/json/events', { queue_id: q, last_event_id: -1 }, { cookie });
    await eventually(() => parked(h, q), 'the poll is parked', 2_000);
    assert.deepEqual(h.viaKoa, []);
    await addDraft(h, h.ts.owner, 'one');
    assert.equal(((await first.done).body.events as Body[]).length, 1);

    // An hour on, the session's last_used is due an update: that poll goes through Koa, which writes it.
    clock.t += 3600 * 1000;
    const second = poll(h.base, '/json/events', { queue_id: q, last_event_id: 0 }, { cookie });
    await eventually(() => parked(h, q), 'the second poll is parked', 2_000);
    assert.equal(h.viaKoa.length, 1);
    const stored = h.ts.store.sessions.all().find((s) => s.user_id === h.ts.owner.id);
    assert.equal(stored?.last_used, clock.t / 1000, 'Koa updated last_used');
    await addDraft(h, h.ts.owner, 'two');
    assert.equal(((await second.done).body.events as Body[])[0]!.id, 1);

    const third = poll(h.base, '/json/events', { queue_id: q, last_event_id: 1 }, { cookie });
    await eventually(() => parked(h, q), 'the third poll is parked', 2_000);
    assert.equal(h.viaKoa.length, 1, 'the updated session parks the short way again');
    third.abort();
    await third.done.catch(() => undefined);
  });

  it('a poll it would refuse or answer at once goes through Koa, answered as before, and changes nothing first', async () => {
    const bob = await h.ts.addUser('Bob');
    const q = await register(h, h.ts.owner);
    const waiting = poll(h.base, '/api/v1/events', { queue_id: q, last_event_id: -1 }, { authorization: basic(h.ts.owner) });
    await eventually(() => parked(h, q), 'a poll is parked', 2_000);
    h.viaKoa.length = 0;
    const owner = { authorization: basic(h.ts.owner) };
    const cases: [string, Record<string, string | number | boolean>, Record<string, string>, number, Body][] = [
      ['a wrong API key', { queue_id: q, last_event_id: -1 }, { authorization: basic({ ...h.ts.owner, apiKey: 'x'.repeat(32) }) }, 401, { code: 'UNAUTHORIZED', msg: 'Invalid API key' }],
      ['no credentials', { queue_id: q, last_event_id: -1 }, {}, 401, { code: 'UNAUTHORIZED' }],
      ['another user’s queue', { queue_id: q, last_event_id: -1 }, { authorization: basic(bob) }, 400, { code: 'BAD_EVENT_QUEUE_ID', queue_id: q }],
      ['no last_event_id', { queue_id: q }, owner, 400, { msg: "Missing 'last_event_id' argument" }],
      ['an event not in the queue', { queue_id: q, last_event_id: 5 }, owner, 400, { msg: 'Event 5 was not in this queue' }],
      ['a last_event_id that is not a number', { queue_id: q, last_event_id: 'x' }, owner, 400, { code: 'BAD_REQUEST' }],
      ['no queue_id', { last_event_id: -1 }, owner, 400, { code: 'REQUEST_VARIABLE_MISSING' }],
    ];
    for (const [what, params, headers, status, expected] of cases) {
      const a = await poll(h.base, '/api/v1/events', params, headers).done;
      assert.equal(a.status, status, `${what}: ${JSON.stringify(a.body)}`);
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(a.body[k], v, `${what}: ${k}`);
      assert.ok(parked(h, q), `${what}: the parked poll is still parked`);
    }
    assert.equal(h.viaKoa.length, cases.length, 'each went through Koa');

    // Non-blocking, and events already waiting: answered at once, through Koa.
    const nb = await poll(h.base, '/api/v1/events', { queue_id: q, last_event_id: -1, dont_block: true }, owner).done;
    assert.deepEqual(nb.body, { result: 'success', msg: '', events: [], queue_id: q });
    assert.deepEqual((await waiting.done).body.events, [], 'the non-blocking poll finished the parked one');
    await addDraft(h, h.ts.owner, 'waiting');
    const now = await poll(h.base, '/api/v1/events', { queue_id: q, last_event_id: -1 }, owner).done;
    assert.equal((now.body.events as Body[]).length, 1);
    assert.equal(h.viaKoa.length, cases.length + 2);
  });

  it('zulip-js’s `//api/v1/events` (a realm URL ending in a slash) goes through Koa, which parks it', async () => {
    const q = await register(h, h.ts.owner);
    h.viaKoa.length = 0;
    const p = poll(h.base, '//api/v1/events', { queue_id: q, last_event_id: -1 }, { authorization: basic(h.ts.owner) });
    await eventually(() => parked(h, q), 'the poll is parked', 2_000);
    assert.equal(h.viaKoa.length, 1);
    await addDraft(h, h.ts.owner, 'slash');
    assert.equal(((await p.done).body.events as Body[]).length, 1);
  });

  it('a URL Koa reads another way (a raw `#` in it) goes through Koa, which answers as it always did', async () => {
    const q = await register(h, h.ts.owner);
    h.viaKoa.length = 0;
    // parseurl ends the query at `#`: dont_block=true is the value Koa reads, so the poll answers at once.
    const path = `/api/v1/events?queue_id=${encodeURIComponent(q)}&last_event_id=-1&dont_block=true&x=#&dont_block=false`;
    const a = await new Promise<Answer>((resolve, reject) => {
      const { hostname, port } = new URL(h.base);
      const r = request({ hostname, port, path, headers: { authorization: basic(h.ts.owner) } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? null, body: JSON.parse(text) as Body }));
      });
      r.on('error', reject);
      r.end();
    });
    assert.deepEqual(a.body, { result: 'success', msg: '', events: [], queue_id: q, ignored_parameters_unsupported: ['x'] });
    assert.deepEqual(h.viaKoa, [`GET ${path}`]);
  });

  it('a newer poll finishes the parked one; a client that hangs up leaves nothing parked', async () => {
    const q = await register(h, h.ts.owner);
    const auth = { authorization: basic(h.ts.owner) };
    const older = poll(h.base, '/api/v1/events', { queue_id: q, last_event_id: -1 }, auth);
    await eventually(() => parked(h, q), 'the older poll is parked', 2_000);
    const newer = poll(h.base, '/api/v1/events', { queue_id: q, last_event_id: -1 }, auth);
    assert.deepEqual((await older.done).body, { result: 'success', msg: '', events: [], queue_id: q });
    await eventually(() => parked(h, q), 'the newer poll is parked', 2_000);
    newer.abort();
    await newer.done.catch(() => undefined);
    await eventually(() => !parked(h, q), 'the hung-up poll is gone', 2_000);
  });
});

describe('long-polls the short way: heartbeats', () => {
  let h: Harness;
  before(async () => {
    h = await harness({ config: { heartbeatMs: 150 } });
  });
  after(() => h.close());

  it('an idle parked poll is answered with a heartbeat', async () => {
    const q = await register(h, h.ts.owner);
    const a = await poll(h.base, '/api/v1/events', { queue_id: q, last_event_id: -1 }, { authorization: basic(h.ts.owner) }).done;
    assert.deepEqual(a.body, { result: 'success', msg: '', events: [{ type: 'heartbeat', id: 0 }], queue_id: q });
    assert.deepEqual(h.viaKoa, []);
  });
});
