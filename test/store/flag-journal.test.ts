/**
 * Read, starred and collapsed apart from the message records (issue 34, item 2): a flags snapshot and
 * a journal of appended lines (server/store/flag-journal.ts). Marking an old message read writes a
 * line, never a segment; seeded random runs reopen the store and compare every flag with a model; a
 * torn last line, a refused append and a compaction stopped half-way change nothing acknowledged; a
 * data dir from before (flags in the rows) opens with the same flags and writes its snapshot once.
 */
import assert from 'node:assert/strict';
import { appendFile, open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MessageStore } from '../../server/store/messages.js';
import { FLAG, packRow, type MessageRecord } from '../../server/store/message-records.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('hearth-flags-');

const USERS = [1, 2, 3, 4, 5, 6];
const message = (i: number, um: number[]): Omit<MessageRecord, 'id'> => ({
  sender_id: 1,
  stream_id: 1 + (i % 3),
  topic: `t${i % 7}`,
  content: `message ${i}`,
  timestamp: 1_700_000_000 + i,
  um,
});
/** Users 1-4 receive every message; 1 (the sender) has read it. */
const rows = () => [packRow(1, FLAG.read), packRow(2, 0), packRow(3, FLAG.mentioned), packRow(4, 0)];

async function filled(dir: string, n: number): Promise<MessageStore> {
  const store = await MessageStore.open(dir);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(store.add(message(i, rows())).id);
  await store.save(...ids);
  return store;
}

/** Every user's flags on every message, and the index lists, as one comparable value. */
function flagsOf(store: MessageStore): string {
  const out: string[] = [];
  for (const m of store.all()) out.push(`${m.id}:${USERS.map((u) => store.rowFlags(m, u) ?? '-').join(',')}`);
  for (const u of USERS) out.push(`u${u} unread ${store.unread(u).toArray().join(',')} starred ${store.starred(u).toArray().join(',')}`);
  return out.join('\n');
}

async function segmentBytes(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of (await readdir(dir)).filter((n) => /^seg-\d+\.json$/.test(n))) {
    const s = await stat(join(dir, f));
    out.set(f, `${s.ino}:${s.size}:${s.mtimeMs}`);
  }
  return out;
}

describe('the flags journal', () => {
  it('marking an old message read appends a line: no segment is written, and reopening reads it', async () => {
    const dir = await tempDir();
    const store = await filled(dir, 3500);
    await store.compactFlags();
    const before = await segmentBytes(dir);
    const old = store.get(5)!;
    assert.equal(store.rowFlags(old, 2), 0);
    assert.equal(store.setRowFlags(old, 2, FLAG.read), false, 'the record does not change');
    await store.save();
    const log = (await readdir(dir)).find((n) => /^flags-\d+\.log$/.test(n))!;
    const written = await readFile(join(dir, log), 'utf8');
    assert.ok(written.length < 60, `one short line: ${JSON.stringify(written)}`);
    assert.deepEqual(await segmentBytes(dir), before, 'every segment file as it was');
    // A channel marked read (1,167 messages in three segments) is one line too: no segment written.
    const channel = store.channel(2).toArray();
    for (const id of channel) store.setRowFlags(store.get(id)!, 4, FLAG.read);
    await store.save();
    const grew = (await stat(join(dir, log))).size - written.length;
    assert.ok(grew < 4 * channel.length, `${grew} bytes for ${channel.length} messages`);
    assert.deepEqual(await segmentBytes(dir), before);
    await store.settled();
    const again = await MessageStore.open(dir);
    assert.equal(flagsOf(again), flagsOf(store));
    assert.equal(again.rowFlags(again.get(5)!, 2), FLAG.read);
    assert.equal(again.rowFlags(again.get(5)!, 3), FLAG.mentioned, 'the flags in the rows stay');
  });

  it('seeded random runs: flags, rows, deletes and compactions, reopened after each batch, equal a model', async () => {
    for (const seed0 of [1, 7, 34]) {
      let seed = seed0;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const dir = await tempDir();
      let store = await filled(dir, 2200);
      for (let batch = 0; batch < 12; batch++) {
        const touched = new Set<number>();
        for (let k = 0; k < 60; k++) {
          const ids = store.allIds.toArray();
          const m = store.get(ids[rnd(ids.length)]!)!;
          const u = USERS[rnd(USERS.length)]!;
          const old = store.rowFlags(m, u);
          const r = rnd(10);
          if (r < 6) {
            if (old === null) continue;
            const bit = [FLAG.read, FLAG.starred, FLAG.collapsed][rnd(3)]!;
            store.setRowFlags(m, u, old ^ bit);
          } else if (r < 7) {
            // A historical row (starring what one never received), or another flag in the record.
            if (store.setRowFlags(m, u, old === null ? FLAG.read | FLAG.historical | FLAG.starred : old ^ FLAG.has_alert_word)) touched.add(m.id);
          } else if (r < 8) {
            if (old !== null && u !== 1) {
              store.removeRow(m, u);
              touched.add(m.id);
            }
          } else if (r < 9) {
            if (store.remove(m.id)) touched.add(m.id);
          } else {
            touched.add(store.add(message(k, rows())).id);
          }
        }
        await store.save(...touched);
        if (rnd(3) === 0) await store.compactFlags();
        await store.settled();
        const expected = flagsOf(store);
        store = await MessageStore.open(dir);
        assert.equal(flagsOf(store), expected, `seed ${seed0}, batch ${batch}`);
      }
    }
  });

  it('a torn last line (a machine stop mid-append) is not counted, and is cut off before the next append', async () => {
    const dir = await tempDir();
    const store = await filled(dir, 50);
    await store.compactFlags();
    store.setRowFlags(store.get(3)!, 2, FLAG.read);
    await store.save();
    await store.settled();
    const expected = flagsOf(store);
    const log = join(dir, (await readdir(dir)).find((n) => /^flags-\d+\.log$/.test(n))!);
    // Half a line that would have starred message 4 for user 2, then the same line whole but without its newline.
    for (const torn of ['{"u":2,"f":2,"v":1,"id', '{"u":2,"f":2,"v":1,"ids":[4]}']) {
      const size = (await stat(log)).size;
      await appendFile(log, torn);
      const again = await MessageStore.open(dir);
      assert.equal(flagsOf(again), expected, JSON.stringify(torn));
      again.setRowFlags(again.get(6)!, 3, FLAG.read | FLAG.mentioned | FLAG.starred);
      await again.save();
      await again.settled();
      const text = await readFile(log, 'utf8');
      assert.ok(!text.includes('"id"') && !text.slice(size).startsWith('{"u":2'), `cut off: ${text}`);
      const third = await MessageStore.open(dir);
      assert.equal(third.rowFlags(third.get(6)!, 3), FLAG.read | FLAG.mentioned | FLAG.starred);
      assert.equal(third.rowFlags(third.get(4)!, 2), 0, 'the torn star never counts');
      again.setRowFlags(again.get(6)!, 3, FLAG.mentioned);
      await again.save();
      await again.settled();
    }
    // A damaged line before the last stops the open with the file named (nothing is dropped).
    const text = await readFile(log, 'utf8');
    await writeFile(log, `garbage\n${text}`);
    await assert.rejects(MessageStore.open(dir), /flags-\d+\.log is unreadable/);
  });

  it('a refused append fails the save and is never counted, even after later lines', async () => {
    const dir = await tempDir();
    const store = await filled(dir, 50);
    await store.settled();
    const expected = flagsOf(store);
    const h = await open(join(dir, 'seg-000000000001.json'), 'r');
    await h.close();
    const proto = Object.getPrototypeOf(h) as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const saved = proto.datasync!;
    proto.datasync = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    store.setRowFlags(store.get(3)!, 2, FLAG.read | FLAG.starred);
    await assert.rejects(store.save(), { code: 'ENOSPC' });
    proto.datasync = saved;
    // The store is rolled back by reopening; the refused lines were cut off.
    const again = await MessageStore.open(dir);
    assert.equal(flagsOf(again), expected);
    again.setRowFlags(again.get(9)!, 4, FLAG.read);
    await again.save();
    await again.settled();
    const third = await MessageStore.open(dir);
    assert.equal(third.rowFlags(third.get(3)!, 2), 0, 'the refused change is not there');
    assert.equal(third.rowFlags(third.get(9)!, 4), FLAG.read);
    // The store that saw the refusal acknowledges nothing more.
    store.setRowFlags(store.get(10)!, 2, FLAG.read);
    await assert.rejects(store.save(), { code: 'ENOSPC' });
  });

  it('a compaction stopped before or after its snapshot landed loses nothing', async () => {
    const dir = await tempDir();
    const store = await filled(dir, 1200);
    await store.compactFlags();
    for (const id of [2, 3, 1100]) store.setRowFlags(store.get(id)!, 2, FLAG.read | FLAG.starred);
    await store.save();
    await store.settled();
    const expected = flagsOf(store);
    const names = await readdir(dir);
    const oldLog = names.find((n) => /^flags-\d+\.log$/.test(n))!;
    const oldLogText = await readFile(join(dir, oldLog));
    const snapshotText = await readFile(join(dir, 'flags.json'));
    // Stopped after writing the temp copy, before its rename: the old snapshot and journal count.
    await writeFile(join(dir, 'flags.json.tmp'), '{"upTo": 12');
    assert.equal(flagsOf(await MessageStore.open(dir)), expected);
    assert.ok(!(await readdir(dir)).includes('flags.json.tmp'), 'the temp copy is removed');
    // Landed, but stopped before the old journal was deleted: it is not replayed, and goes.
    await store.compactFlags();
    await writeFile(join(dir, oldLog), oldLogText);
    assert.notDeepEqual(await readFile(join(dir, 'flags.json')), snapshotText);
    const reopened = await MessageStore.open(dir);
    assert.equal(flagsOf(reopened), expected);
    assert.ok(!(await readdir(dir)).includes(oldLog), 'the journal before the snapshot is deleted');
  });

  it('a data dir from before (flags in the rows) opens with the same flags, writes its snapshot once and no segment', async () => {
    const dir = await tempDir();
    // As schema 4 wrote it: the flags in the rows, no snapshot, no journal.
    const seg: MessageRecord[] = [];
    for (let i = 1; i <= 30; i++) seg.push({ ...message(i, [packRow(1, FLAG.read), packRow(2, i % 3 ? 0 : FLAG.read), packRow(3, i % 5 ? FLAG.read : FLAG.starred | FLAG.read)]), id: i });
    await writeFile(join(dir, 'seg-000000000001.json'), JSON.stringify(seg));
    // A migration stopped half-way left its temp copy.
    await writeFile(join(dir, 'flags.json.tmp'), '{"upTo":');
    const before = await readFile(join(dir, 'seg-000000000001.json'));
    const store = await MessageStore.open(dir);
    assert.deepEqual(store.unread(2).toArray(), seg.filter((m) => m.id % 3).map((m) => m.id));
    assert.deepEqual(store.starred(3).toArray(), [5, 10, 15, 20, 25, 30]);
    assert.ok((await readdir(dir)).includes('flags.json'));
    assert.deepEqual(await readFile(join(dir, 'seg-000000000001.json')), before, 'the segment is not rewritten');
    const snapshot = JSON.parse(await readFile(join(dir, 'flags.json'), 'utf8')) as { upTo: number };
    assert.equal(snapshot.upTo, 30);
    const mtime = (await stat(join(dir, 'flags.json'))).mtimeMs;
    const again = await MessageStore.open(dir);
    assert.equal(flagsOf(again), flagsOf(store));
    assert.equal((await stat(join(dir, 'flags.json'))).mtimeMs, mtime, 'written once');
  });
});
