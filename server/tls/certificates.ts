/**
 * Hearth's own certificate authority and the server certificate it signs, made with
 * @peculiar/x509 (never hand-made ASN.1): ECDSA P-256 with SHA-256. The authority is
 * created once per installation and valid ten years; its key never leaves the data dir.
 * The server certificate names every way people reach this computer (localhost, loopback
 * addresses, its host name and `<host>.local`, each LAN address), is for serverAuth only and
 * valid 390 days (Apple's and the browsers' rules: SAN required, ≤ 397 days).
 */
import 'reflect-metadata';
import { createPrivateKey, webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
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

/** A new authority: self-signed, CA:TRUE with path length 0, keyCertSign and cRLSign. */
export async function createAuthority(label: string, now = Date.now()): Promise<Pem> {
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
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
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


/** The SHA-256 fingerprint people compare, as `AB:CD:…`. */
export const fingerprintOf = (certPem: string) => new NodeX509(certPem).fingerprint256;
/** DER bytes of a PEM certificate. */
export const derOfCertificate = (certPem: string) => new NodeX509(certPem).raw;
/** Days until a certificate ends. */
export const daysLeft = (certPem: string, now = Date.now()) => (Date.parse(new NodeX509(certPem).validTo) - now) / DAY;
