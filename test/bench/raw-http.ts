/**
 * A minimal keep-alive HTTP/1.1 client over raw sockets, for the benchmarks:
 * much cheaper per request than node:http, so the load generator is not the
 * bottleneck and 10,000 parked long-polls cost the client little.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface RawResponse {
  status: number;
  body: Buffer;
  /** performance.now() when the last byte of the response was read. */
  at: number;
}

/**
 * One keep-alive HTTP/1.1 connection, one request in flight at a time. Parses
 * only the status line and Content-Length (every Koa JSON answer has one).
 */
export class RawConnection {
  private pending: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | null = null;
  private chunks: Buffer[] = [];
  private have = 0;
  private total = -1;
  private headerLen = 0;
  private status = 0;
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (c: Buffer) => this.onData(c));
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => {
      this.closed = true;
      this.fail(new Error('connection closed by the server'));
    });
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const s = connect({ port, host });
      s.once('error', reject);
      s.once('connect', () => {
        s.off('error', reject);
        resolve(new RawConnection(s));
      });
    });
  }

  send(request: Buffer | string): Promise<RawResponse> {
    if (this.pending) return Promise.reject(new Error('a request is already in flight'));
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private fail(err: Error): void {
    const p = this.pending;
    this.pending = null;
    this.reset();
    p?.reject(err);
  }

  private reset(): void {
    this.chunks = [];
    this.have = 0;
    this.total = -1;
  }

  private onData(chunk: Buffer): void {
    if (!this.pending) return;
    this.chunks.push(chunk);
    this.have += chunk.length;
    if (this.total < 0) {
      const buf = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.toString('latin1', 0, end);
      const m = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!m) {
        this.fail(new Error(`response without Content-Length: ${head.split('\r\n')[0]}`));
        return;
      }
      this.status = Number(head.slice(9, 12));
      this.headerLen = end + 4;
      this.total = this.headerLen + Number(m[1]);
    }
    if (this.have >= this.total) {
      const at = performance.now();
      const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      const res: RawResponse = { status: this.status, body: buf.subarray(this.headerLen, this.total), at };
      const p = this.pending;
      this.pending = null;
      this.reset();
      p.resolve(res);
    }
  }
}

/** A request as bytes. `body` is sent urlencoded. */
export function rawRequest(
  method: string,
  port: number,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (body !== undefined) {
    lines.push('Content-Type: application/x-www-form-urlencoded', `Content-Length: ${Buffer.byteLength(body)}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
}

export function basicAuth(email: string, apiKey: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` };
}
