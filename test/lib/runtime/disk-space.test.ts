/**
 * The data dir's disk, where no small file system can be made (these run everywhere; the same on a
 * real 4 MiB tmpfs is full-disk.test.ts): the status page's free-space fields and warning, a start
 * that finds no room for a write (the probe made to fail as a full disk's would), the start-up
 * steps that must not stop it, reads during a rollback, and a start that rewrites nothing.
 */
import assert from 'node:assert/strict';
import { statfs, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commit } from '../../../server/actions/commit.js';
import { isLow, LOW_SPACE_BYTES, refuseWritesIfDiskFull, startStep } from '../../../server/lib/runtime/disk-space.js';
import { Store } from '../../../server/store/store.js';
import { createChannel } from '../../helpers/channels.js';
import { fetchMessages, sendStream } from '../../helpers/messages.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const enospc = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
const GiB = 1024 ** 3;

describe('free space on the data dir’s disk', () => {
  it('is low under 1 GiB or under 5% of the disk', () => {
    assert.equal(LOW_SPACE_BYTES, GiB);
    assert.equal(isLow(2 * GiB, 10 * GiB), false, '2 GiB of 10: 20%');
    assert.equal(isLow(GiB - 1, 2 * GiB), true, 'under 1 GiB');
    assert.equal(isLow(4 * GiB, 100 * GiB), true, '4% of the disk');
    assert.equal(isLow(5 * GiB, 100 * GiB), false, 'exactly 5%');
    assert.equal(isLow(0, 4 * 1024 * 1024), true, 'a full disk');
  });

  it('GET /hearth/status says how much is free, of how much, and whether that is low', async () => {
    const ts = await startTestServer();
    try {
      const res = await ts.ownerClient.get('/hearth/status');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const fs = await statfs(ts.dataDir);
      assert.equal(res.body.disk_total_bytes, fs.blocks * fs.bsize);
      // Free space moves as other programs write: within 64 MiB of what statfs says now.
      assert.ok(Math.abs(res.body.disk_free_bytes - fs.bavail * fs.bsize) < 64 * 1024 * 1024, JSON.stringify(res.body));
      assert.equal(res.body.disk_space_low, isLow(res.body.disk_free_bytes, res.body.disk_total_bytes));
    } finally {
      await ts.stop();
    }
  });
});

describe('a start with no room for a write (injected: the probe fails as on a full disk)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    ts.app.storageHealth.retryMs = 20;
    await createChannel(ts, ts.ownerClient, 'disk', {});
  });
  after(() => ts.stop());

  it('serves reads and refuses changes plainly until a write lands again, with nothing to roll back', async () => {
    const c = ts.ownerClient;
    const before = await sendStream(c, 'disk', 't', 'before');
    const health = ts.app.storageHealth;
    let diskFull = true;
    health.probe = async () => (diskFull ? enospc() : true);
    // As at start: the probe runs (any free space counts as "nearly full" here) and fails.
    await refuseWritesIfDiskFull(ts.app, Number.POSITIVE_INFINITY);
    assert.equal(health.failure, 'ENOSPC');
    const refused = await c.post('/messages', { type: 'stream', to: 'disk', topic: 't', content: 'refused' });
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'STORAGE_FAILED');
    assert.match(refused.body.msg, /could not save this change to disk \(ENOSPC: the disk holding its data folder is full\)/);
    assert.match(refused.body.msg, /Reading still works/);
    const read = await fetchMessages(c, { narrow: JSON.stringify([['channel', 'disk']]) });
    assert.deepEqual(
      read.messages.map((m: { id: number }) => m.id),
      [before],
    );
    assert.equal((await c.post('/register', { event_types: JSON.stringify(['message']) })).status, 200);
    const status = await c.get('/hearth/status');
    assert.equal(status.body.storage_error, 'ENOSPC');
    assert.equal(status.body.storage_rollbacks, 0, 'nothing to roll back');
    // A start-up step that would write is refused, and the start goes on.
    let ran = false;
    await startStep(ts.app, 'a step', () =>
      commit(ts.app, () => {
        ran = true;
      }),
    );
    assert.equal(ran, false, 'refused before it touched memory');
    await assert.rejects(
      startStep(ts.app, 'a step', () => Promise.reject(new Error('not about the disk'))),
      /not about the disk/,
    );

    diskFull = false;
    await health.recovered;
    assert.equal(health.failure, null);
    const after = await sendStream(c, 'disk', 't', 'after');
    assert.ok(after > before);
  });

  it('a read right after a refused write waits for the rollback: it never shows the refused change', async () => {
    const c = ts.ownerClient;
    const store = ts.app.store;
    // A slow rollback: the reopen waits for writes in flight, made to take 300 ms here.
    const settled = store.settled.bind(store);
    store.settled = () => new Promise((resolve) => setTimeout(resolve, 300)).then(settled);
    store.messages.save = enospc;
    const res = await c.post('/messages', { type: 'stream', to: 'disk', topic: 't', content: 'never saved' });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.ok(ts.app.storageHealth.rollingBack, 'still rolling back');
    const read = await fetchMessages(c, { narrow: JSON.stringify([['channel', 'disk']]) });
    assert.equal(
      read.messages.some((m: { content: string }) => m.content.includes('never saved')),
      false,
    );
    assert.equal(ts.app.storageHealth.rollingBack, null);
    await ts.app.storageHealth.recovered;
  });
});

describe('opening a data dir rewrites nothing it does not change', () => {
  it('leaves manifest.json as it was (a start on a full disk needs no write)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-disk-'));
    try {
      await (await Store.open(dir)).close();
      const first = await stat(join(dir, 'manifest.json'));
      await new Promise((r) => setTimeout(r, 20));
      await (await Store.open(dir)).close();
      const again = await stat(join(dir, 'manifest.json'));
      assert.equal(again.ino, first.ino, 'not replaced');
      assert.equal(again.mtimeMs, first.mtimeMs, 'not written');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
