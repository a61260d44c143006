/**
 * One POST to an outgoing webhook's URL, guarded as a server calling addresses its users chose
 * must be: no redirect followed (a 3xx is the answer), the answer read up to a size limit, one
 * deadline for the whole call, and this computer itself (loopback, its own addresses, the
 * unspecified address) refused unless allowed, checked on the address actually connected to
 * (names are resolved here and the checked address is used), so a name that resolves to
 * 127.0.0.1 is refused as 127.0.0.1 is. Never throws: every end is an outcome.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isOwnAddress } from './lan-urls.js';

export type PostOutcome =
  | { kind: 'response'; status: number; body: Buffer }
  | { kind: 'timeout' }
  | { kind: 'connection'; message: string }
  /** The target is this computer, and that is not allowed. */
  | { kind: 'loopback' }
  | { kind: 'too_large' }
  /** The call was stopped (the server is stopping): it was not made, as far as the caller knows. */
  | { kind: 'aborted' }
  | { kind: 'exception'; name: string; message: string };

export interface PostRequest {
  url: string;
  body: string;
  contentType: string;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  allowLoopback: boolean;
  /** Whether an address is one of this computer's (tests may pass their own interfaces). */
  isOwn?: (address: string) => boolean;
  signal: AbortSignal;
}

/** An IPv4-mapped IPv6 address as its IPv4 address (`::ffff:127.0.0.1`, which URLs write `::ffff:7f00:1`). */
function mappedV4(a: string): string | null {
  const dotted = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (!hex) return null;
  const [hi, lo] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** This computer: loopback, one of its addresses, or the unspecified address (0.0.0.0/8, ::), which reaches it. */
function isThisComputer(address: string, isOwn: (a: string) => boolean): boolean {
  const a = address.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const v4 = mappedV4(a);
  const plain = v4 ?? a;
  return /^0\./.test(plain) || a === '::' || /^127\./.test(plain) || a === '::1' || isOwn(plain);
}

class RefusedAddress extends Error {
  readonly code = 'HEARTH_LOOPBACK_REFUSED';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function postWebhook(r: PostRequest): Promise<PostOutcome> {
  const isOwn = r.isOwn ?? ((a: string) => isOwnAddress(a));
  let url: URL;
  try {
    url = new URL(r.url);
  } catch {
    return Promise.resolve({ kind: 'exception', name: 'InvalidURL', message: `Invalid URL '${r.url}'` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve({ kind: 'exception', name: 'InvalidSchema', message: `No connection adapters were found for '${r.url}'` });
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const named = host.toLowerCase();
  if (!r.allowLoopback && (named === 'localhost' || named.endsWith('.localhost') || (isIP(host) !== 0 && isThisComputer(host, isOwn)))) {
    return Promise.resolve({ kind: 'loopback' });
  }
  if (r.signal.aborted) return Promise.resolve({ kind: 'aborted' });
  // Resolves the name, refuses it when any address is this computer, and connects to what was checked.
  const lookup = (hostname: string, options: LookupOptions, cb: LookupCallback) => {
    dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (err, addresses) => {
      if (err) return cb(err, '');
      if (!r.allowLoopback && addresses.some((a) => isThisComputer(a.address, isOwn))) return cb(new RefusedAddress(hostname), '');
      if (addresses.length === 0) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (options.all) cb(null, addresses);
      else cb(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return new Promise((resolve) => {
    let req: ClientRequest | null = null;
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      r.signal.removeEventListener('abort', onAbort);
      req?.destroy();
      resolve(outcome);
    };
    const onAbort = () => finish({ kind: 'aborted' });
    const timer = setTimeout(() => finish({ kind: 'timeout' }), r.timeoutMs);
    r.signal.addEventListener('abort', onAbort);
    const onError = (err: NodeJS.ErrnoException) => {
      if (err instanceof RefusedAddress || (err as { code?: string }).code === 'HEARTH_LOOPBACK_REFUSED') return finish({ kind: 'loopback' });
      finish({ kind: 'connection', message: err.message });
    };
    const onResponse = (res: IncomingMessage) => {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > r.maxBytes) return finish({ kind: 'too_large' });
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > r.maxBytes) return finish({ kind: 'too_large' });
        chunks.push(chunk);
      });
      res.on('end', () => finish({ kind: 'response', status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', onError);
    };
    try {
      const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
      req = request(url, {
        method: 'POST',
        // A fresh connection per call: nothing pooled outlives it.
        agent: false,
        lookup: lookup as never,
        headers: {
          'content-type': r.contentType,
          'content-length': Buffer.byteLength(r.body),
          'user-agent': r.userAgent,
          accept: 'application/json, */*;q=0.5',
        },
      });
    } catch (err) {
      return finish({ kind: 'exception', name: (err as Error).name || 'Error', message: (err as Error).message });
    }
    req.on('response', onResponse);
    req.on('error', onError);
    req.end(r.body);
  });
}
