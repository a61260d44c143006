import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

let ts: TestServer;
before(async () => {
  ts = await startTestServer();
});
after(() => ts.stop());

describe('GET /static/{name} (server/static)', () => {
  it('serves a known file byte for byte, without credentials, cached a day', async () => {
    const res = await fetch(`${ts.url}/static/hearth-icon.png`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=86400');
    const want = await readFile(new URL('../../server/static/hearth-icon.png', import.meta.url));
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), want);
  });

  it('answers 404 with a JSON error for any other name, and never walks out of the folder', async () => {
    for (const name of ['nope.png', '..%2Fapp.ts', '..%2F..%2Fpackage.json', 'HEARTH-ICON.PNG']) {
      const res = await fetch(`${ts.url}/static/${name}`);
      assert.equal(res.status, 404, name);
      const body = (await res.json()) as { result: string };
      assert.equal(body.result, 'error', name);
    }
  });
});
