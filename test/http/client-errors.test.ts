/**
 * What Node's HTTP parser refuses before Koa sees it gets Hearth's JSON envelope: a malformed
 * request line (400), headers over the limit (431), and headers that stop arriving (408, after
 * the server's headersTimeout; shortened here, with requestTimeout 0 as Hearth runs).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { answerClientErrorsWithJson } from '../../server/http/client-errors.js';

/** Writes raw bytes and resolves with everything the server sends until it closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let got = '';
    socket.on('data', (d) => (got += d.toString()));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

describe('client errors', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer({ connectionsCheckingInterval: 100, maxHeaderSize: 1024 }, (req, res) => {
      // Answers only once the whole body is in: a request whose body never ends never gets here.
      req.resume();
      req.on('end', () => res.end('{"result":"success"}'));
    });
    server.requestTimeout = 0;
    server.headersTimeout = 400;
    answerClientErrorsWithJson(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  const parse = (raw: string) => ({ status: Number(raw.split(' ')[1]), body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) });

  it('a malformed request line is a 400 in the JSON envelope', async () => {
    const r = parse(await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n'));
    assert.deepEqual([r.status, r.body.result, r.body.msg], [400, 'error', 'Malformed HTTP request']);
  });

  it('headers over the limit are a 431', async () => {
    const r = parse(await rawExchange(port, `GET /x HTTP/1.1\r\nHost: a\r\nX-Long: ${'a'.repeat(4000)}\r\n\r\n`));
    assert.equal(r.status, 431);
    assert.match(r.body.msg, /too large/);
  });

  it('headers that stop arriving are a 408 once the headers timeout passes, and the connection is closed', async () => {
    const t0 = Date.now();
    const raw = await rawExchange(port, 'POST /x HTTP/1.1\r\nHost: a\r\nContent-Le');
    const r = parse(raw);
    assert.deepEqual([r.status, r.body.result, r.body.code], [408, 'error', 'BAD_REQUEST']);
    assert.ok(Date.now() - t0 >= 350, `answered after ${Date.now() - t0} ms`);
  });
});
