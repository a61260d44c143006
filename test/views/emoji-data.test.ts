import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';

let ts: TestServer;
before(async () => {
  ts = await startTestServer();
});
after(() => ts.stop());

describe('GET /static/generated/emoji/emoji_api.json (server_emoji_data_url)', () => {
  it('register names the URL; it answers code_to_names without credentials, with an ETag that gives 304', async () => {
    const reg = await ts.ownerClient.post('/register', { fetch_event_types: JSON.stringify(['realm']) });
    assert.equal(reg.status, 200);
    const url = reg.body.server_emoji_data_url as string;
    assert.equal(url, `${ts.url}/static/generated/emoji/emoji_api.json`);

    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const etag = res.headers.get('etag');
    assert.match(etag ?? '', /^"[0-9a-f]{32}"$/);
    const body = (await res.json()) as { code_to_names: Record<string, string[]> };
    assert.ok(body.code_to_names['1f44d']!.includes('+1'), 'thumbs up is named +1');
    assert.ok(body.code_to_names['1f389']!.includes('tada'));
    assert.ok(Object.keys(body.code_to_names).length > 1000);

    const again = await fetch(url, { headers: { 'If-None-Match': etag! } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    const stale = await fetch(url, { headers: { 'If-None-Match': '"0000"' } });
    assert.equal(stale.status, 200);
  });
});
