/**
 * An export's snapshot of the messages (server/export/snapshot.ts): closed segment files are
 * hard-linked at the instant rather than copied into memory, the others copied; read a segment at
 * a time, the snapshot holds exactly the messages as they were at the instant, however they
 * change after (an edit rewriting an older segment, a deletion, new messages); its links live under
 * `exports/` and go when it is released, and a start of the next snapshot clears any left behind.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { removeExportLeftovers, takeSnapshot } from '../../server/export/snapshot.js';
import { FLAG, packRow, type MessageRecord } from '../../server/store/message-records.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const N = 2_600;

describe("an export's snapshot of the messages", () => {
  let ts: TestServer;
  const exportsDir = () => join(ts.dataDir, 'exports');
  const snapshotDirs = () => (existsSync(exportsDir()) ? readdirSync(exportsDir()).filter((n) => n.startsWith('.snapshot-')) : []);

  before(async () => {
    ts = await startTestServer();
    const store = ts.store.messages;
    const ids: number[] = [];
    for (let i = 0; i < N; i++) {
      const m: Omit<MessageRecord, 'id'> = {
        sender_id: ts.owner.id,
        stream_id: 1 + (i % 3),
        topic: `topic ${i % 7}`,
        content: `message ${i}`,
        timestamp: 1_700_000_000 + i,
        um: [packRow(ts.owner.id, FLAG.read)],
      };
      ids.push(store.add(m).id);
    }
    await store.save(...ids);
    await store.settled();
  });
  after(() => ts.stop());

  it('links the closed segments, copies the open one, and reads back the instant after changes', async () => {
    const store = ts.store.messages;
    const before = [...store.all()].map((m) => `${m.id} ${m.content}`);
    const first = before[0]!.split(' ')[0]!;
    const snap = takeSnapshot(ts.app);
    assert.equal(snap.messages.count, N);
    const [dir] = snapshotDirs();
    assert.ok(dir, 'a folder of links under exports/');
    const links = readdirSync(join(exportsDir(), dir!));
    // 2,600 messages: the two closed segments' files linked (the same file, two names), the open one copied.
    assert.equal(links.length, 2, links.join(', '));
    for (const name of links) assert.equal(statSync(join(exportsDir(), dir!, name)).nlink, 2, name);

    // After the instant: an old message edited (its segment file is written anew), one deleted, one sent.
    const old = store.get(Number(first) + 5)!;
    old.content = 'edited after the snapshot';
    await store.save(old.id);
    const gone = store.remove(Number(first) + 1_500)!;
    await store.save(gone.id);
    const added = store.add({ sender_id: ts.owner.id, stream_id: 1, topic: 'later', content: 'sent after', timestamp: 1_800_000_000, um: [] });
    await store.save(added.id);
    await store.settled();

    const seen: string[] = [];
    let segments = 0;
    for (const seg of snap.messages.segments()) {
      segments++;
      for (const m of seg) seen.push(`${m.id} ${m.content}`);
    }
    assert.equal(segments, 3);
    assert.deepEqual(seen, before, 'exactly the messages of the instant');
    assert.deepEqual([...snap.messages].map((m) => `${m.id} ${m.content}`), before);
    snap.messages.release();
    assert.deepEqual(snapshotDirs(), []);
    // The store was not disturbed by the links: the changes are there.
    assert.equal(store.get(old.id)?.content, 'edited after the snapshot');
    assert.equal(store.get(gone.id), undefined);
  });

  it('a snapshot clears links an earlier one left (a stop in the middle of an export)', () => {
    const a = takeSnapshot(ts.app);
    assert.equal(snapshotDirs().length, 1);
    const b = takeSnapshot(ts.app);
    assert.equal(snapshotDirs().length, 1);
    assert.equal([...b.messages].length, b.messages.count);
    b.messages.release();
    a.messages.release();
    assert.deepEqual(snapshotDirs(), []);
  });

  it('what an export stopped in the middle left (links, work folders) goes as the server starts (createApp), and nothing else', () => {
    const dir = exportsDir();
    mkdirSync(join(dir, '.snapshot-1700000000000'), { recursive: true });
    writeFileSync(join(dir, '.snapshot-1700000000000', 'seg-000000000001.json'), '[]');
    mkdirSync(join(dir, '9.tmp', 'hearth-export-x'), { recursive: true });
    mkdirSync(join(dir, '8', 'token'), { recursive: true });
    writeFileSync(join(dir, '8', 'token', 'hearth-export-y.tar.gz'), 'kept');
    writeFileSync(join(dir, 'exports.json'), '{"nextId":10,"exports":[]}');
    removeExportLeftovers(ts.dataDir);
    assert.deepEqual(readdirSync(dir).sort(), ['8', 'exports.json']);
    // A data dir with no exports folder: nothing to do, no error.
    removeExportLeftovers(join(ts.dataDir, 'no-such-dir'));
  });
});
