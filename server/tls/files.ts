/**
 * The TLS files in `<data dir>/tls/`: the authority (`ca.crt`, `ca.key`) made at the first
 * start and then kept, and the server certificate (`server.crt`, `server.key`) it signs,
 * re-issued when this computer's names or addresses change or its end nears. Keys are mode
 * 0600 in a 0700 folder; each file is written to a temp name, synced and renamed.
 *
 * The server certificate names only what the authority may vouch for (certificates.ts): a
 * name outside its Name Constraints would make clients refuse the whole certificate, so a
 * public IPv6 address, or a new host name after the computer is renamed, is left out (and
 * reported in `leftOut`) rather than breaking HTTPS. An authority from before the constraints
 * is kept as it is (`limited: false`): replacing it breaks every device that installed it, so
 * that is the owner's choice (replaceAuthority): a new key and certificate, the old key
 * overwritten, the old certificate kept as `ca-previous.crt` so the trust page can name it.
 */
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { hostname as osHostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { join } from 'node:path';
import {
  RENEW_BEFORE_DAYS,
  authorityScope,
  checkAuthority,
  checkServerCertificate,
  createAuthority,
  daysLeft,
  issueServerCertificate,
  namesOf,
  scopeOf,
  withinScope,
  type Names,
  type Pem,
} from './certificates.js';

export interface TlsMaterial {
  ca: Pem;
  server: Pem;
  /** Whether this call made a new server certificate. */
  reissued: boolean;
  /** Whether the authority has Name Constraints (false: made by Hearth before they were added). */
  limited: boolean;
  /** This computer's names and addresses the authority may not vouch for, left out of the server certificate. */
  leftOut: Names;
  /** The authority this one replaced (its certificate only), or null. */
  previous: string | null;
}

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** Every name and address this computer is reached by (sorted, so two lists compare). */
export function wantedNames(interfaces: Interfaces = networkInterfaces(), host = osHostname()): Names {
  const h = host.toLowerCase().replace(/\.local$/, '');
  const dns = ['localhost', ...(h && h !== 'localhost' ? [h, `${h}.local`] : [])];
  const ips = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(interfaces)) {
    for (const info of list ?? []) {
      if (info.internal) continue;
      if (info.family === 'IPv4' && !info.address.startsWith('169.254.')) ips.add(info.address);
      if (info.family === 'IPv6' && !/^fe80:/i.test(info.address)) ips.add(info.address.toLowerCase());
    }
  }
  return { dns, ips: [...ips].sort() };
}

const same = (a: Names, b: Names) => JSON.stringify([[...a.dns].sort(), [...a.ips].map(normIp).sort()]) === JSON.stringify([[...b.dns].sort(), [...b.ips].map(normIp).sort()]);
/** Node writes IPv6 SANs in full (`0:0:…:1`); compare them by value. */
function normIp(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const full = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return full.map((x) => parseInt(x || '0', 16).toString(16)).join(':');
}

async function writeSecure(file: string, text: string, mode: number): Promise<void> {
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  await chmod(tmp, mode);
  await rename(tmp, file);
}

const read = (file: string) => readFile(file, 'utf8').catch(() => null);

/**
 * A replacement cut short (replaceAuthority) is finished, or dropped when it had not yet
 * written its certificate: `ca.next.crt` is written last, so it decides.
 */
async function finishReplacement(dir: string): Promise<void> {
  const cert = await read(join(dir, 'ca.next.crt'));
  if (cert === null) {
    await rm(join(dir, 'ca.next.key'), { force: true });
    return;
  }
  if ((await read(join(dir, 'ca.next.key'))) !== null) await rename(join(dir, 'ca.next.key'), join(dir, 'ca.key'));
  await rename(join(dir, 'ca.next.crt'), join(dir, 'ca.crt'));
}

async function tlsDir(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'tls');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  await finishReplacement(dir);
  return dir;
}

/**
 * The authority and a current server certificate for `names` (those the authority may vouch
 * for), creating or re-issuing what is missing, stale or for other names. `label` names a new
 * authority (the organization), `host` is the computer's name its scope may include.
 */
export async function ensureTls(dataDir: string, label: string, names: Names = wantedNames(), now = Date.now(), host = osHostname()): Promise<TlsMaterial> {
  const dir = await tlsDir(dataDir);
  let caCert = await read(join(dir, 'ca.crt'));
  let caKey = await read(join(dir, 'ca.key'));
  if (!caCert || !caKey) {
    const ca = await createAuthority(label, authorityScope(host), now);
    await writeSecure(join(dir, 'ca.key'), ca.key, 0o600);
    await writeSecure(join(dir, 'ca.crt'), ca.cert, 0o644);
    caCert = ca.cert;
    caKey = ca.key;
  }
  const ca = { cert: caCert, key: caKey };
  checkAuthority(ca);
  const scope = scopeOf(ca.cert);
  const { inside, outside } = withinScope(names, scope);
  const base = { ca, limited: scope !== null, leftOut: outside, previous: await read(join(dir, 'ca-previous.crt')) };
  const cert = await read(join(dir, 'server.crt'));
  const key = await read(join(dir, 'server.key'));
  if (cert && key) {
    try {
      checkServerCertificate(ca, { cert, key }, now);
      if (daysLeft(cert, now) > RENEW_BEFORE_DAYS && same(namesOf(cert), inside)) return { ...base, server: { cert, key }, reissued: false };
    } catch {
      // Not signed by this authority, expired, or damaged: issue a new one.
    }
  }
  const server = await issueServerCertificate(ca, inside, now);
  checkServerCertificate(ca, server, now);
  try {
    await writeSecure(join(dir, 'server.key'), server.key, 0o600);
    await writeSecure(join(dir, 'server.crt'), server.cert, 0o644);
  } catch (err) {
    // A full disk: the new certificate is served from memory (the next start issues another;
    // a key and certificate on disk that do not match are re-issued like a damaged pair).
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOSPC' && code !== 'EDQUOT') throw err;
  }
  return { ...base, server, reissued: true };
}

/**
 * A new authority (new key, limited to local names, the scope for today's host name) in place
 * of the current one, and a server certificate it signs. Every device that trusted the old one
 * must install the new one. The old key is overwritten (so the old certificate, still installed
 * on devices, vouches for nothing new); the old certificate is kept as `ca-previous.crt`.
 * Written so that a stop at any point leaves the old authority or the new one, never a mix.
 */
export async function replaceAuthority(dataDir: string, label: string, names: Names = wantedNames(), now = Date.now(), host = osHostname()): Promise<TlsMaterial> {
  const dir = await tlsDir(dataDir);
  const old = await read(join(dir, 'ca.crt'));
  const ca = await createAuthority(label, authorityScope(host), now);
  if (old) await writeSecure(join(dir, 'ca-previous.crt'), old, 0o644);
  await writeSecure(join(dir, 'ca.next.key'), ca.key, 0o600);
  await writeSecure(join(dir, 'ca.next.crt'), ca.cert, 0o644);
  await finishReplacement(dir);
  return ensureTls(dataDir, label, names, now, host);
}
