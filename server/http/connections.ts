/**
 * What one client may hold of the server: its connections (issue 36: a LAN neighbour that opened
 * hundreds of connections, each sending a body one byte at a time, left the server without file
 * descriptors, so nobody else could connect). Two rules, at the level of Node's sockets, before
 * Koa, so that they hold for every request, whichever route or refusal answers it:
 *
 * - **A cap per remote address** (config.connectionsPerAddress, 100). Every TCP connection counts
 *   from its accept, whatever it is doing: a TLS handshake, headers arriving, a body, a parked
 *   long-poll, an idle keep-alive. One past the cap first closes an idle kept-alive connection of
 *   the same address (what browsers expect of keep-alive; Node closes them after 65 s anyway);
 *   when none is idle, the new connection's request is answered 429 `RATE_LIMIT_HIT` with
 *   Retry-After (which Zulip's clients wait out and retry, as nginx's limit_conn answers) and it
 *   is closed. A few such connections per address may wait for their request at a time, for a few
 *   seconds; more are closed at once. A browser holds at most 6 connections to a server (per
 *   scheme), a Zulip client or bot a few: 100 leaves room for a dozen people behind one address
 *   (a NAT, a VPN). Loopback is not capped (config.capLoopbackConnections): the desktop app's own
 *   window and anything on this computer, which already has the data dir; a proxy on this computer
 *   would put the whole office behind one loopback address.
 * - **Request bodies are watched** until whole. One that sends nothing for config.bodyStallMs
 *   (a minute) is answered 408 and its connection closed, signed in or not; a slow upload that
 *   keeps coming is never cut. A body from nobody signed in (the route's auth found no one: sign-in
 *   forms, setup, invitations, and any request refused before its body is read, whose body Node
 *   would otherwise keep reading forever) must also be whole within config.anonymousBodyMs (30 s)
 *   of its head: those bodies are a few hundred bytes.
 *
 * Headers that trickle are Node's: headersTimeout (60 s) closes them, and they count against the cap.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';
import { Server as TlsServer, type TLSSocket } from 'node:tls';
import type { App, OpenConnection } from '../context.js';
import { isLoopbackAddress } from '../lib/network/lan-urls.js';

/** Connections past the cap that may wait for their request at once, per address; more are closed at once. */
const OVER_CAP_WAITING = 8;
/** How long a connection past the cap may take to send its request before it is closed. */
const OVER_CAP_WAIT_MS = 5_000;
/** Retry-After of the 429 a connection past the cap gets, in seconds. */
const OVER_CAP_RETRY_AFTER = 2;

/** A fresh table for App.connections. */
export function newConnectionTable(): App['connections'] {
  return { byAddress: new Map(), bySocket: new WeakMap(), bodies: new WeakMap() };
}

/** Counts the listener's connections per remote address and holds each to the cap (with requestsWatched). */
export function capConnections(app: App, server: NetServer): void {
  server.on('connection', (socket: Socket) => admit(app, socket));
  if (server instanceof TlsServer) {
    // HTTP is read from the TLS socket: its entry is the TCP connection's (the same ports).
    server.on('secureConnection', (tls: TLSSocket) => {
      const open = app.connections.byAddress.get(addressKey(tls.remoteAddress));
      for (const conn of open ?? []) {
        if (conn.socket.remotePort === tls.remotePort && conn.socket.localPort === tls.localPort) {
          app.connections.bySocket.set(tls, conn);
          conn.socket = tls;
          return;
        }
      }
    });
  }
}

/**
 * Node's request listener in front of `next`: a connection past the cap gets its 429, every
 * other request is counted on its connection (busy until answered) and its body watched.
 */
export function requestsWatched(app: App, next: RequestListener): RequestListener {
  return (req, res) => {
    const conn = app.connections.bySocket.get(req.socket);
    if (conn?.overCap) {
      answerOverCap(res);
      return;
    }
    if (conn) {
      conn.busy++;
      res.once('close', () => {
        conn.busy--;
        conn.answered++;
      });
    }
    const te = req.headers['transfer-encoding'];
    if (te !== undefined || Number(req.headers['content-length'] ?? 0) > 0) watchBody(app, req, res);
    return next(req, res);
  };
}

/** The route's auth found someone: their body has only the stall limit (a slow upload may take long). */
export function bodyFromSignedIn(app: App, req: IncomingMessage): void {
  const watch = app.connections.bodies.get(req);
  if (watch) watch.signedIn = true;
}

/** Whether the request's body was cut off (answered 408, the connection closed): its parser's error is no bug. */
export function bodyCutOff(app: App, req: IncomingMessage): boolean {
  return app.connections.bodies.get(req)?.cut === true;
}

/** The address as a key: an IPv4 address the same whether a dual-stack listener maps it or not. */
function addressKey(address: string | undefined): string {
  const a = (address ?? '').toLowerCase();
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}

function admit(app: App, socket: Socket): void {
  // A TLS connection on the HTTP port (http/dual-port.ts) was counted when that port took it.
  if (app.connections.bySocket.has(socket)) return;
  const cap = app.config.connectionsPerAddress;
  const address = addressKey(socket.remoteAddress);
  if (cap <= 0 || address === '' || (!app.config.capLoopbackConnections && isLoopbackAddress(address))) return;
  const table = app.connections.byAddress;
  let open = table.get(address);
  if (!open) table.set(address, (open = new Set()));
  const conn: OpenConnection = { socket, busy: 0, answered: 0, overCap: false };
  if (counted(open) >= cap) closeOneIdle(open);
  if (counted(open) >= cap) {
    if (open.size - counted(open) >= OVER_CAP_WAITING) {
      socket.destroy();
      return;
    }
    conn.overCap = true;
    const wait = setTimeout(() => conn.socket.destroy(), OVER_CAP_WAIT_MS);
    wait.unref();
    socket.once('close', () => clearTimeout(wait));
  }
  const mine = open;
  mine.add(conn);
  app.connections.bySocket.set(socket, conn);
  socket.once('close', () => {
    mine.delete(conn);
    if (mine.size === 0 && table.get(address) === mine) table.delete(address);
  });
}

/** Connections within the cap. */
function counted(open: Set<OpenConnection>): number {
  let n = 0;
  for (const conn of open) if (!conn.overCap) n++;
  return n;
}

/** Closes the address's oldest kept-alive connection that waits for nothing, if it has one. */
function closeOneIdle(open: Set<OpenConnection>): void {
  for (const conn of open) {
    if (!conn.overCap && conn.busy === 0 && conn.answered > 0) {
      open.delete(conn);
      conn.socket.destroy();
      return;
    }
  }
}

function answerOverCap(res: ServerResponse): void {
  const body = JSON.stringify({
    result: 'error',
    msg: 'Too many connections from your address; try again shortly',
    code: 'RATE_LIMIT_HIT',
    'retry-after': OVER_CAP_RETRY_AFTER,
  });
  // Connection: close: Node closes the connection once this is written (the request's body is not read).
  res.writeHead(429, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': String(OVER_CAP_RETRY_AFTER),
    Connection: 'close',
  });
  res.end(body);
}

/**
 * Watches a body until it is whole, by the socket's byte count (bytesRead: no 'data' listener, which
 * would take the socket off Node's native parser), checked a few times per limit.
 */
function watchBody(app: App, req: IncomingMessage, res: ServerResponse): void {
  const { bodyStallMs: stallMs, anonymousBodyMs } = app.config;
  const socket = req.socket;
  const watch = { signedIn: false, cut: false };
  app.connections.bodies.set(req, watch);
  const started = performance.now();
  let progressAt = started;
  let seen = socket.bytesRead;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    if (req.complete || socket.destroyed) return;
    const now = performance.now();
    if (socket.bytesRead !== seen) {
      seen = socket.bytesRead;
      progressAt = now;
    }
    const deadline = !watch.signedIn && anonymousBodyMs > 0 ? started + anonymousBodyMs : Infinity;
    const stallAt = stallMs > 0 ? progressAt + stallMs : Infinity;
    if (now >= deadline) return cut('The request body did not arrive in time');
    if (now >= stallAt) return cut('The request body stopped arriving');
    // A quarter of the stall limit between looks: a body is cut at most a quarter late.
    const nextLook = Math.min(deadline, stallAt, stallMs > 0 ? now + stallMs / 4 : Infinity);
    if (nextLook === Infinity) return;
    timer = setTimeout(check, Math.max(1, nextLook - now));
    timer.unref();
  };
  const cut = (msg: string) => {
    watch.cut = true;
    if (res.headersSent) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' });
    res.writeHead(408, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    res.end(body, () => socket.destroy());
  };
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  req.once('close', stop);
  check();
}
