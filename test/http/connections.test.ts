/**
 * Issue 36, item 2: slow bodies that pile up until nobody can connect. A body from nobody signed
 * in must arrive whole within config.anonymousBodyMs, and one remote address holds at most
 * config.connectionsPerAddress connections (server/http/connections.ts); both shortened here.
 * Other addresses are other loopback addresses (127.0.0.2 …), which the cap counts when
 * capLoopbackConnections is set, as it counts a LAN neighbour's.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Raw {
  socket: Socket;
  /** All the server sent so far. */
  got(): string;
  /** Resolves with all the server sent once it closed the connection. */
  closed: Promise<string>;
}

/** A connection from `from` to the server, writing `head` once connected. */
function open(port: number, from: string, head = ''): Promise<Raw> {
  return new Promise((resolve, reject) => {
    let got = '';
    let done!: (s: string) => void;
    const closed = new Promise<string>((r) => (done = r));
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      if (head) socket.write(head);
      resolve({ socket, got: () => got, closed });
    });
    socket.on('data', (d) => (got += d.toString()));
    socket.on('close', () => done(got));
    socket.on('error', reject);
  });
}

/** Writes one byte every `ms` until the connection closes. */
function trickle(raw: Raw, ms: number): void {
  const timer = setInterval(() => (raw.socket.destroyed ? clearInterval(timer) : raw.socket.write('a')), ms);
  void raw.closed.then(() => clearInterval(timer));
}

/** Whichever comes first: the connection closing (what it got) or `ms` passing (null). */
function closedWithin(raw: Raw, ms: number): Promise<string | null> {
  return Promise.race([raw.closed, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}

const status = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
const json = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

const slowBody = (path: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\n${extra}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000000\r\n\r\n`;

/** A GET on a fresh connection from `from`, kept alive; resolves once the whole answer is in. */
async function getFrom(port: number, from: string, auth: string, path = '/api/v1/users/me'): Promise<{ raw: Raw; answer: string }> {
  const raw = await open(port, from, `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`);
  for (let i = 0; i < 200 && !/\r\n\r\n[\s\S]*\}$/.test(raw.got()) && !raw.socket.destroyed; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return { raw, answer: raw.got() };
}

const basic = (ts: TestServer) => `Basic ${Buffer.from(`${ts.owner.email}:${ts.owner.apiKey}`).toString('base64')}`;

describe('a body from nobody signed in must arrive in time', () => {
  let ts: TestServer;
  let port: number;
  before(async () => {
    ts = await startTestServer({ config: { anonymousBodyMs: 400, bodyStallMs: 5000, connectionsPerAddress: 2 } });
    port = Number(new URL(ts.url).port);
  });
  after(() => ts.stop());

  it('fetch_api_key with Content-Length 10 MB and a byte every 50 ms: 408 after anonymousBodyMs, the connection closed', async () => {
    const t0 = Date.now();
    const raw = await open(port, '127.0.0.2', slowBody('/api/v1/fetch_api_key'));
    trickle(raw, 50);
    const got = await closedWithin(raw, 3000);
    raw.socket.destroy();
    assert.notEqual(got, null, 'still open after 3 s');
    assert.equal(status(got!), 408, got!);
    assert.equal(json(got!).result, 'error');
    assert.ok(Date.now() - t0 >= 380, `after ${Date.now() - t0} ms`);
  });

  it('a request refused before its body is read (401) whose body trickles is closed too', async () => {
    const raw = await open(port, '127.0.0.2', slowBody('/api/v1/users/me/status'));
    trickle(raw, 50);
    const got = await closedWithin(raw, 3000);
    raw.socket.destroy();
    assert.notEqual(got, null, `still open after 3 s, having answered ${raw.got().slice(0, 12)}`);
    assert.equal(status(got!), 401);
  });

  it('a signed-in body that keeps coming may take longer', async () => {
    const text = 'status_text=' + 'slow'.repeat(5);
    const raw = await open(
      port,
      '127.0.0.2',
      `POST /api/v1/users/me/status HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(ts)}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${text.length}\r\nConnection: close\r\n\r\n`,
    );
    const t0 = Date.now();
    for (const piece of text.match(/.{1,4}/g)!) {
      await new Promise((r) => setTimeout(r, 100));
      raw.socket.write(piece);
    }
    const got = await closedWithin(raw, 3000);
    assert.ok(Date.now() - t0 > 600, 'the body took longer than anonymousBodyMs');
    assert.equal(status(got ?? ''), 200, got ?? 'no answer');
  });

  it('loopback is not capped by default: five connections open from 127.0.0.1 and a sixth is served', async () => {
    const held = await Promise.all([1, 2, 3, 4, 5].map(() => open(port, '127.0.0.1')));
    try {
      const { answer } = await getFrom(port, '127.0.0.1', basic(ts));
      assert.equal(status(answer), 200, answer);
    } finally {
      held.forEach((r) => r.socket.destroy());
    }
  });
});

describe('connections per address', () => {
  let ts: TestServer;
  let port: number;
  before(async () => {
    ts = await startTestServer({ config: { connectionsPerAddress: 4, capLoopbackConnections: true } });
    port = Number(new URL(ts.url).port);
  });
  after(() => ts.stop());

  it('slow bodies fill one address: its next connection is answered 429 and closed, other addresses are served', async () => {
    const slow = await Promise.all([1, 2, 3, 4].map(() => open(port, '127.0.0.3', slowBody('/api/v1/fetch_api_key'))));
    slow.forEach((r) => trickle(r, 50));
    try {
      const over = await open(port, '127.0.0.3', `GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(ts)}\r\n\r\n`);
      const got = await closedWithin(over, 2000);
      over.socket.destroy();
      assert.equal(status(got ?? over.got()), 429, got ?? over.got());
      assert.equal(json(got!).code, 'RATE_LIMIT_HIT');
      assert.match(got!, /\r\nRetry-After: \d+\r\n/i);
      // Another address: GET /users/me and POST /messages are answered.
      const me = await ts.ownerClient.get('/users/me');
      assert.equal(me.status, 200);
      const sent = await ts.ownerClient.post('/messages', { type: 'direct', to: [ts.owner.id], content: 'still here' });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.ok(slow.every((r) => !r.socket.destroyed), 'the slow bodies are still held (anonymousBodyMs is 30 s)');
    } finally {
      slow.forEach((r) => r.socket.destroy());
    }
    // Once they are gone the address is served again.
    await new Promise((r) => setTimeout(r, 50));
    const { raw, answer } = await getFrom(port, '127.0.0.3', basic(ts));
    raw.socket.destroy();
    assert.equal(status(answer), 200, answer);
  });

  it('idle kept-alive connections count, and the oldest is closed to make room', async () => {
    const idle = [];
    for (let i = 0; i < 4; i++) idle.push(await getFrom(port, '127.0.0.4', basic(ts)));
    for (const { answer } of idle) assert.equal(status(answer), 200, answer);
    const { raw, answer } = await getFrom(port, '127.0.0.4', basic(ts));
    try {
      assert.equal(status(answer), 200, answer);
      assert.notEqual(await closedWithin(idle[0]!.raw, 1000), null, 'the oldest idle connection was closed');
      assert.ok(idle.slice(1).every(({ raw }) => !raw.socket.destroyed), 'the others are kept');
    } finally {
      raw.socket.destroy();
      idle.forEach(({ raw }) => raw.socket.destroy());
    }
  });

  it('connections whose headers are still arriving count, and are not closed to make room', async () => {
    const heads = await Promise.all([1, 2, 3, 4].map(() => open(port, '127.0.0.6', 'GET /api/v1/users/me HTTP/1.1\r\n')));
    const timer = setInterval(() => heads.forEach((r) => r.socket.write('X-Slow: 1\r\n')), 50);
    try {
      const over = await open(port, '127.0.0.6', `GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(ts)}\r\n\r\n`);
      const got = await closedWithin(over, 2000);
      over.socket.destroy();
      assert.equal(status(got ?? over.got()), 429, got ?? over.got());
      assert.ok(heads.every((r) => !r.socket.destroyed), 'the four are kept');
    } finally {
      clearInterval(timer);
      heads.forEach((r) => r.socket.destroy());
    }
  });

  it('connections past the cap wait for their request a few at a time; more are closed at once', async () => {
    const held = await Promise.all([1, 2, 3, 4].map(() => open(port, '127.0.0.5', 'GET /api/v1/users/me HTTP/1.1\r\n')));
    const waiting = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => open(port, '127.0.0.5')));
    try {
      const extra = await open(port, '127.0.0.5');
      assert.equal(await closedWithin(extra, 1000), '', 'closed at once, without an answer');
      assert.ok(waiting.every((r) => !r.socket.destroyed), 'the eight past the cap still wait');
      waiting[0]!.socket.write(`GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(ts)}\r\n\r\n`);
      assert.equal(status((await closedWithin(waiting[0]!, 2000)) ?? ''), 429);
    } finally {
      [...held, ...waiting].forEach((r) => r.socket.destroy());
    }
  });
});
