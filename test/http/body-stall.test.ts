/**
 * A request body that stops arriving is answered 408 and its connection closed after
 * config.bodyStallMs (shortened here); a slow body that keeps coming is never cut, however long
 * it takes in all (a large upload on a slow link).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('a request body that stops arriving', () => {
  let ts: TestServer;
  let port: number;
  let auth: string;
  before(async () => {
    ts = await startTestServer({ config: { bodyStallMs: 300 } });
    port = Number(new URL(ts.url).port);
    auth = `Basic ${Buffer.from(`${ts.owner.email}:${ts.owner.apiKey}`).toString('base64')}`;
  });
  after(() => ts.stop());

  /** Sends the head and then the body's pieces with pauses; resolves with all the server sent until it closed. */
  function exchange(body: string[], pauseMs: number, declared: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', async () => {
        socket.write(
          `POST /api/v1/users/me/status HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n` +
            `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${declared}\r\nConnection: close\r\n\r\n`,
        );
        for (const piece of body) {
          await new Promise((r) => setTimeout(r, pauseMs));
          if (!socket.destroyed) socket.write(piece);
        }
      });
      let got = '';
      socket.on('data', (d) => (got += d.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
  }

  it('stops: 408 in the JSON envelope, the connection closed', async () => {
    const t0 = Date.now();
    const raw = await exchange(['status_text=hal'], 10, 100);
    assert.match(raw, /^HTTP\/1\.1 408/);
    assert.equal(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).result, 'error');
    assert.ok(Date.now() - t0 >= 280, `after ${Date.now() - t0} ms`);
  });

  it('keeps coming slowly, longer in all than the stall limit: answered normally', async () => {
    const text = 'status_text=' + 'slow'.repeat(5);
    const pieces = text.match(/.{1,4}/g)!;
    const t0 = Date.now();
    const raw = await exchange(pieces, 150, text.length);
    assert.ok(Date.now() - t0 > 600, 'the body took longer than the limit');
    assert.match(raw, /^HTTP\/1\.1 200/, raw.slice(0, 200));
    const me = await ts.ownerClient.get(`/users/${ts.owner.id}/status`);
    assert.equal(me.body.status.status_text, 'slow'.repeat(5));
  });
});
