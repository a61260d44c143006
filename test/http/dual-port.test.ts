/**
 * Issue 36 (9): HTTPS answers carry Strict-Transport-Security, and the plain-HTTP port speaks
 * HTTPS too, so a browser that HSTS sends from http://name:9991 to https://name:9991 (the same
 * port, as RFC 6797 says) finds Hearth there.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { doCreateRealm } from '../../server/actions/users.js';
import { HSTS } from '../../server/http/dual-port.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';

describe('HTTPS on both ports, with HSTS', () => {
  let dir: string;
  let server: RunningServer;
  let ca: string;
  let httpPort: number;

  const get = (url: string, agent?: Agent, init: { method?: string; body?: string } = {}) =>
    new Promise<{ status: number; hsts: string | undefined; body: string }>((resolve, reject) => {
      const r = request(url, { ca, agent, method: init.method ?? 'GET', headers: init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {} }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, hsts: res.headers['strict-transport-security'] as string | undefined, body: text }));
      });
      r.on('error', reject);
      r.end(init.body);
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-dual-port-'));
    server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: silentLogger, httpsPort: 0 });
    await doCreateRealm(server.server.app, 'Office', { email: 'o@example.com', password: 'long enough password', fullName: 'Olive' });
    ca = await readFile(join(dir, 'tls', 'ca.crt'), 'utf8');
    httpPort = Number(new URL(server.url).port);
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('the HTTPS port and the HTTP port both answer HTTPS, with Strict-Transport-Security', async () => {
    for (const port of [server.httpsPort!, httpPort]) {
      const res = await get(`https://127.0.0.1:${port}/api/v1/server_settings`);
      assert.equal(res.status, 200, String(port));
      assert.equal(JSON.parse(res.body).result, 'success');
      assert.equal(res.hsts, HSTS, String(port));
    }
    assert.match(HSTS, /^max-age=\d{7,}$/);
  });

  it('plain HTTP on its port is unchanged, and never says HSTS (a browser would ignore it there)', async () => {
    const res = await fetch(`${server.url}/api/v1/server_settings`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('strict-transport-security'), null);
  });

  it('keeps HTTPS connections alive on the HTTP port, bodies included, and sign-in works there', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca });
    try {
      const form = new URLSearchParams({ username: 'o@example.com', password: 'long enough password' }).toString();
      const first = await get(`https://127.0.0.1:${httpPort}/api/v1/fetch_api_key`, agent, { method: 'POST', body: form });
      assert.equal(first.status, 200, first.body);
      const second = await get(`https://127.0.0.1:${httpPort}/api/v1/server_settings`, agent);
      assert.equal(second.status, 200);
    } finally {
      agent.destroy();
    }
  });

  it('a TLS request that is not a handshake, or garbage, gets HTTP’s own answer; the server carries on', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const s = connect(httpPort, '127.0.0.1', () => s.write('\x16garbage\r\n\r\n'));
      let text = '';
      s.on('data', (d) => (text += d));
      s.on('close', () => resolve(text));
      s.on('error', reject);
      setTimeout(() => s.destroy(), 2000);
    });
    assert.doesNotMatch(raw, /^HTTP\/1\.1 2/);
    assert.equal((await fetch(`${server.url}/api/v1/server_settings`)).status, 200);
  });
});

describe('stopping with HTTPS connections open on the HTTP port', () => {
  it('closes them and stops promptly', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-dual-stop-'));
    const server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: silentLogger, httpsPort: 0 });
    try {
      const ca = await readFile(join(dir, 'tls', 'ca.crt'), 'utf8');
      const agent = new Agent({ keepAlive: true, ca });
      const port = Number(new URL(server.url).port);
      await new Promise<void>((resolve, reject) => {
        request(`https://127.0.0.1:${port}/api/v1/server_settings`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        }).on('error', reject).end();
      });
      const started = performance.now();
      await server.stop();
      assert.ok(performance.now() - started < 3000, `stopped in ${(performance.now() - started).toFixed(0)} ms`);
      agent.destroy();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('connections that never finish a TLS handshake (issue 36: they were held for good)', () => {
  /** Opens a connection, sends `bytes`, and resolves with how long the server kept it (or null if still open after `waitMs`). */
  const heldFor = (port: number, bytes: number[], waitMs: number) =>
    new Promise<number | null>((resolve) => {
      const s = connect(port, '127.0.0.1');
      const started = performance.now();
      const give = setTimeout(() => {
        s.destroy();
        resolve(null);
      }, waitMs);
      s.on('connect', () => {
        if (bytes.length) s.write(Buffer.from(bytes));
      });
      s.on('error', () => undefined);
      s.on('close', () => {
        clearTimeout(give);
        resolve(performance.now() - started);
      });
    });

  it('are closed after the handshake time on both ports, whether they sent nothing, one byte or a record header', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-dual-handshake-'));
    const server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: silentLogger, httpsPort: 0, config: { tlsHandshakeMs: 300 } });
    try {
      const httpPort = Number(new URL(server.url).port);
      const held = await Promise.all([
        heldFor(server.httpsPort!, [], 5000),
        heldFor(server.httpsPort!, [0x16], 5000),
        heldFor(httpPort, [0x16], 5000),
        heldFor(httpPort, [0x16, 0x03, 0x01, 0x02, 0x00], 5000),
      ]);
      for (const [i, ms] of held.entries()) assert.ok(ms !== null && ms < 3000, `connection ${i}: ${ms === null ? 'still open' : `${ms.toFixed(0)} ms`}`);
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('and stopping never waits for them, nor for a connection that sent nothing to the HTTP port', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-dual-stop-idle-'));
    const server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: silentLogger, httpsPort: 0 });
    const httpPort = Number(new URL(server.url).port);
    const open = [
      connect(httpPort, '127.0.0.1'),
      connect(httpPort, '127.0.0.1', function (this: ReturnType<typeof connect>) {
        this.write(Buffer.from([0x16]));
      }),
      connect(server.httpsPort!, '127.0.0.1'),
    ];
    try {
      for (const s of open) s.on('error', () => undefined);
      await new Promise((r) => setTimeout(r, 200));
      const started = performance.now();
      await server.stop();
      assert.ok(performance.now() - started < 3500, `stopped in ${(performance.now() - started).toFixed(0)} ms`);
    } finally {
      for (const s of open) s.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
