/**
 * HTTPS with the installation's own authority (server/tls/): the certificates' fields, read
 * by a parser rather than trusted by eye; the key files' modes; re-issue after an address
 * change (or near the end) keeps the authority; a Node client given the authority connects to
 * 127.0.0.1 and by host name, one without it is refused; the authority's downloads, the
 * trust page and the fingerprint on the status page; session cookies are Secure over HTTPS.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:https';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { doCreateRealm } from '../../server/actions/users.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { SERVER_DAYS, namesOf } from '../../server/tls/certificates.js';
import { ensureTls, wantedNames } from '../../server/tls/files.js';
import { Client } from '../helpers/server.js';

const DAY = 86_400_000;

function get(url: string, opts: { ca?: string; servername?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const r = request(url, { ca: opts.ca, servername: opts.servername, headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('latin1').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    r.on('error', reject);
    r.end();
  });
}

describe('the certificate authority and the server certificate', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const fresh = async () => {
    const d = await mkdtemp(join(tmpdir(), 'hearth-tls-'));
    dirs.push(d);
    return d;
  };

  it('meets the rules: SANs, serverAuth, SHA-256 with P-256, at most 397 days, a CA that only signs; keys 0600', async () => {
    const dir = await fresh();
    const names = { dns: ['localhost', 'office-pc', 'office-pc.local'], ips: ['127.0.0.1', '::1', '192.168.1.20'] };
    const tls = await ensureTls(dir, 'Hearth authority for office-pc', names);
    const cert = new x509.X509Certificate(tls.server.cert);
    const ca = new x509.X509Certificate(tls.ca.cert);
    const san = cert.getExtension(x509.SubjectAlternativeNameExtension)!;
    assert.deepEqual(san.names.items.map((n) => `${n.type}:${n.value}`), ['dns:localhost', 'dns:office-pc', 'dns:office-pc.local', 'ip:127.0.0.1', 'ip:::1', 'ip:192.168.1.20']);
    assert.deepEqual([...cert.getExtension(x509.ExtendedKeyUsageExtension)!.usages], [x509.ExtendedKeyUsage.serverAuth]);
    assert.equal(cert.getExtension(x509.BasicConstraintsExtension)!.ca, false);
    assert.equal(cert.getExtension(x509.KeyUsagesExtension)!.usages, x509.KeyUsageFlags.digitalSignature);
    assert.equal(cert.signatureAlgorithm.name, 'ECDSA');
    assert.equal((cert.signatureAlgorithm as EcdsaParams).hash && ((cert.signatureAlgorithm as EcdsaParams).hash as Algorithm).name, 'SHA-256');
    assert.equal((cert.publicKey.algorithm as EcKeyAlgorithm).namedCurve, 'P-256');
    const days = (cert.notAfter.getTime() - cert.notBefore.getTime()) / DAY;
    assert.ok(days <= 397, `${days} days`);
    assert.ok(days >= SERVER_DAYS, `${days} days`);
    assert.equal(cert.issuer, ca.subject);
    assert.ok(await cert.verify({ publicKey: ca.publicKey, signatureOnly: true }), 'signed by the authority');
    const caBasic = ca.getExtension(x509.BasicConstraintsExtension)!;
    assert.deepEqual([caBasic.ca, caBasic.pathLength, caBasic.critical], [true, 0, true]);
    assert.equal(ca.getExtension(x509.KeyUsagesExtension)!.usages, x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    assert.ok(await ca.isSelfSigned());
    // Node's own reading agrees.
    const node = new X509Certificate(tls.server.cert);
    assert.ok(node.checkHost('office-pc.local') && node.checkIP('192.168.1.20') && node.checkIP('::1'));
    assert.equal(node.checkHost('evil.example'), undefined);
    for (const [file, mode] of [['ca.key', 0o600], ['server.key', 0o600], ['ca.crt', 0o644], ['server.crt', 0o644]] as const) {
      assert.equal((await stat(join(dir, 'tls', file))).mode & 0o777, mode, file);
    }
    assert.equal((await stat(join(dir, 'tls'))).mode & 0o777, 0o700);
  });

  it('re-issues the server certificate when the addresses change or its end nears, keeping the authority', async () => {
    const dir = await fresh();
    const names = { dns: ['localhost'], ips: ['127.0.0.1', '::1', '10.0.0.5'] };
    const first = await ensureTls(dir, 'A', names);
    assert.equal(first.reissued, true);
    const again = await ensureTls(dir, 'A', names);
    assert.equal(again.reissued, false);
    assert.equal(again.server.cert, first.server.cert);
    const moved = await ensureTls(dir, 'A', { ...names, ips: ['127.0.0.1', '::1', '10.0.0.9'] });
    assert.equal(moved.reissued, true);
    assert.equal(moved.ca.cert, first.ca.cert, 'the authority stays');
    assert.deepEqual(namesOf(moved.server.cert).ips.filter((ip) => ip.startsWith('10.')), ['10.0.0.9']);
    const later = await ensureTls(dir, 'A', { ...names, ips: ['127.0.0.1', '::1', '10.0.0.9'] }, Date.now() + (SERVER_DAYS - 10) * DAY);
    assert.equal(later.reissued, true, 'ten days before its end');
    assert.equal(later.ca.cert, first.ca.cert);
    assert.equal(await readFile(join(dir, 'tls', 'server.crt'), 'utf8'), later.server.cert);
    // This computer's own names: localhost, the host name, <host>.local, loopback.
    const mine = wantedNames();
    assert.ok(mine.dns.includes('localhost') && mine.ips.includes('127.0.0.1') && mine.ips.includes('::1'));
  });
});

describe('hearth over HTTPS', () => {
  let dir: string;
  let server: RunningServer;
  let ca: string;
  let base: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-https-'));
    server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: silentLogger, httpsPort: 0 });
    await doCreateRealm(server.server.app, 'TLS Office', { email: 'o@example.com', password: 'long enough password', fullName: 'Olive' });
    ca = await readFile(join(dir, 'tls', 'ca.crt'), 'utf8');
    base = `https://127.0.0.1:${server.httpsPort}`;
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('a client given the authority connects to 127.0.0.1 and by host name; one without it is refused', async () => {
    const ok = await get(`${base}/api/v1/server_settings`, { ca });
    assert.equal(ok.status, 200);
    assert.equal(JSON.parse(ok.body).realm_name, 'TLS Office');
    const byName = await get(`${base}/api/v1/server_settings`, { ca, servername: hostname(), headers: { host: `${hostname()}:${server.httpsPort}` } });
    assert.equal(byName.status, 200);
    await assert.rejects(get(`${base}/api/v1/server_settings`), /self[- ]signed|unable to verify|UNABLE_TO_VERIFY|SELF_SIGNED/i);
    await assert.rejects(get(`${base}/api/v1/server_settings`, { ca, servername: 'evil.example' }), /altnames|Hostname\/IP does not match/i);
  });

  it('serves the authority as PEM, DER and an Apple profile, and a trust page with its fingerprint, over plain HTTP too', async () => {
    const plain = new Client(server.url, null);
    const pem = await fetch(`${server.url}/hearth/ca.crt`);
    assert.equal(pem.status, 200);
    assert.equal(pem.headers.get('content-type'), 'application/x-pem-file');
    assert.equal(await pem.text(), ca);
    const der = Buffer.from(await (await fetch(`${server.url}/hearth/ca.crt?format=der`)).arrayBuffer());
    assert.ok(new X509Certificate(der).raw.equals(new X509Certificate(ca).raw));
    const profile = await fetch(`${server.url}/hearth/ca.mobileconfig`);
    assert.equal(profile.headers.get('content-type'), 'application/x-apple-aspen-config');
    const plist = await profile.text();
    assert.ok(plist.includes(`<data>${der.toString('base64')}</data>`));
    assert.match(plist, /<key>PayloadType<\/key><string>com\.apple\.security\.root<\/string>/);
    const fp = new X509Certificate(ca).fingerprint256;
    const page = await fetch(`${server.url}/hearth/trust`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await page.text();
    assert.ok(html.includes(fp));
    for (const system of ['Windows', 'macOS', 'Linux', 'iPhone and iPad', 'Android', 'Firefox']) assert.ok(html.includes(`<h2>${system}`), system);
    assert.ok(html.includes(`https://127.0.0.1:${server.httpsPort}/`));
    // The admin status page shows the same fingerprint.
    const login = await plain.post('/fetch_api_key', { username: 'o@example.com', password: 'long enough password' });
    const owner = new Client(server.url, { id: login.body.user_id, email: 'o@example.com', apiKey: login.body.api_key, password: '' });
    const status = (await owner.get('/hearth/status')).body;
    assert.equal(status.ca_fingerprint_sha256, fp);
    assert.equal(status.https_port, server.httpsPort);
  });

  it('session cookies are Secure over HTTPS, not over plain HTTP', async () => {
    const form = new URLSearchParams({ username: 'o@example.com', password: 'long enough password' }).toString();
    const viaTls = await new Promise<string[]>((resolve, reject) => {
      const r = request(`${base}/json/login`, { method: 'POST', ca, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
        res.resume();
        resolve(res.headers['set-cookie'] ?? []);
      });
      r.on('error', reject);
      r.end(form);
    });
    assert.match(viaTls.join(';'), /;\s*Secure/i);
    const plain = await fetch(`${server.url}/json/login`, { method: 'POST', body: new URLSearchParams({ username: 'o@example.com', password: 'long enough password' }) });
    assert.doesNotMatch(plain.headers.get('set-cookie') ?? '', /Secure/i);
  });

  it('with plain HTTP off, HTTP only redirects to HTTPS (308) and still serves the trust page and the authority', async () => {
    const login = await new Client(server.url, null).post('/fetch_api_key', { username: 'o@example.com', password: 'long enough password' });
    const owner = new Client(server.url, { id: login.body.user_id, email: 'o@example.com', apiKey: login.body.api_key, password: '' });
    const queue = (await owner.post('/register', { event_types: ['drafts'] })).body.queue_id as string;
    assert.equal((await owner.patch('/realm', { hearth_plain_http: false })).status, 200);
    try {
      const redirected = await fetch(`${server.url}/api/v1/server_settings?x=1`, { redirect: 'manual' });
      assert.equal(redirected.status, 308);
      assert.equal(redirected.headers.get('location'), `https://127.0.0.1:${server.httpsPort}/api/v1/server_settings?x=1`);
      assert.equal((await fetch(`${server.url}/`, { redirect: 'manual' })).status, 308);
      for (const path of ['/hearth/trust', '/hearth/ca.crt', '/admin/style.css']) assert.equal((await fetch(`${server.url}${path}`)).status, 200, path);
      assert.equal((await get(`${base}/api/v1/server_settings`, { ca })).status, 200, 'HTTPS serves as before');
      const auth = `Basic ${Buffer.from(`o@example.com:${login.body.api_key}`).toString('base64')}`;
      assert.equal((await fetch(`${server.url}/api/v1/hearth/status`, { headers: { authorization: auth }, redirect: 'manual' })).status, 308, 'the API over HTTP too');
      // A valid long-poll, which would otherwise park the short way (server/views/events-direct.ts), is redirected too.
      const polled = await fetch(`${server.url}/api/v1/events?queue_id=${encodeURIComponent(queue)}&last_event_id=-1`, { headers: { authorization: auth }, redirect: 'manual' });
      assert.equal(polled.status, 308, 'a long-poll over HTTP too');
    } finally {
      // Back on, through HTTPS.
      const auth = `Basic ${Buffer.from(`o@example.com:${login.body.api_key}`).toString('base64')}`;
      await new Promise<void>((resolve, reject) => {
        const r = request(`${base}/api/v1/realm`, { method: 'PATCH', ca, headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(String(res.statusCode)))));
        });
        r.on('error', reject);
        r.end('hearth_plain_http=true');
      });
    }
    assert.equal((await fetch(`${server.url}/api/v1/server_settings`)).status, 200);
  });

  it('a backup leaves the authority out: its key never leaves the data dir', async () => {
    const login = await new Client(server.url, null).post('/fetch_api_key', { username: 'o@example.com', password: 'long enough password' });
    const owner = new Client(server.url, { id: login.body.user_id, email: 'o@example.com', apiKey: login.body.api_key, password: '' });
    const root = await mkdtemp(join(tmpdir(), 'hearth-tls-backup-'));
    try {
      assert.equal((await owner.post('/hearth/backup', { destination: root })).status, 200);
      await server.server.app.backups.finished();
      const done = (await owner.get('/hearth/backup')).body;
      assert.equal(done.state, 'done', JSON.stringify(done));
      assert.ok(existsSync(join(done.destination, 'realm.json')), 'the data is there');
      assert.equal(existsSync(join(done.destination, 'tls')), false, 'the authority is not');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('without HTTPS the downloads say so (404, JSON)', async () => {
    const d = await mkdtemp(join(tmpdir(), 'hearth-nohttps-'));
    const s = await startServer({ dataDir: d, host: '127.0.0.1', port: 0, log: silentLogger });
    try {
      const res = await fetch(`${s.url}/hearth/ca.crt`);
      assert.equal(res.status, 404);
      assert.match((await res.json()).msg, /HTTPS is off/);
    } finally {
      await s.stop();
      await rm(d, { recursive: true, force: true });
    }
  });
});
