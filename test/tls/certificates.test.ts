/**
 * HTTPS with the installation's own authority (server/tls/): the certificates' fields, read
 * by a parser rather than trusted by eye; the key files' modes; re-issue after an address
 * change (or near the end) keeps the authority; the authority's Name Constraints, proved by TLS
 * handshakes with it as the only root (OpenSSL enforces them): a certificate its key signs for
 * www.example-bank.com or a public address is refused, the server's own is accepted; an
 * authority from before the constraints is kept and flagged until an owner replaces it (new key,
 * old certificate kept to name, a cut-short replacement finished or dropped); a Node client given
 * the authority connects to 127.0.0.1 and by host name, one without it is refused; the
 * authority's downloads, the trust page and the fingerprint on the status page; session cookies
 * are Secure over HTTPS.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { X509Certificate, webcrypto } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { hostname, tmpdir } from 'node:os';
import { connect, createServer, checkServerIdentity, type PeerCertificate } from 'node:tls';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { doCreateRealm, doCreateUser } from '../../server/actions/users.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { LOCAL_DOMAINS, LOCAL_RANGES, SERVER_DAYS, authorityScope, issueServerCertificate, namesOf, scopeOf, type Pem } from '../../server/tls/certificates.js';
import { ensureTls, replaceAuthority, wantedNames } from '../../server/tls/files.js';
import { Client } from '../helpers/server.js';

const DAY = 86_400_000;

function get(url: string, opts: { ca?: string; servername?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    // A connection of its own each time (no keep-alive): what a new visitor gets.
    const r = request(url, { ca: opts.ca, servername: opts.servername, headers: opts.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('latin1').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    r.on('error', reject);
    r.end();
  });
}

/**
 * A TLS handshake with `server`'s certificate, the authority `ca` the client's only root:
 * 'ok', or OpenSSL's reason for refusing it. `identity` is the name or address checked.
 */
async function handshake(ca: string, server: Pem, identity: string): Promise<string> {
  const listener = createServer({ key: server.key, cert: server.cert }, (socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as { port: number };
  try {
    return await new Promise<string>((resolve) => {
      const isIp = /^[\d.]+$|:/.test(identity);
      const socket = connect(
        { host: '127.0.0.1', port, ca: [ca], ...(isIp ? {} : { servername: identity }), checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(identity, cert) },
        () => {
          resolve('ok');
          socket.end();
        },
      );
      socket.on('error', (err) => resolve(err.message));
    });
  } finally {
    listener.close();
  }
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** An authority as Hearth made them before Name Constraints: no constraints, no EKU. */
async function oldAuthority(label: string): Promise<Pem> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: [{ CN: [label] }, { O: ['Hearth'] }],
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 3650 * DAY),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const key = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey)).toString('base64');
  return { cert: cert.toString('pem') + '\n', key: `-----BEGIN PRIVATE KEY-----\n${key.replace(/.{1,64}/g, '$&\n')}-----END PRIVATE KEY-----\n` };
}

async function plantAuthority(dataDir: string, ca: Pem): Promise<void> {
  await mkdir(join(dataDir, 'tls'), { recursive: true, mode: 0o700 });
  await writeFile(join(dataDir, 'tls', 'ca.crt'), ca.cert, { mode: 0o644 });
  await writeFile(join(dataDir, 'tls', 'ca.key'), ca.key, { mode: 0o600 });
}

const VIOLATION = /permitted subtree violation/;

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
    const tls = await ensureTls(dir, 'Hearth authority for office-pc', names, Date.now(), 'office-pc');
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
    assert.deepEqual([...ca.getExtension(x509.ExtendedKeyUsageExtension)!.usages], [x509.ExtendedKeyUsage.serverAuth], 'the authority vouches for servers only');
    assert.ok(await ca.isSelfSigned());
    // Name Constraints (2.5.29.30), critical as RFC 5280 requires, in RFC 5280's form (no leading dots).
    assert.equal(ca.getExtension('2.5.29.30')!.critical, true);
    assert.deepEqual(scopeOf(tls.ca.cert), { dns: ['localhost', 'local', 'home.arpa', 'internal', 'office-pc'], ips: [...LOCAL_RANGES] });
    assert.deepEqual([...LOCAL_RANGES], ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10', '::1/128', 'fc00::/7', 'fe80::/10']);
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

describe('the authority vouches for local names only (Name Constraints)', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const fresh = async () => {
    const d = await mkdtemp(join(tmpdir(), 'hearth-nc-'));
    dirs.push(d);
    return d;
  };
  const office = { dns: ['localhost', 'office-pc', 'office-pc.local'], ips: ['127.0.0.1', '::1', '192.168.1.20', '10.8.0.3', 'fd00:1::20'] };

  it('a certificate signed with the authority key for www.example-bank.com, a public address or a public name is refused', async () => {
    const tls = await ensureTls(await fresh(), 'A', office, Date.now(), 'office-pc');
    // What a thief holding tls/ca.key could make, signed exactly as Hearth signs its own.
    const forged = async (names: { dns: string[]; ips: string[] }) => issueServerCertificate(tls.ca, names, Date.now());
    assert.match(await handshake(tls.ca.cert, await forged({ dns: ['www.example-bank.com'], ips: [] }), 'www.example-bank.com'), VIOLATION);
    assert.match(await handshake(tls.ca.cert, await forged({ dns: ['localhost', 'www.example-bank.com'], ips: ['127.0.0.1'] }), 'localhost'), VIOLATION, 'one foreign name spoils the certificate');
    assert.match(await handshake(tls.ca.cert, await forged({ dns: ['localhost'], ips: ['8.8.8.8'] }), '8.8.8.8'), VIOLATION);
    assert.match(await handshake(tls.ca.cert, await forged({ dns: ['localhost'], ips: ['2001:db8::1'] }), '2001:db8::1'), VIOLATION);
    // A single label outside the scope (a top-level domain such as `chat`), and a name that only ends like one in it.
    assert.match(await handshake(tls.ca.cert, await forged({ dns: ['chat'], ips: [] }), 'chat'), VIOLATION);
    assert.match(await handshake(tls.ca.cert, await forged({ dns: ['evil-local.com'], ips: [] }), 'evil-local.com'), VIOLATION);
    assert.match(await handshake(tls.ca.cert, await forged({ dns: ['notlocalhost'], ips: [] }), 'notlocalhost'), VIOLATION);
    // The same certificate from an authority without constraints is accepted: the constraints are what refuse it.
    const old = await oldAuthority('B');
    assert.equal(await handshake(old.cert, await issueServerCertificate(old, { dns: ['www.example-bank.com'], ips: [] }), 'www.example-bank.com'), 'ok');
  });

  it("the server's own certificate verifies for every name and address it carries", async () => {
    const tls = await ensureTls(await fresh(), 'A', office, Date.now(), 'office-pc');
    for (const identity of ['localhost', 'office-pc', 'office-pc.local', '127.0.0.1', '::1', '192.168.1.20', '10.8.0.3', 'fd00:1::20']) {
      assert.equal(await handshake(tls.ca.cert, tls.server, identity), 'ok', identity);
    }
    // Other local names the scope permits, signed by the same key.
    const more = await issueServerCertificate(tls.ca, { dns: ['printer.local', 'nas.home.arpa', 'wiki.internal', 'app.localhost'], ips: ['172.20.1.1', '169.254.3.4', '100.100.1.2', 'fe80::1'] });
    for (const identity of ['printer.local', 'nas.home.arpa', 'wiki.internal', 'app.localhost', '172.20.1.1', '169.254.3.4', '100.100.1.2', 'fe80::1']) {
      assert.equal(await handshake(tls.ca.cert, more, identity), 'ok', identity);
    }
    assert.deepEqual(tls.leftOut, { dns: [], ips: [] });
    assert.equal(tls.limited, true);
  });

  it('names the authority may not vouch for are left out of the server certificate (a public IPv6 address, a new computer name)', async () => {
    const dir = await fresh();
    await ensureTls(dir, 'A', office, Date.now(), 'office-pc');
    // The computer now has a global IPv6 address and is called `reception` (letters only: never in the scope).
    const moved = await ensureTls(dir, 'A', { dns: ['localhost', 'reception', 'reception.local'], ips: ['127.0.0.1', '::1', '192.168.1.20', '2001:db8::20'] }, Date.now(), 'reception');
    assert.equal(moved.reissued, true);
    assert.deepEqual(moved.leftOut, { dns: ['reception'], ips: ['2001:db8::20'] });
    assert.deepEqual(namesOf(moved.server.cert).dns, ['localhost', 'reception.local']);
    for (const identity of ['localhost', 'reception.local', '192.168.1.20', '::1']) assert.equal(await handshake(moved.ca.cert, moved.server, identity), 'ok', identity);
    assert.equal((await ensureTls(dir, 'A', { dns: ['localhost', 'reception', 'reception.local'], ips: ['127.0.0.1', '::1', '192.168.1.20', '2001:db8::20'] })).reissued, false, 'and it stays issued');
  });

  it("the scope holds the computer's name only when it can never be a top-level domain", () => {
    const own = (host: string) => authorityScope(host).dns.slice(LOCAL_DOMAINS.length);
    assert.deepEqual(own('DESKTOP-7H2K9QF'), ['desktop-7h2k9qf']);
    assert.deepEqual(own('Olives-MacBook-Pro.local'), ['olives-macbook-pro']);
    assert.deepEqual(own('pc42'), ['pc42']);
    for (const host of ['chat', 'dev', 'reception', 'xn--p1ai', 'office-pc.corp.example.com', 'example.com', '-x', 'a_b', '']) assert.deepEqual(own(host), [], host);
  });

  it('an authority from before the constraints is kept and flagged; replacing it makes a new key, keeps the old certificate to name, and re-issues', async () => {
    const dir = await fresh();
    const old = await oldAuthority('Hearth authority for office-pc');
    await plantAuthority(dir, old);
    const names = { ...office, ips: [...office.ips, '2001:db8::20'] };
    const kept = await ensureTls(dir, 'A', names, Date.now(), 'office-pc');
    assert.equal(kept.ca.cert, old.cert, 'devices that trust it keep working');
    assert.equal(kept.limited, false);
    assert.deepEqual(kept.leftOut, { dns: [], ips: [] }, 'it vouches for everything, as before');
    assert.equal(scopeOf(kept.ca.cert), null);
    assert.equal(await handshake(old.cert, kept.server, '2001:db8::20'), 'ok');

    const replaced = await replaceAuthority(dir, 'A', names, Date.now(), 'office-pc');
    assert.notEqual(replaced.ca.cert, old.cert);
    assert.equal(replaced.limited, true);
    assert.equal(replaced.reissued, true);
    assert.equal(replaced.previous, old.cert);
    assert.equal(await readFile(join(dir, 'tls', 'ca-previous.crt'), 'utf8'), old.cert);
    assert.notEqual(await readFile(join(dir, 'tls', 'ca.key'), 'utf8'), old.key, 'the old key is gone');
    assert.ok(!new X509Certificate(replaced.ca.cert).publicKey.equals(new X509Certificate(old.cert).publicKey), 'a new key, not the old one re-signed');
    assert.deepEqual(replaced.leftOut, { dns: [], ips: ['2001:db8::20'] });
    assert.equal(await handshake(replaced.ca.cert, replaced.server, 'office-pc.local'), 'ok');
    assert.match(await handshake(old.cert, replaced.server, 'office-pc.local'), /unable to verify|signature|issuer/i, 'the old authority does not vouch for the new certificate');
    assert.equal((await stat(join(dir, 'tls', 'ca.key'))).mode & 0o777, 0o600);
    for (const leftover of ['ca.next.key', 'ca.next.crt']) assert.equal(existsSync(join(dir, 'tls', leftover)), false, leftover);
    const again = await ensureTls(dir, 'A', names);
    assert.equal(again.ca.cert, replaced.ca.cert);
    assert.equal(again.reissued, false);
  });

  it('a replacement cut short is finished when its certificate was written, dropped when not', async () => {
    const dir = await fresh();
    const first = await ensureTls(dir, 'A', office, Date.now(), 'office-pc');
    const next = await oldAuthority('next');
    // Stopped after writing the new key only: the old authority stays.
    await writeFile(join(dir, 'tls', 'ca.next.key'), next.key, { mode: 0o600 });
    const dropped = await ensureTls(dir, 'A', office);
    assert.equal(dropped.ca.cert, first.ca.cert);
    assert.equal(existsSync(join(dir, 'tls', 'ca.next.key')), false);
    // Stopped after writing both: the new authority takes over, its key with it.
    await writeFile(join(dir, 'tls', 'ca.next.key'), next.key, { mode: 0o600 });
    await writeFile(join(dir, 'tls', 'ca.next.crt'), next.cert, { mode: 0o644 });
    const finished = await ensureTls(dir, 'A', office);
    assert.equal(finished.ca.cert, next.cert);
    assert.equal(await readFile(join(dir, 'tls', 'ca.key'), 'utf8'), next.key);
    assert.equal(finished.reissued, true);
    // Stopped after moving the key: the certificate follows.
    const third = await oldAuthority('third');
    await writeFile(join(dir, 'tls', 'ca.key'), third.key, { mode: 0o600 });
    await writeFile(join(dir, 'tls', 'ca.next.crt'), third.cert, { mode: 0o644 });
    assert.equal((await ensureTls(dir, 'A', office)).ca.cert, third.cert);
    // An authority whose key is not its certificate's is refused, never used.
    await writeFile(join(dir, 'tls', 'ca.key'), first.ca.key, { mode: 0o600 });
    await assert.rejects(ensureTls(dir, 'A', office), /authority key does not match/);
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
    const local = `${hostname().toLowerCase().replace(/\.local$/, '')}.local`;
    const byName = await get(`${base}/api/v1/server_settings`, { ca, servername: local, headers: { host: `${local}:${server.httpsPort}` } });
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
    assert.match(html, /It can vouch only for this network's own names/);
    assert.doesNotMatch(html, /Ask for a new authority first|This authority is new/);
    assert.ok(html.includes(`https://127.0.0.1:${server.httpsPort}/`));
    // The admin status page shows the same fingerprint.
    const login = await plain.post('/fetch_api_key', { username: 'o@example.com', password: 'long enough password' });
    const owner = new Client(server.url, { id: login.body.user_id, email: 'o@example.com', apiKey: login.body.api_key, password: '' });
    const status = (await owner.get('/hearth/status')).body;
    assert.equal(status.ca_fingerprint_sha256, fp);
    assert.equal(status.https_port, server.httpsPort);
    assert.equal(status.ca_name_constrained, true);
    assert.ok(Array.isArray(status.https_names_left_out));
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
      for (const path of ['/hearth/trust', '/hearth/ca.crt', '/help/help.css']) assert.equal((await fetch(`${server.url}${path}`)).status, 200, path);
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

describe('an installation whose authority predates Name Constraints', () => {
  let dir: string;
  let server: RunningServer;
  let old: Pem;
  let owner: Client;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-old-ca-'));
    old = await oldAuthority(`Hearth authority for ${hostname()}`);
    await plantAuthority(dir, old);
    server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: silentLogger, httpsPort: 0 });
    await doCreateRealm(server.server.app, 'Old Office', { email: 'o@example.com', password: 'long enough password', fullName: 'Olive' });
    await doCreateUser(server.server.app, { email: 'a@example.com', password: 'long enough password', fullName: 'Ada', role: 200 });
    const login = await new Client(server.url, null).post('/fetch_api_key', { username: 'o@example.com', password: 'long enough password' });
    owner = new Client(server.url, { id: login.body.user_id, email: 'o@example.com', apiKey: login.body.api_key, password: '' });
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps serving it, and the status and trust pages say to replace it', async () => {
    assert.equal((await get(`https://127.0.0.1:${server.httpsPort}/api/v1/server_settings`, { ca: old.cert })).status, 200, 'devices that trust it keep working');
    assert.equal(await (await fetch(`${server.url}/hearth/ca.crt`)).text(), old.cert);
    const status = (await owner.get('/hearth/status')).body;
    assert.equal(status.ca_name_constrained, false);
    const html = await (await fetch(`${server.url}/hearth/trust`)).text();
    assert.match(html, /Ask for a new authority first/);
    assert.doesNotMatch(html, /It can vouch only/);
  });

  it('an owner replaces it: the new one is served at once, limited to local names; the trust page names the old one', async () => {
    const login = await new Client(server.url, null).post('/fetch_api_key', { username: 'a@example.com', password: 'long enough password' });
    const admin = new Client(server.url, { id: login.body.user_id, email: 'a@example.com', apiKey: login.body.api_key, password: '' });
    const refused = await admin.post('/hearth/tls/authority', {});
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.equal(await (await fetch(`${server.url}/hearth/ca.crt`)).text(), old.cert, 'an administrator cannot');

    const res = await owner.post('/hearth/tls/authority', {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const fresh = await readFile(join(dir, 'tls', 'ca.crt'), 'utf8');
    assert.equal(res.body.ca_fingerprint_sha256, new X509Certificate(fresh).fingerprint256);
    assert.notEqual(fresh, old.cert);
    assert.notEqual(scopeOf(fresh), null);
    assert.equal(await (await fetch(`${server.url}/hearth/ca.crt`)).text(), fresh);
    // New connections get the new server certificate: the new authority vouches for it, the old one no longer does.
    assert.equal((await get(`https://127.0.0.1:${server.httpsPort}/api/v1/server_settings`, { ca: fresh })).status, 200);
    await assert.rejects(get(`https://127.0.0.1:${server.httpsPort}/api/v1/server_settings`, { ca: old.cert }), /unable to verify|UNABLE_TO_VERIFY|signature/i);
    const status = (await owner.get('/hearth/status')).body;
    assert.equal(status.ca_name_constrained, true);
    assert.equal(status.ca_fingerprint_sha256, res.body.ca_fingerprint_sha256);
    const html = await (await fetch(`${server.url}/hearth/trust`)).text();
    assert.match(html, /This authority is new/);
    assert.ok(html.includes(new X509Certificate(old.cert).fingerprint256), 'the old fingerprint, to remove it by');
    assert.ok(html.includes(res.body.ca_fingerprint_sha256));
    assert.doesNotMatch(html, /Ask for a new authority first/);
  });
});
