/**
 * Issue 36 (9): links the server hands out (invitations, realm_url, the redirect to HTTPS) are
 * built from its own address, never from a `Host` header anyone can forge.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { doCreateRealm } from '../../server/actions/users.js';
import { linkOrigin, parsePublicUrl } from '../../server/lib/network/link-origin.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { Client, encodeParams, startTestServer, type TestServer } from '../helpers/server.js';

/** A request with a chosen Host header (fetch does not let a caller set it). */
function withHost(url: string, host: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read field by field
  return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: { ...init.headers, host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const interfaces = {
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
  eth0: [{ address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', mac: '00:11:22:33:44:55', internal: false, cidr: '192.168.1.20/24' }],
} as const;

describe('link origin (unit)', () => {
  const base = { configured: null, scheme: 'http' as const, port: 9991, listen: { host: '0.0.0.0', port: 9991 }, interfaces: interfaces as never };

  it("keeps a host naming this computer, with the connection's own port", () => {
    assert.equal(linkOrigin({ ...base, hostname: 'localhost' }), 'http://localhost:9991');
    assert.equal(linkOrigin({ ...base, hostname: '192.168.1.20' }), 'http://192.168.1.20:9991');
    assert.equal(linkOrigin({ ...base, hostname: '::1' }), 'http://[::1]:9991');
  });

  it("replaces any other host with the computer's LAN address", () => {
    // An own address followed by `%` (read as an IPv6 zone) made links that were no URL.
    for (const hostname of ['evil.example', '192.168.1.99', '', 'localhost.evil.example', '127.0.0.1%', 'localhost%/evil', 'localhost%\\evil.example', '192.168.1.20%25x']) {
      assert.equal(linkOrigin({ ...base, hostname }), 'http://192.168.1.20:9991', hostname);
    }
    assert.equal(linkOrigin({ ...base, scheme: 'https', port: 9443, hostname: 'evil.example' }), 'https://192.168.1.20:9443');
  });

  it('a configured address always wins; --url accepts only an origin', () => {
    assert.equal(linkOrigin({ ...base, configured: 'https://chat.office.lan', hostname: 'localhost' }), 'https://chat.office.lan');
    assert.deepEqual(parsePublicUrl('http://chat.office.lan:9991/'), { origin: 'http://chat.office.lan:9991' });
    for (const bad of ['chat.office.lan', 'ftp://x', 'http://x/path', 'http://u:p@x', 'http://x/?q=1']) {
      assert.ok('error' in parsePublicUrl(bad), bad);
    }
  });
});

describe('links in answers to a forged Host', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('an invitation link made through Host: evil.example names the server', async () => {
    const res = await withHost(`${ts.url}/api/v1/invites/multiuse`, 'evil.example', {
      method: 'POST',
      headers: { authorization: ts.ownerClient.authHeader.authorization!, 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeParams({ invite_expires_in_minutes: 60 }).toString(),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(new URL(res.body.invite_link).origin, ts.url);
    const joined = await withHost(`${ts.url}/api/v1/hearth/join`, 'evil.example', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeParams({ key: /\/join\/([a-z0-9]{24})\//.exec(res.body.invite_link)![1]!, email: 'new@example.com', full_name: 'New', password: 'long enough password' }).toString(),
    });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.equal(joined.body.realm_url, ts.url);
  });
});

describe('the redirect to HTTPS', () => {
  let dir: string;
  let server: RunningServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-link-origin-'));
    server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: silentLogger, httpsPort: 0 });
    await doCreateRealm(server.server.app, 'Office', { email: 'o@example.com', password: 'long enough password', fullName: 'Olive' });
    const login = await new Client(server.url, null).post('/fetch_api_key', { username: 'o@example.com', password: 'long enough password' });
    const owner = new Client(server.url, { id: login.body.user_id, email: 'o@example.com', apiKey: login.body.api_key, password: '' });
    assert.equal((await owner.patch('/realm', { hearth_plain_http: false })).status, 200);
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('goes to the server over HTTPS, never to the Host a request named', async () => {
    const forged = await withHost(`${server.url}/api/v1/server_settings?x=1`, 'evil.example');
    assert.equal(forged.status, 308);
    assert.equal(forged.headers.location, `https://127.0.0.1:${server.httpsPort}/api/v1/server_settings?x=1`);
    const port = new URL(server.url).port;
    const odd = await withHost(`${server.url}/api/v1/server_settings`, 'localhost%/evil');
    assert.equal(odd.status, 308, 'a host that is no name: redirected to the server, not a 500');
    assert.equal(odd.headers.location, `https://127.0.0.1:${server.httpsPort}/api/v1/server_settings`);
    const own = await withHost(`${server.url}/admin/`, `localhost:${port}`);
    assert.equal(own.headers.location, `https://localhost:${server.httpsPort}/admin/`);
  });
});
