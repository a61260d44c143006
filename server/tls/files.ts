/**
 * The TLS files in `<data dir>/tls/`: the authority (`ca.crt`, `ca.key`) made at the first
 * start and then kept, and the server certificate (`server.crt`, `server.key`) it signs,
 * re-issued when this computer's names or addresses change or its end nears. Keys are mode
 * 0600 in a 0700 folder; each file is written to a temp name, synced and renamed.
 */
import { chmod, mkdir, open, readFile, rename } from 'node:fs/promises';
import { hostname as osHostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { join } from 'node:path';
import {
  RENEW_BEFORE_DAYS,
  checkServerCertificate,
  createAuthority,
  daysLeft,
  issueServerCertificate,
  namesOf,
  type Names,
  type Pem,
} from './certificates.js';

export interface TlsMaterial {
  ca: Pem;
  server: Pem;
  /** Whether this call made a new server certificate. */
  reissued: boolean;
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
  } finally {
    await handle.close();
  }
  await chmod(tmp, mode);
  await rename(tmp, file);
}

const read = (file: string) => readFile(file, 'utf8').catch(() => null);

/**
 * The authority and a current server certificate for `names`, creating or re-issuing what is
 * missing, stale or for other names. `label` names a new authority (the organization).
 */
export async function ensureTls(dataDir: string, label: string, names: Names = wantedNames(), now = Date.now()): Promise<TlsMaterial> {
  const dir = join(dataDir, 'tls');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  let caCert = await read(join(dir, 'ca.crt'));
  let caKey = await read(join(dir, 'ca.key'));
  if (!caCert || !caKey) {
    const ca = await createAuthority(label, now);
    await writeSecure(join(dir, 'ca.key'), ca.key, 0o600);
    await writeSecure(join(dir, 'ca.crt'), ca.cert, 0o644);
    caCert = ca.cert;
    caKey = ca.key;
  }
  const ca = { cert: caCert, key: caKey };
  const cert = await read(join(dir, 'server.crt'));
  const key = await read(join(dir, 'server.key'));
  if (cert && key) {
    try {
      checkServerCertificate(ca, { cert, key }, now);
      if (daysLeft(cert, now) > RENEW_BEFORE_DAYS && same(namesOf(cert), names)) return { ca, server: { cert, key }, reissued: false };
    } catch {
      // Not signed by this authority, expired, or damaged: issue a new one.
    }
  }
  const server = await issueServerCertificate(ca, names, now);
  checkServerCertificate(ca, server, now);
  await writeSecure(join(dir, 'server.key'), server.key, 0o600);
  await writeSecure(join(dir, 'server.crt'), server.cert, 0o644);
  return { ca, server, reissued: true };
}
