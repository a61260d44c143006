/**
 * The message segments keep the open segment's items as JSON text between writes (appending
 * serialises only the new item). The files must still hold exactly the items in memory: a
 * seeded run of appends, in-place changes saved by id, and removals, across segment
 * boundaries, compared with JSON.stringify of the items and with a reopen.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { SegmentedCollection } from '../../server/store/segmented.js';

interface Item {
  id: number;
  text: string;
  flags: number[];
}

describe('segment files with kept item text', () => {
  for (const mode of ['one write at a time', 'writes in flight together'] as const) {
  it(`always hold exactly the items in memory (appends, changes, removals, new segments; ${mode})`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-seg-'));
    try {
      const c = await SegmentedCollection.open<Item>(dir, 50);
      const inFlight: Promise<void>[] = [];
      // Concurrent: a save is not awaited, so changes land while appends are being written.
      const saved = async (p: Promise<void>) => (mode === 'one write at a time' ? p : void inFlight.push(p));
      let seed = 42;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      const live: number[] = [];
      /** The files, settled, are JSON arrays that read back (a later copy of an ID counting) as exactly the items in memory. */
      const filesMatch = async (label: string) => {
        await Promise.all(inFlight.splice(0));
        await c.settled();
        const files = (await readdir(dir)).filter((f) => /^seg-\d+\.json$/.test(f)).sort();
        for (const f of files) assert.ok(Array.isArray(JSON.parse(await readFile(join(dir, f), 'utf8'))), f);
        const again = await SegmentedCollection.open<Item>(dir, 50);
        assert.deepEqual([...again.all()], [...c.all()], label);
        return files.length;
      };
      for (let step = 0; step < 600; step++) {
        const r = rnd();
        if (r < 0.6 || live.length === 0) {
          const item = c.append({ text: `item ${step}`, flags: [step] });
          live.push(item.id);
          await saved(c.save(item.id));
        } else if (r < (mode === 'one write at a time' ? 0.9 : 0.98)) {
          // Recent items mostly, as read flags and reactions change.
          const id = live[Math.max(0, live.length - 1 - Math.floor(rnd() * 20))]!;
          const item = c.get(id)!;
          item.flags.push(step);
          item.text = `changed at ${step}`;
          await saved(c.save(id));
        } else {
          const id = live.splice(Math.floor(rnd() * live.length), 1)[0]!;
          c.remove(id);
          await saved(c.save(id));
        }
        if (step % 3 === 0) await new Promise((r) => setImmediate(r));
        if (step % 25 === 24) await filesMatch(`after step ${step}`);
      }
      assert.ok((await filesMatch('at the end')) >= 8, 'several segments');
      const again = await SegmentedCollection.open<Item>(dir, 50);
      assert.deepEqual([...again.all()], [...c.all()]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  }

  const withDir = async (run: (dir: string) => Promise<void>) => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-seg-'));
    try {
      await run(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const file1 = (dir: string) => join(dir, `seg-${String(1).padStart(12, '0')}.json`);

  it('an append, and a change to a held item, write in place (same file); copies past the live items rewrite it whole', () =>
    withDir(async (dir) => {
      const c = await SegmentedCollection.open<Item>(dir, 100);
      const add = async (text: string) => c.save(c.append({ text, flags: [] }).id);
      await add('one');
      await add('two');
      const ino = (await stat(file1(dir))).ino;
      await add('three');
      await add('fünf €');
      assert.equal((await stat(file1(dir))).ino, ino, 'appended in place');
      assert.equal(await readFile(file1(dir), 'utf8'), JSON.stringify([...c.all()]));
      const reread = async () => [...(await SegmentedCollection.open<Item>(dir, 100)).all()];
      // Item 2 read: its new version follows the items, and reading the file takes the later copy.
      c.get(2)!.flags.push(1);
      await c.save(2);
      await add('after the change');
      assert.equal((await stat(file1(dir))).ino, ino, 'the change was appended too');
      const text = await readFile(file1(dir), 'utf8');
      assert.equal((JSON.parse(text) as Item[]).filter((x) => x.id === 2).length, 2, 'two copies of item 2');
      assert.deepEqual(await reread(), [...c.all()]);
      // Many changes: once the copies outweigh the items, the file is written whole again.
      for (let i = 0; i < 40; i++) {
        c.get(3)!.text = `changed ${i} ${'x'.repeat(2000)}`;
        await c.save(3);
      }
      assert.notEqual((await stat(file1(dir))).ino, ino, 'rewritten whole');
      assert.ok((await stat(file1(dir))).size < 3 * Buffer.byteLength(JSON.stringify([...c.all()])) + 65_536);
      assert.deepEqual(await reread(), [...c.all()]);
      // The open segment is never offered for a hard link (backups take it from memory).
      const segmentsClean = () => c.files().filter((f) => basename(f.file).startsWith('seg-')).map((f) => f.clean);
      assert.deepEqual(segmentsClean(), [false]);
      for (let i = 0; i < 100; i++) c.append({ text: `more ${i}`, flags: [] });
      await c.save(...Array.from({ length: 100 }, (_, i) => 6 + i));
      assert.deepEqual(segmentsClean(), [true, false], 'closed segments may be linked');
      assert.deepEqual(await reread(), [...c.all()]);
    }));

  it('reading a file: a later copy of an ID the file held counts; an ID falling back to one it never held is damage', () =>
    withDir(async (dir) => {
      await writeFile(file1(dir), '[{"id":1,"text":"a","flags":[]},{"id":3,"text":"b","flags":[]},{"id":1,"text":"a2","flags":[1]}]');
      const c = await SegmentedCollection.open<Item>(dir, 100);
      assert.deepEqual([...c.all()].map((x) => [x.id, x.text]), [[1, 'a2'], [3, 'b']]);
      assert.equal(c.nextId(), 4);
      await writeFile(file1(dir), '[{"id":1,"text":"a","flags":[]},{"id":3,"text":"b","flags":[]},{"id":2,"text":"new","flags":[]}]');
      await assert.rejects(SegmentedCollection.open<Item>(dir, 100), { name: 'CorruptFileError' });
    }));

  it('a segment torn just as the next one began is cut back too; an older torn segment is refused', () =>
    withDir(async (dir) => {
      const c = await SegmentedCollection.open<Item>(dir, 2);
      for (const text of ['one', 'two', 'three', 'four', 'five']) await c.save(c.append({ text, flags: [] }).id);
      await c.settled();
      const seg = (first: number) => join(dir, `seg-${String(first).padStart(12, '0')}.json`);
      const good = await readFile(seg(3), 'utf8');
      await writeFile(seg(3), `${good.slice(0, -1)},{"text":"fo`);
      assert.deepEqual([...(await SegmentedCollection.open<Item>(dir, 2)).all()].map((x) => x.id), [1, 2, 3, 4, 5]);
      await writeFile(seg(1), '[{"text":"one","flags":[],"id":1},{"text":"tw');
      await assert.rejects(SegmentedCollection.open<Item>(dir, 2), { name: 'CorruptFileError' });
    }));

  it('an append the disk refuses half-way leaves the file as it was', () =>
    withDir(async (dir) => {
      const c = await SegmentedCollection.open<Item>(dir, 100);
      await c.save(c.append({ text: 'one', flags: [] }).id);
      await c.save(c.append({ text: 'two', flags: [] }).id);
      const before = await readFile(file1(dir), 'utf8');
      // The next positional write lands half its bytes, then the disk is full.
      const probe = await open(file1(dir), 'r');
      const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => Promise<{ bytesWritten: number }> };
      await probe.close();
      const write = proto.write;
      let failed = false;
      proto.write = async function (this: unknown, ...a: unknown[]) {
        const [buf, off, len, pos] = a as [Buffer, number, number, number];
        if (failed || len < 20) return write.apply(this, a);
        failed = true;
        await write.call(this, buf, off, Math.floor(len / 2), pos);
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      };
      try {
        await assert.rejects(c.save(c.append({ text: 'three, a longer message', flags: [] }).id), { code: 'ENOSPC' });
      } finally {
        proto.write = write;
      }
      assert.ok(failed);
      assert.equal(await readFile(file1(dir), 'utf8'), before, 'not torn');
      await c.save(c.append({ text: 'four', flags: [] }).id);
      assert.deepEqual([...(await SegmentedCollection.open<Item>(dir, 100)).all()].map((x) => x.text), ['one', 'two', 'three, a longer message', 'four']);
    }));

  it('a failed append makes the next write replace the file whole', () =>
    withDir(async (dir) => {
      const c = await SegmentedCollection.open<Item>(dir, 100);
      await c.save(c.append({ text: 'one', flags: [] }).id);
      await unlink(file1(dir));
      await assert.rejects(c.save(c.append({ text: 'two', flags: [] }).id), { code: 'ENOENT' });
      await c.save(c.append({ text: 'three', flags: [] }).id);
      assert.equal(await readFile(file1(dir), 'utf8'), JSON.stringify([...c.all()]));
      assert.equal([...c.all()].length, 3);
    }));

  it('opening keeps the whole items of an open segment whose last append was cut short (the torn file kept aside)', () =>
    withDir(async (dir) => {
      const c = await SegmentedCollection.open<Item>(dir, 100);
      for (const text of ['one', 'two', 'three']) await c.save(c.append({ text, flags: [1] }).id);
      await c.settled();
      const good = await readFile(file1(dir), 'utf8');
      // A machine stop in the middle of appending items 4 and 5 (never acknowledged).
      const torn = `${good.slice(0, -1)},{"text":"four","flags":[1],"id":4},{"text":"fi`;
      await writeFile(file1(dir), torn);
      const again = await SegmentedCollection.open<Item>(dir, 100);
      assert.deepEqual([...again.all()].map((x) => x.text), ['one', 'two', 'three', 'four']);
      const tornCopies = (await readdir(dir)).filter((f) => f.includes('.torn-'));
      assert.equal(tornCopies.length, 1);
      assert.deepEqual(again.repaired, [{ file: file1(dir), kept: join(dir, tornCopies[0]!), items: 4 }], 'reported, for the log');
      assert.equal(await readFile(join(dir, tornCopies[0]!), 'utf8'), torn);
      assert.equal(await readFile(file1(dir), 'utf8'), JSON.stringify([...again.all()]), 'written whole again');
      await again.save(again.append({ text: 'five', flags: [] }).id);
      assert.equal(again.get(5)?.text, 'five');
      // Torn inside the first item: the segment held none.
      await writeFile(file1(dir), '[{"text":"on');
      assert.deepEqual([...(await SegmentedCollection.open<Item>(dir, 100)).all()], []);
      // The block holding the old `]` was never rewritten: zeros, then the rest of the append.
      await writeFile(file1(dir), JSON.stringify([{ text: 'a', flags: [], id: 1 }, { text: 'b', flags: [{ x: 1 }], id: 2 }]));
      await writeFile(file1(dir), Buffer.concat([await readFile(file1(dir)), Buffer.alloc(600), Buffer.from('xt":"c","flags":[{"y":2}],"id":3}]')]));
      assert.deepEqual([...(await SegmentedCollection.open<Item>(dir, 100)).all()].map((x) => x.text), ['a', 'b'], 'the acknowledged items stay');
      await writeFile(file1(dir), Buffer.concat([Buffer.from(JSON.stringify([{ text: 'a', flags: [], id: 1 }])), Buffer.alloc(100)]));
      assert.deepEqual([...(await SegmentedCollection.open<Item>(dir, 100)).all()].map((x) => x.text), ['a']);
      // Anything else is still refused, unchanged.
      await writeFile(file1(dir), 'not json at all');
      await assert.rejects(SegmentedCollection.open<Item>(dir, 100), { name: 'CorruptFileError' });
      assert.equal(existsSync(file1(dir)), true);
    }));
});
