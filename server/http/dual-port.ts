/**
 * The plain-HTTP port speaks HTTPS too, and every HTTPS answer carries Strict-Transport-Security.
 *
 * HSTS makes a browser that once reached Hearth over trusted HTTPS rewrite every later
 * `http://name:9991/…` to `https://name:9991/…`: the same port (RFC 6797 keeps an explicit
 * port). Were that port HTTP only, the browser would fail on it (a bookmark, a link from the
 * chat, the address on the QR code), so the port looks at each connection's first byte: a TLS
 * handshake (0x16) goes to the HTTPS server, anything else to HTTP. Browsers ignore HSTS from
 * an IP address (RFC 6797 8.1.1) and from a certificate they do not trust, so it only ever
 * holds for a name on a device that trusts this installation's authority.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

/** 180 days: long enough to matter, short enough for a device to forget an office it left. */
export const HSTS = 'max-age=15552000';

/** TLS records start with their type; a handshake (a ClientHello, the first thing a TLS client sends) is 22. */
const TLS_HANDSHAKE = 0x16;

/** How long a new connection may take to send its first byte when the HTTP server has no headersTimeout (it has: 60 s). */
export const FIRST_BYTE_MS = 60_000;

/** The request listener of an HTTPS server: every answer says to use HTTPS from now on. */
export function withHsts(next: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Strict-Transport-Security', HSTS);
    return next(req, res);
  };
}

/**
 * A TCP listener in front of `http` that hands each connection to `tls()` (while it answers a
 * server) when it opens with a TLS handshake, else to `http`. `http` itself never listens: it
 * is told it does, so that Node tracks its connections and enforces its timeouts as usual.
 */
export function dualPort(http: Server, tls: () => HttpsServer | null): NetServer {
  // Node sets up an HTTP server's connection tracking (headersTimeout, closeIdleConnections) when
  // it starts listening; this one is fed connections instead.
  http.emit('listening');
  return createNetServer((socket: Socket) => {
    socket.setTimeout(http.headersTimeout || FIRST_BYTE_MS, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(chunk);
      const secure = tls();
      (chunk[0] === TLS_HANDSHAKE && secure ? secure : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
}
