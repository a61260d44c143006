import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Store } from '../../../server/store/store.js';
import { createChannel } from '../../helpers/channels.js';
import { sendStream } from '../../helpers/messages.js';
import { startTestServer } from '../../helpers/server.js';

describe('backup snapshot', () => {
  it('holds the messages as of the snapshot, never a message whose channel it lacks', async () => {
    const ts = await startTestServer();
    const root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
    try {
      const c = ts.ownerClient;
      await createChannel(ts, c, 'before', {});
      const sent: number[] = [];
      for (let i = 0; i < 3; i++) sent.push(await sendStream(c, 'before', 't', `m${i}`));
      const maxBefore = ts.store.messages.maxId;
      let later: number[] = [];
      ts.app.backups.afterSnapshot = async () => {
        // Written after the snapshot, before a byte is copied: the segment file on disk now holds
        // messages of a channel the backup's channels.json does not have.
        await createChannel(ts, c, 'after', {});
        later = [await sendStream(c, 'after', 't', 'late'), await sendStream(c, 'before', 't', 'late too')];
        // The open segment is appended to in place, so it is taken from memory, never linked.
        const staged = await readdir(join(ts.dataDir, '.backup-staging', 'messages')).catch(() => []);
        assert.ok(!staged.some((n) => n.startsWith('seg-')), 'the open segment is not staged as a link');
      };
      const started = await c.post('/hearth/backup', { destination: root });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      await ts.app.backups.finished();
      const done = (await c.get('/hearth/backup')).body;
      assert.equal(done.state, 'done', JSON.stringify(done));
      assert.equal(later.length, 2);
      assert.equal(done.copied_bytes, done.total_bytes);

      const copy = await Store.open(done.destination, { lock: false });
      try {
        const channelIds = new Set(copy.channels.data.channels.map((ch) => ch.id));
        const ids = [...copy.messages.all()].map((m) => m.id);
        for (const m of copy.messages.all()) {
          if (m.stream_id !== undefined && m.stream_id !== null) assert.ok(channelIds.has(m.stream_id), `message ${m.id}'s channel is in the backup`);
        }
        for (const id of sent) assert.ok(ids.includes(id));
        for (const id of later) assert.ok(!ids.includes(id), `message ${id}, sent after the snapshot, is not in the backup`);
        assert.equal(copy.messages.maxId, maxBefore);
        assert.equal(copy.channels.data.channels.some((ch) => ch.name === 'after'), false);
      } finally {
        await copy.close();
      }
      const left = await readdir(done.destination);
      assert.ok(!left.includes('INCOMPLETE-BACKUP.txt'));
      await assert.rejects(stat(join(ts.dataDir, '.backup-staging')), /ENOENT/);
      // The live server kept everything.
      for (const id of later) assert.ok(ts.store.messages.get(id));
    } finally {
      await ts.stop();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('stopping the server during a backup stops the copy and removes the partial folder', async () => {
    const ts = await startTestServer();
    const root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
    try {
      let target = '';
      let closing: Promise<void> | null = null;
      ts.app.backups.afterSnapshot = async () => {
        target = ts.app.backups.current.destination!;
        // Quit while the copy is about to start (the desktop app's tray Quit calls the same close()).
        closing = ts.server.close();
      };
      const started = await ts.ownerClient.post('/hearth/backup', { destination: root });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      await ts.app.backups.finished();
      await closing;
      const status = ts.app.backups.current;
      assert.equal(status.state, 'failed');
      assert.equal(status.error, 'Hearth stopped before the backup finished; the partial copy was removed.');
      assert.equal(status.copied_bytes, 0);
      await assert.rejects(stat(target), /ENOENT/, 'no partial backup left to be mistaken for a real one');
      await assert.rejects(stat(join(ts.dataDir, '.backup-staging')), /ENOENT/);
    } finally {
      await ts.stop();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('a backup that fails half-way leaves no half backup behind', async () => {
    const ts = await startTestServer();
    const root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
    try {
      let target = '';
      ts.app.backups.afterSnapshot = async () => {
        target = ts.app.backups.current.destination!;
        assert.ok((await readdir(target)).includes('INCOMPLETE-BACKUP.txt'), 'marked incomplete while it runs');
        // The destination turns into something no folder can be made in (a disk pulled out, say).
        await rm(target, { recursive: true });
        await writeFile(target, 'not a folder');
      };
      const started = await ts.ownerClient.post('/hearth/backup', { destination: root });
      assert.equal(started.status, 200);
      await ts.app.backups.finished();
      const done = (await ts.ownerClient.get('/hearth/backup')).body;
      assert.equal(done.state, 'failed');
      assert.ok(done.error);
      assert.ok(target.startsWith(root));
      assert.deepEqual(await readdir(root), []);
      await assert.rejects(stat(join(ts.dataDir, '.backup-staging')), /ENOENT/);
    } finally {
      await ts.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});
