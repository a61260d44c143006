import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('a write the disk refuses', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('answers a clear JSON 503, announces nothing, and the server keeps working', async () => {
    const c = ts.ownerClient;
    const reg = await c.post('/register', { event_types: JSON.stringify(['drafts']) });
    assert.equal(reg.status, 200);
    const drafts = ts.store.drafts;
    const realSave = drafts.save.bind(drafts);
    drafts.save = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    try {
      const res = await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'lost?' }] });
      assert.equal(res.status, 503);
      assert.equal(res.body.result, 'error');
      assert.equal(res.body.code, 'STORAGE_FAILED');
      assert.match(res.body.msg, /could not save.*ENOSPC/);
    } finally {
      drafts.save = realSave;
    }
    const polled = await c.get('/events', { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(polled.status, 200);
    assert.deepEqual(polled.body.events, [], 'no event for a change that is not on disk');
    const text = await readFile(join(ts.dataDir, 'drafts.json'), 'utf8').catch(() => '{"drafts":[]}');
    const onDisk = JSON.parse(text);
    assert.equal(onDisk.drafts.some((d: { content: string }) => d.content === 'lost?'), false);

    const ok = await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'kept' }] });
    assert.equal(ok.status, 200);
    const after = JSON.parse(await readFile(join(ts.dataDir, 'drafts.json'), 'utf8'));
    assert.equal(after.drafts.some((d: { content: string }) => d.content === 'kept'), true);
  });
});
