/**
 * The origin (`scheme://host:port`) that links a server hands out are built on: `realm_url`,
 * invitation links, export URLs, the redirect to HTTPS. Never simply the request's `Host`
 * header, which anyone can set: a forged `Host: evil.example` would otherwise make the server
 * hand out `http://evil.example/join/…` invitation links and redirects.
 *
 * - The configured address (`hearth serve --url`, `HEARTH_URL`), when the owner set one (a
 *   name in the office's DNS, say): always that.
 * - Otherwise the request's host when it names this computer (localhost, a loopback or own
 *   address, the computer's name or `name.local`), with the port the connection really
 *   arrived on; else this computer's first LAN address (or its listening address).
 */
import type { NetworkInterfaceInfo } from 'node:os';
import { isOwnHost, lanUrls } from './lan-urls.js';

export interface LinkRequest {
  /** The configured address (an origin), or null. */
  configured: string | null;
  scheme: 'http' | 'https';
  /** The request's host name, without port (Koa's `hostname`; IPv6 without brackets). */
  hostname: string;
  /** The local port the connection arrived on. */
  port: number;
  /** Where the server listens (for the fallback address), or null. */
  listen: { host: string; port: number } | null;
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
}

/** A host name, an IPv4 address, or an IPv6 address (bracketed or not) without a zone. */
const PLAIN_HOST = /^(?:[a-z0-9.-]+|\[?[0-9a-f:.]+\]?)$/;

const forUrl = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** A configured address as an origin, or an error message. */
export function parsePublicUrl(raw: string): { origin: string } | { error: string } {
  if (!URL.canParse(raw)) return { error: `'${raw}' is not a URL (such as http://chat.office.lan:9991)` };
  const u = new URL(raw);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: `'${raw}' must start with http:// or https://` };
  if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) {
    return { error: `'${raw}' must be only a scheme, a host and a port (no path)` };
  }
  return { origin: u.origin };
}

export function linkOrigin(r: LinkRequest): string {
  if (r.configured) return r.configured;
  const host = r.hostname.toLowerCase();
  // Only a plain name or address is kept: isOwnHost reads `127.0.0.1%anything` as 127.0.0.1 (an
  // IPv6 zone), and such a host made links that are no URL (and a 500 for the redirect to HTTPS).
  if (PLAIN_HOST.test(host) && isOwnHost(host, r.interfaces)) return `${r.scheme}://${forUrl(host)}:${r.port}`;
  const listenHost = r.listen?.host ?? '0.0.0.0';
  const first = lanUrls(listenHost, r.port, r.interfaces)[0]!;
  const url = new URL(first);
  return `${r.scheme}://${url.hostname}:${r.port}`;
}
