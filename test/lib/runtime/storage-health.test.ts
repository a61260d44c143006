import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../../helpers/channels.js';
import { sendStream } from '../../helpers/messages.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const enospc = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));

describe('a write the disk refuses', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    ts.app.storageHealth.retryMs = 20;
  });
  after(() => ts.stop());

  const draftContents = async () => {
    const res = await ts.ownerClient.get('/drafts');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.drafts as { content: string }[]).map((d) => d.content);
  };

  it('answers a clear JSON 503, announces nothing, rolls the change back and keeps working', async () => {
    const c = ts.ownerClient;
    const reg = await c.post('/register', { event_types: JSON.stringify(['drafts']) });
    assert.equal(reg.status, 200);
    const drafts = ts.store.drafts;
    drafts.save = enospc;
    const res = await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'lost?' }] });
    assert.equal(res.status, 503);
    assert.equal(res.body.result, 'error');
    assert.equal(res.body.code, 'STORAGE_FAILED');
    assert.match(res.body.msg, /could not save.*ENOSPC/);
    await ts.app.storageHealth.recovered;

    assert.notEqual(ts.store.drafts, drafts, 'the store was reopened from disk');
    assert.deepEqual(await draftContents(), [], 'the refused change is gone from memory too');
    const onDisk = JSON.parse(await readFile(join(ts.dataDir, 'drafts.json'), 'utf8').catch(() => '{"drafts":[]}'));
    assert.equal(onDisk.drafts.some((d: { content: string }) => d.content === 'lost?'), false);
    // The queue was registered against state that may have changed under it: clients re-register.
    const polled = await c.get('/events', { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(polled.status, 400);
    assert.equal(polled.body.code, 'BAD_EVENT_QUEUE_ID');

    const ok = await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'kept' }] });
    assert.equal(ok.status, 200);
    assert.deepEqual(await draftContents(), ['kept']);
    const later = JSON.parse(await readFile(join(ts.dataDir, 'drafts.json'), 'utf8'));
    assert.deepEqual(
      later.drafts.map((d: { content: string }) => d.content),
      ['kept'],
    );
  });

  it('a failed send leaves no message behind, and a retry is not a duplicate', async () => {
    const c = ts.ownerClient;
    await createChannel(ts, c, 'disk', {});
    const first = await sendStream(c, 'disk', 't', 'before');
    ts.store.messages.save = enospc;
    const res = await c.post('/messages', { type: 'stream', to: 'disk', topic: 't', content: 'during' });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.code, 'STORAGE_FAILED');
    await ts.app.storageHealth.recovered;
    const retry = await sendStream(c, 'disk', 't', 'during');
    const got = await c.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([['channel', 'disk']]) });
    assert.equal(got.status, 200);
    const contents = (got.body.messages as { id: number; content: string }[]).map((m) => [m.id, m.content.replace(/<\/?p>/g, '')]);
    assert.deepEqual(contents, [
      [first, 'before'],
      [retry, 'during'],
    ]);
  });

  it('refuses changes before they touch memory until the disk takes a write again', async () => {
    const c = ts.ownerClient;
    const health = ts.app.storageHealth;
    let diskFull = true;
    health.probe = async () => !diskFull;
    ts.store.drafts.save = enospc;
    assert.equal((await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'one' }] })).status, 503);
    // Wait for the rollback, then: still refused while the probe fails, and nothing lands in memory.
    for (let i = 0; i < 100 && ts.store.drafts.save === enospc; i++) await new Promise((r) => setTimeout(r, 10));
    const refused = await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'two' }] });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.code, 'STORAGE_FAILED');
    assert.deepEqual(await draftContents(), ['kept'], 'reads keep working; neither change is there');
    const status = await c.get('/hearth/status');
    assert.equal(status.body.storage_error, 'ENOSPC');
    diskFull = false;
    await health.recovered;
    assert.equal((await c.get('/hearth/status')).body.storage_error, null);
    assert.equal((await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'three' }] })).status, 200);
    assert.deepEqual((await draftContents()).sort(), ['kept', 'three']);
    assert.equal(health.rollbacks, 3);
  });
});
