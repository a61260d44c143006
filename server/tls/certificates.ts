/**
 * Hearth's own certificate authority and the server certificate it signs, made with
 * @peculiar/x509 (never hand-made ASN.1): ECDSA P-256 with SHA-256. The authority is
 * created once per installation and valid ten years; its key never leaves the data dir.
 * The server certificate names every way people reach this computer (localhost, loopback
 * addresses, its host name and `<host>.local`, each LAN address) that the authority may vouch
 * for, is for serverAuth only and valid 390 days (Apple's and the browsers' rules: SAN
 * required, ≤ 397 days).
 *
 * The authority is installed as a root on every colleague's device, so it can vouch for local
 * names only (its `scope`): a critical Name Constraints extension (RFC 5280 4.2.1.10) permits
 * the DNS names `localhost`, `local`, `home.arpa` and `internal` and whatever ends in them
 * (RFC 5280's form, no leading dot: `local` covers `pc.local` and `local`; a leading dot is not
 * RFC 5280's, and OpenSSL, NSS and Go read it as "subdomains only"), this computer's own host
 * name when it is one label that can never be a top-level domain (it holds a digit or a hyphen,
 * and no `xn--`: a computer called `chat` or `dev` would otherwise get all of `.chat` or `.dev`),
 * and the private, loopback, link-local and shared address ranges. An Extended Key Usage of
 * serverAuth keeps it from vouching for code, mail or clients where systems apply a CA's EKU
 * (Windows, macOS, OpenSSL). A certificate it signs for www.example-bank.com or a public
 * address fails to verify wherever Name Constraints are enforced: OpenSSL (so Node, Python,
 * curl; test/tls/certificates.test.ts shows it) and today's browsers and systems. One that
 * does not understand the extension refuses the authority, as RFC 5280 asks of a critical one.
 */
import 'reflect-metadata';
import { createPrivateKey, webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
import { BlockList, isIPv6 } from 'node:net';
import { AsnConvert } from '@peculiar/asn1-schema';
import { GeneralName, GeneralSubtree, GeneralSubtrees, NameConstraints, id_ce_nameConstraints } from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;
export const CA_DAYS = 3650;
export const SERVER_DAYS = 390;
/** A server certificate this close to its end is re-issued. */
export const RENEW_BEFORE_DAYS = 30;

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface Pem {
  cert: string;
  key: string;
}

/** What a server certificate covers. */
export interface Names {
  dns: string[];
  ips: string[];
}

/**
 * What an authority may vouch for: DNS names (each covers itself and every name ending in
 * `.<it>`) and address ranges (CIDR).
 */
export interface Scope {
  dns: string[];
  ips: string[];
}

/** Names no site on the internet can have: RFC 6761's `localhost` and `local`, RFC 8375's `home.arpa`, ICANN's private-use `internal`. */
export const LOCAL_DOMAINS: readonly string[] = ['localhost', 'local', 'home.arpa', 'internal'];
/**
 * Addresses no site on the internet can have: loopback, RFC 1918's private ranges, link-local,
 * RFC 6598's shared range (carrier NAT, and VPNs such as Tailscale), IPv6 loopback, unique-local
 * and link-local.
 */
export const LOCAL_RANGES: readonly string[] = [
  '127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10',
  '::1/128', 'fc00::/7', 'fe80::/10',
];

/**
 * A single DNS label that is not and can never be a top-level domain: ASCII TLDs are letters
 * only, IDN ones start `xn--`. So `desktop-7h2k9qf` or `office-pc` qualify; `chat`, `dev`, `reception` do not.
 */
const neverATld = (label: string) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label) && /[0-9-]/.test(label) && !label.startsWith('xn--');

/** The scope of a new authority on the computer called `host`: the local names and ranges, and the host name where it may be. */
export function authorityScope(host: string): Scope {
  const h = host.toLowerCase().replace(/\.local$/, '');
  return { dns: [...LOCAL_DOMAINS, ...(neverATld(h) ? [h] : [])], ips: [...LOCAL_RANGES] };
}

/** The authority's Name Constraints (permitted subtrees only), or null for one that has none (made by Hearth before they were added). */
export function scopeOf(caPem: string): Scope | null {
  const ext = new x509.X509Certificate(caPem).getExtension(id_ce_nameConstraints);
  if (!ext) return null;
  const nc = AsnConvert.parse(ext.value, NameConstraints);
  const bases = [...(nc.permittedSubtrees ?? [])].map((s) => s.base);
  return {
    dns: bases.flatMap((b) => (b.dNSName !== undefined ? [b.dNSName.toLowerCase()] : [])),
    ips: bases.flatMap((b) => (b.iPAddress !== undefined ? [b.iPAddress] : [])),
  };
}

/** Splits `names` into those the authority's scope covers and those it does not (a null scope covers all). */
export function withinScope(names: Names, scope: Scope | null): { inside: Names; outside: Names } {
  if (!scope) return { inside: { dns: [...names.dns], ips: [...names.ips] }, outside: { dns: [], ips: [] } };
  const ranges = new BlockList();
  for (const cidr of scope.ips) {
    const [address, bits] = cidr.split('/') as [string, string | undefined];
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    ranges.addSubnet(address, Number(bits ?? (family === 'ipv6' ? 128 : 32)), family);
  }
  const dnsOk = (name: string) => {
    const n = name.toLowerCase();
    return scope.dns.some((base) => n === base || n.endsWith(`.${base}`));
  };
  const ipOk = (ip: string) => ranges.check(ip, isIPv6(ip) ? 'ipv6' : 'ipv4');
  return {
    inside: { dns: names.dns.filter(dnsOk), ips: names.ips.filter(ipOk) },
    outside: { dns: names.dns.filter((n) => !dnsOk(n)), ips: names.ips.filter((ip) => !ipOk(ip)) },
  };
}

const pemOf = (der: ArrayBuffer, label: string) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
const derOf = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');

/** A positive 128-bit serial number, as hex. */
function serial(): string {
  const b = webcrypto.getRandomValues(new Uint8Array(16));
  b[0] = b[0]! & 0x7f;
  return Buffer.from(b).toString('hex');
}

async function exportKey(key: CryptoKey): Promise<string> {
  return pemOf(await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey), 'PRIVATE KEY');
}

/**
 * A new authority: self-signed, CA:TRUE with path length 0, keyCertSign and cRLSign, serverAuth
 * only, and critical Name Constraints permitting `scope` (see the top of this file).
 */
export async function createAuthority(label: string, scope: Scope, now = Date.now()): Promise<Pem> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: [{ CN: [label] }, { O: ['Hearth'] }],
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + CA_DAYS * DAY),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      nameConstraints(scope),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
}

/** The critical Name Constraints extension permitting `scope`'s names and ranges. */
function nameConstraints(scope: Scope): x509.Extension {
  const permitted = new GeneralSubtrees([
    ...scope.dns.map((dNSName) => new GeneralSubtree({ base: new GeneralName({ dNSName }) })),
    ...scope.ips.map((iPAddress) => new GeneralSubtree({ base: new GeneralName({ iPAddress }) })),
  ]);
  return new x509.Extension(id_ce_nameConstraints, true, AsnConvert.serialize(new NameConstraints({ permittedSubtrees: permitted })));
}

/** A server certificate for `names`, signed by the authority. */
export async function issueServerCertificate(ca: Pem, names: Names, now = Date.now()): Promise<Pem> {
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await webcrypto.subtle.importKey('pkcs8', derOf(ca.key), ALG, false, ['sign']);
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: [{ CN: [names.dns[1] ?? names.dns[0] ?? 'localhost'] }, { O: ['Hearth'] }],
    issuer: caCert.subject,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + SERVER_DAYS * DAY),
    signingAlgorithm: ALG,
    publicKey: keys.publicKey,
    signingKey: caKey as unknown as CryptoKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([...names.dns.map((value) => ({ type: 'dns' as const, value })), ...names.ips.map((value) => ({ type: 'ip' as const, value }))]),
      await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
}

/** The names a certificate covers (its subjectAltName), as Node reads them. */
export function namesOf(certPem: string): Names {
  const san = new NodeX509(certPem).subjectAltName ?? '';
  const dns: string[] = [];
  const ips: string[] = [];
  for (const part of san.split(/,\s*/)) {
    if (part.startsWith('DNS:')) dns.push(part.slice(4));
    else if (part.startsWith('IP Address:')) ips.push(part.slice(11).toLowerCase());
  }
  return { dns, ips };
}

/**
 * Node's own check of a server certificate at start: it parses, the authority signed it,
 * it is current, and it names this computer. Throws with the reason.
 */
export function checkServerCertificate(ca: Pem, server: Pem, now = Date.now()): void {
  const caCert = new NodeX509(ca.cert);
  const cert = new NodeX509(server.cert);
  if (!caCert.ca) throw new Error('the authority certificate is not a CA');
  if (!cert.verify(caCert.publicKey)) throw new Error('the server certificate is not signed by the authority');
  if (Date.parse(cert.validTo) < now || Date.parse(cert.validFrom) > now) throw new Error('the server certificate is not current');
  if (!cert.checkHost('localhost') || !cert.checkIP('127.0.0.1')) throw new Error('the server certificate does not name localhost');
  if (!cert.checkPrivateKey(createPrivateKey(server.key))) throw new Error('the server key does not match its certificate');
}

/** Throws unless the authority's key is the one its certificate names (a replacement cut short could part them). */
export function checkAuthority(ca: Pem): void {
  const caCert = new NodeX509(ca.cert);
  if (!caCert.ca) throw new Error('the authority certificate is not a CA');
  if (!caCert.checkPrivateKey(createPrivateKey(ca.key))) throw new Error('the authority key does not match its certificate');
}


/** The SHA-256 fingerprint people compare, as `AB:CD:…`. */
export const fingerprintOf = (certPem: string) => new NodeX509(certPem).fingerprint256;
/** DER bytes of a PEM certificate. */
export const derOfCertificate = (certPem: string) => new NodeX509(certPem).raw;
/** Days until a certificate ends. */
export const daysLeft = (certPem: string, now = Date.now()) => (Date.parse(new NodeX509(certPem).validTo) - now) / DAY;
