/** One call to an outgoing webhook (server/lib/network/webhook-post.ts): this computer refused unless allowed, limits. */
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { postWebhook, type PostRequest } from '../../../server/lib/network/webhook-post.js';

describe('postWebhook', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  before(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      req.on('end', () => {
        if (req.url === '/big') res.writeHead(200, { 'content-length': String(2048) }).end('x'.repeat(2048));
        else if (req.url === '/chunked') {
          res.writeHead(200);
          res.write('y'.repeat(600));
          res.end('y'.repeat(600));
        } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"content":"ok"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = (url: string, more: Partial<PostRequest> = {}) =>
    postWebhook({
      url,
      body: '{}',
      contentType: 'application/json',
      userAgent: 'test',
      timeoutMs: 2000,
      maxBytes: 1024,
      allowLoopback: false,
      isOwn: (a) => a === '127.0.0.1' || a === '::1' || a === '10.9.9.9',
      signal: new AbortController().signal,
      ...more,
    });

  it('refuses this computer by address or name, before any connection, unless allowed', async () => {
    const before = hits;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://app.localhost:${port}/`,
      'http://[::1]:1/',
      `http://0.0.0.0:${port}/`,
      'http://[::]:1/',
      'http://[::ffff:127.0.0.1]:1/',
      'http://10.9.9.9:1/',
    ]) {
      assert.deepEqual(await call(url), { kind: 'loopback' }, url);
    }
    assert.equal(hits, before);
    const allowed = await call(`http://127.0.0.1:${port}/`, { allowLoopback: true });
    assert.equal(allowed.kind, 'response');
    assert.equal(hits, before + 1);
  });

  it('refuses a name that resolves to this computer (checked on the resolved address)', async (t) => {
    const name = hostname();
    const resolved = await lookup(name, { all: true }).catch(() => []);
    if (!resolved.length) return t.skip(`${name} does not resolve here`);
    const own = new Set(resolved.map((a) => a.address));
    const out = await call(`http://${name}:${port}/`, { isOwn: (a) => own.has(a) });
    assert.deepEqual(out, { kind: 'loopback' });
  });

  it('answers over the limit are refused, whether declared or streamed', async () => {
    assert.deepEqual(await call(`http://127.0.0.1:${port}/big`, { allowLoopback: true }), { kind: 'too_large' });
    assert.deepEqual(await call(`http://127.0.0.1:${port}/chunked`, { allowLoopback: true }), { kind: 'too_large' });
  });

  it('bad URLs, refused connections and a stop are outcomes, never exceptions', async () => {
    assert.equal((await call('not a url')).kind, 'exception');
    assert.equal((await call('ftp://example.com/')).kind, 'exception');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    assert.equal((await call(`http://127.0.0.1:${deadPort}/`, { allowLoopback: true })).kind, 'connection');
    const stop = new AbortController();
    stop.abort();
    assert.deepEqual(await call(`http://127.0.0.1:${port}/`, { allowLoopback: true, signal: stop.signal }), { kind: 'aborted' });
  });
});
