import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { after, describe, it } from 'node:test';
import { isLoopbackAddress, isOwnAddress, isOwnHost, lanUrls, listeningLines } from '../../server/lib/network/lan-urls.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { startServe } from '../helpers/cli.js';
import { Client, startTestServer } from '../helpers/server.js';

const SETUP = { realm_name: 'Acme Office', full_name: 'Ada Admin', email: 'ada@example.com', password: 'a good password' };

/** A non-loopback IPv4 address of this machine (the LAN side of the setup check). */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

/** A request through node:http, which (unlike fetch) may set the Host header. */
function rawRequest(url: string, method: string, form?: Record<string, string>, host?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (host) headers.host = host;
    const r = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    r.on('error', reject);
    r.end(form ? new URLSearchParams(form).toString() : undefined);
  });
}

/** The stored organization (null when realm.json does not exist yet or holds none). */
const readRealm = async (dataDir: string) => {
  const text = await readFile(join(dataDir, 'realm.json'), 'utf8').catch(() => null);
  return text === null ? null : JSON.parse(text).realm;
};

describe('first-run setup from loopback', () => {
  it('creates the organization and its owner once, with a working API key', async () => {
    const ts = await startTestServer({ withRealm: false });
    try {
      const before = await ts.anonymous.get('/hearth/setup');
      assert.equal(before.status, 200);
      assert.equal(before.body.needs_setup, true);
      assert.equal(before.body.setup_token_required, false);

      // Bad input creates nothing.
      for (const [change, varName] of [
        [{ password: 'short' }, 'password'],
        [{ email: 'not-an-email' }, 'email'],
        [{ realm_name: '   ' }, 'realm_name'],
        [{ realm_name: 'x'.repeat(41) }, 'realm_name'],
      ] as const) {
        const bad = await ts.anonymous.post('/hearth/setup', { ...SETUP, ...change });
        assert.equal(bad.status, 400, JSON.stringify(bad.body));
        assert.equal(bad.body.var_name, varName);
        assert.equal(ts.store.realm.data.realm, null);
      }
      const missing = await ts.anonymous.post('/hearth/setup', { realm_name: 'X', email: 'a@example.com' });
      assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');

      const res = await ts.anonymous.post('/hearth/setup', SETUP);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.email, 'ada@example.com');
      assert.equal(typeof res.body.api_key, 'string');
      assert.ok(Array.isArray(res.body.lan_urls) && res.body.lan_urls.length > 0);
      for (const url of res.body.lan_urls) assert.match(url, /^http:\/\/[^/]+:\d+$/);

      const stored = await readRealm(ts.dataDir);
      assert.equal(stored.name, 'Acme Office');
      const users = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8')).users;
      assert.equal(users.length, 1);
      assert.equal(users[0].role, 100);
      assert.equal(users[0].full_name, 'Ada Admin');
      assert.match(users[0].password_hash, /^scrypt\$/);

      const owner = new Client(ts.url, { id: res.body.user_id, email: res.body.email, apiKey: res.body.api_key, password: '' });
      const me = await owner.get('/users/me');
      assert.equal(me.body.role, 100);
      const login = await ts.anonymous.post('/fetch_api_key', { username: SETUP.email, password: SETUP.password });
      assert.equal(login.body.api_key, res.body.api_key);

      assert.equal((await ts.anonymous.get('/hearth/setup')).body.needs_setup, false);
      const again = await ts.anonymous.post('/hearth/setup', { ...SETUP, email: 'mallory@example.com' });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'REALM_ALREADY_SET_UP');
      assert.equal(ts.store.users.all().length, 1);
    } finally {
      await ts.stop();
    }
  });

  it('a web page cannot claim the server through the owner’s browser (cross-site or DNS-rebound requests)', async () => {
    const ts = await startTestServer({ withRealm: false });
    try {
      const host = new URL(ts.url).host;
      // Another site's requests are refused before any view (http/cross-site.ts; fetch cannot set Host,
      // so the last is another origin too); a rebound name, below, reaches setup, which refuses it.
      const attempts: [Record<string, string>, string][] = [
        [{ origin: 'http://evil.example' }, 'CSRF_FAILED'],
        [{ origin: 'null' }, 'CSRF_FAILED'],
        [{ 'sec-fetch-site': 'cross-site' }, 'CSRF_FAILED'],
        [{ 'sec-fetch-site': 'same-site' }, 'CSRF_FAILED'],
        [{ host: `evil.example:${new URL(ts.url).port}`, origin: `http://evil.example:${new URL(ts.url).port}` }, 'CSRF_FAILED'],
      ];
      for (const [headers, code] of attempts) {
        const res = await ts.anonymous.call('POST', '/hearth/setup', SETUP, { headers });
        assert.equal(res.status, 403, JSON.stringify(headers));
        assert.equal(res.body.code, code, JSON.stringify(headers));
        assert.equal(ts.store.realm.data.realm, null);
      }
      // DNS rebinding: a loopback connection addressed to another name (fetch cannot set Host; node:http can).
      const rebound = (method: string) =>
        new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
          const body = new URLSearchParams(SETUP).toString();
          const r = request(
            `${ts.url}/api/v1/hearth/setup`,
            { method, headers: { host: 'evil.example:9991', 'content-type': 'application/x-www-form-urlencoded' } },
            (res) => {
              let text = '';
              res.setEncoding('utf8').on('data', (c: string) => (text += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
            },
          );
          r.on('error', reject);
          r.end(method === 'POST' ? body : undefined);
        });
      assert.equal((await rebound('GET')).body.setup_token_required, true);
      const viaRebind = await rebound('POST');
      assert.equal(viaRebind.status, 403);
      assert.equal(viaRebind.body.code, 'SETUP_TOKEN_REQUIRED');
      assert.equal(ts.store.realm.data.realm, null);
      // The admin page itself (same origin, as a browser sends it) is accepted.
      const ok = await ts.anonymous.call('POST', '/hearth/setup', SETUP, {
        headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    } finally {
      await ts.stop();
    }
  });

  it('two racing setups: exactly one wins', async () => {
    const ts = await startTestServer({ withRealm: false });
    try {
      const results = await Promise.all(
        ['a', 'b', 'c'].map((x) => ts.anonymous.post('/hearth/setup', { ...SETUP, email: `${x}@example.com` })),
      );
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 409, 409]);
      assert.equal(ts.store.users.all().length, 1);
    } finally {
      await ts.stop();
    }
  });
});

describe('first-run setup from another machine', { skip: lanAddress ? false : 'no non-loopback interface' }, () => {
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  after(async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const start = async (setupToken: boolean) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-setup-'));
    dirs.push(dataDir);
    // This machine plays another one: the server counts only loopback as its own addresses.
    const config = { networkInterfaces: () => ({ lo: networkInterfaces().lo }) };
    const s = await startServer({ dataDir, host: lanAddress!, port: 0, log: silentLogger, setupToken, config });
    servers.push(s);
    return { s, dataDir, client: new Client(`http://${lanAddress}:${s.port}`, null) };
  };

  it('is refused without the token or with a wrong one, accepted with it, and the token is then spent', async () => {
    const { s, dataDir, client } = await start(true);
    assert.match(s.setupToken ?? '', /^[\w-]{20,}$/);
    const info = await client.get('/hearth/setup');
    assert.equal(info.body.needs_setup, true);
    assert.equal(info.body.setup_token_required, true);

    for (const token of [undefined, '', 'wrong-token', `${s.setupToken}x`]) {
      const res = await client.post('/hearth/setup', { ...SETUP, setup_token: token });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 'SETUP_TOKEN_REQUIRED');
      assert.equal(s.store.realm.data.realm, null);
      assert.equal(await readRealm(dataDir), null);
    }
    const ok = await client.post('/hearth/setup', { ...SETUP, setup_token: s.setupToken! });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.lan_urls, [`http://${lanAddress}:${s.port}`]);
    assert.equal(s.server.app.config.setupToken, null);
    assert.equal((await readRealm(dataDir)).name, 'Acme Office');
  });

  it('without a configured token, only loopback may set up', async () => {
    const { s, client } = await start(false);
    assert.equal(s.setupToken, null);
    const res = await client.post('/hearth/setup', { ...SETUP, setup_token: 'anything' });
    assert.equal(res.status, 403);
    assert.equal(s.store.realm.data.realm, null);
  });

  it('`hearth serve` prints a setup token that works from the LAN', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-setup-cli-'));
    dirs.push(dataDir);
    const p = await startServe(['--data-dir', dataDir, '--host', lanAddress!, '--port', '0']);
    try {
      const deadline = Date.now() + 5000;
      while (!/setup token: /.test(p.stdout()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const token = /setup token: (\S+)/.exec(p.stdout())?.[1];
      assert.ok(token, p.stdout());
      // The request comes from this computer's LAN address, so a forged name plays the other machine.
      const url = `${p.url}/api/v1/hearth/setup`;
      assert.equal((await rawRequest(url, 'POST', SETUP, 'evil.example')).status, 403);
      const ok = await rawRequest(url, 'POST', { ...SETUP, setup_token: token }, 'evil.example');
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  });
});

describe('first-run setup from the server computer through its LAN address', { skip: lanAddress ? false : 'no non-loopback interface' }, () => {
  it('needs no token: the connection comes from one of the computer’s own addresses; a forged Host still does', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-setup-own-'));
    const s = await startServer({ dataDir, host: '0.0.0.0', port: 0, log: silentLogger, setupToken: true });
    try {
      const url = `http://${lanAddress}:${s.port}/api/v1/hearth/setup`;
      assert.equal((await rawRequest(url, 'GET')).body.setup_token_required, false);
      // Opened as the wildcard address (http://0.0.0.0:port, as an older version printed it).
      assert.equal((await rawRequest(`http://127.0.0.1:${s.port}/api/v1/hearth/setup`, 'GET', undefined, `0.0.0.0:${s.port}`)).body.setup_token_required, false);
      // A DNS-rebound name reaching the same socket is not this computer.
      assert.equal((await rawRequest(url, 'GET', undefined, `evil.example:${s.port}`)).body.setup_token_required, true);
      const refused = await rawRequest(url, 'POST', SETUP, `evil.example:${s.port}`);
      assert.equal(refused.status, 403);
      assert.equal(s.store.realm.data.realm, null);
      const ok = await rawRequest(url, 'POST', SETUP);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal((await readRealm(dataDir)).name, 'Acme Office');
    } finally {
      await s.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('LAN URLs and loopback addresses', () => {
  const ifaces = {
    lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
    eth0: [
      { address: '192.168.1.20', family: 'IPv4', internal: false },
      { address: 'fd00::2', family: 'IPv6', internal: false },
      { address: 'fe80::1', family: 'IPv6', internal: false },
    ],
    wlan0: [{ address: '169.254.3.4', family: 'IPv4', internal: false }],
  } as unknown as NodeJS.Dict<import('node:os').NetworkInterfaceInfo[]>;

  it('lists the interface addresses for a wildcard bind, the address itself otherwise', () => {
    assert.deepEqual(lanUrls('0.0.0.0', 9991, ifaces), ['http://192.168.1.20:9991']);
    assert.deepEqual(lanUrls('::', 9991, ifaces), ['http://192.168.1.20:9991', 'http://[fd00::2]:9991']);
    assert.deepEqual(lanUrls('10.0.0.5', 80, ifaces), ['http://10.0.0.5:80']);
    assert.deepEqual(lanUrls('0.0.0.0', 9991, { lo: ifaces.lo }), ['http://127.0.0.1:9991']);
  });

  it('counts loopback and the interfaces’ own addresses as this computer, by address and by host name', () => {
    for (const a of ['127.0.0.1', '::1', '192.168.1.20', '::ffff:192.168.1.20', 'fd00::2', 'FE80::1%eth0']) assert.equal(isOwnAddress(a, ifaces), true, a);
    for (const a of ['192.168.1.21', '::ffff:10.0.0.1', 'fd00::3', '', undefined]) assert.equal(isOwnAddress(a, ifaces), false, String(a));
    for (const h of ['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '192.168.1.20', '[fd00::2]', 'office-pc', 'OFFICE-PC.local']) {
      assert.equal(isOwnHost(h, ifaces, 'office-pc'), true, h);
    }
    for (const h of ['evil.example', '192.168.1.21', 'office-pc.evil.example', 'localhost.evil.example']) assert.equal(isOwnHost(h, ifaces, 'office-pc'), false, h);
  });

  it('serve prints the address to open on this computer first, then each LAN address', () => {
    assert.deepEqual(listeningLines('0.0.0.0', 9991, ifaces), ['listening on http://localhost:9991/', 'on the LAN: http://192.168.1.20:9991/']);
    assert.deepEqual(listeningLines('::', 9991, ifaces), ['listening on http://localhost:9991/', 'on the LAN: http://192.168.1.20:9991/', 'on the LAN: http://[fd00::2]:9991/']);
    assert.deepEqual(listeningLines('0.0.0.0', 9991, { lo: ifaces.lo }), ['listening on http://localhost:9991/']);
    assert.deepEqual(listeningLines('127.0.0.1', 8080, ifaces), ['listening on http://127.0.0.1:8080/']);
    assert.deepEqual(listeningLines('::1', 8080, ifaces), ['listening on http://[::1]:8080/']);
  });

  it('recognises loopback addresses in every form Node reports', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopbackAddress(a), true, a);
    for (const a of ['192.168.1.2', '::ffff:10.0.0.1', 'fd00::1', '', undefined, '1127.0.0.1', '127.0.0.1.evil']) {
      assert.equal(isLoopbackAddress(a), false, String(a));
    }
  });
});
