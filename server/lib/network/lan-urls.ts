import { hostname as osHostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

const WILDCARD_V4: ReadonlySet<string> = new Set(['0.0.0.0', '']);
const WILDCARD_V6: ReadonlySet<string> = new Set(['::', '::0']);

/** Whether an address (as Node reports a socket's remote address) is a loopback address. */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/%.*$/, '');
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A URL host naming this computer: `localhost`, or a loopback address (IPv6 in brackets). */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname.toLowerCase() === 'localhost' || isLoopbackAddress(hostname.replace(/^\[(.*)\]$/, '$1'));

const bare = (address: string) => {
  const a = address.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
};

/**
 * Whether a socket's remote address is this computer: loopback, or one of its own interface
 * addresses (a browser on the server computer that opens its LAN address connects from it).
 * Judged from the socket, never from a header, which anyone can forge.
 */
export function isOwnAddress(address: string | undefined | null, interfaces: Interfaces = networkInterfaces()): boolean {
  if (!address) return false;
  if (isLoopbackAddress(address)) return true;
  const a = bare(address);
  return Object.values(interfaces).some((list) => (list ?? []).some((info) => bare(info.address) === a));
}

/**
 * A URL host a person on this computer may use to reach it: `localhost`, a loopback or own
 * address, the wildcard `0.0.0.0` (some browsers open it as this computer), or the computer's
 * own name. Used against DNS rebinding: a page on someone's domain that resolves to this
 * computer still sends its own domain as the host.
 */
export function isOwnHost(hostname: string, interfaces: Interfaces = networkInterfaces(), name = osHostname()): boolean {
  const h = bare(hostname);
  if (isLoopbackHost(h) || h === '0.0.0.0' || h === '::') return true;
  const n = name.toLowerCase();
  if (n && (h === n || h === `${n}.local`)) return true;
  return Object.values(interfaces).some((list) => (list ?? []).some((info) => bare(info.address) === h));
}

/**
 * What `hearth serve` prints once it listens: `listening on <URL to open on this computer>`,
 * then one `on the LAN: <URL>` line per address colleagues use (for a wildcard bind).
 */
export function listeningLines(host: string, port: number, interfaces: Interfaces = networkInterfaces(), scheme: 'http' | 'https' = 'http'): string[] {
  const wildcard = WILDCARD_V4.has(host) || WILDCARD_V6.has(host);
  if (!wildcard) return [`listening on ${scheme}://${hostForUrl(host)}:${port}/`];
  const lan = lanUrls(host, port, interfaces).filter((u) => !isLoopbackHost(new URL(u).hostname));
  return [`listening on ${scheme}://localhost:${port}/`, ...lan.map((u) => `on the LAN: ${u.replace(/^http:/, `${scheme}:`)}/`)];
}

const hostForUrl = (address: string) => (address.includes(':') ? `[${address}]` : address);

/**
 * The URLs people on the LAN use to reach a server bound to `host:port`: for a wildcard
 * bind, every non-internal IPv4 address (and global IPv6 ones for `::`), skipping
 * link-local addresses that need a zone; for a specific address, that address. Falls back
 * to the loopback URL when the machine has no LAN address (so the list is never empty).
 */
export function lanUrls(host: string, port: number, interfaces: Interfaces = networkInterfaces()): string[] {
  const wildcard4 = WILDCARD_V4.has(host);
  const wildcard6 = WILDCARD_V6.has(host);
  if (!wildcard4 && !wildcard6) {
    return [`http://${hostForUrl(host === 'localhost' ? '127.0.0.1' : host)}:${port}`];
  }
  const out: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const info of list ?? []) {
      if (info.internal) continue;
      if (info.family === 'IPv4') {
        if (info.address.startsWith('169.254.')) continue;
        out.push(`http://${info.address}:${port}`);
      } else if (wildcard6 && info.family === 'IPv6' && !/^fe80:/i.test(info.address)) {
        out.push(`http://[${info.address}]:${port}`);
      }
    }
  }
  const unique = [...new Set(out)];
  return unique.length ? unique : [`http://127.0.0.1:${port}`];
}
