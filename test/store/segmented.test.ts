/**
 * The message segments keep the open segment's items as JSON text between writes (appending
 * serialises only the new item). The files must still hold exactly the items in memory: a
 * seeded run of appends, in-place changes saved by id, and removals, across segment
 * boundaries, compared with JSON.stringify of the items and with a reopen.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
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
        const files = (await readdir(dir)).filter((f) => f.startsWith('seg-')).sort();
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
      assert.equal(await readFile(`${file1(dir)}.torn`, 'utf8'), torn);
      assert.equal(await readFile(file1(dir), 'utf8'), JSON.stringify([...again.all()]), 'written whole again');
      await again.save(again.append({ text: 'five', flags: [] }).id);
      assert.equal(again.get(5)?.text, 'five');
      // Torn inside the first item: the segment held none.
      await writeFile(file1(dir), '[{"text":"on');
      assert.deepEqual([...(await SegmentedCollection.open<Item>(dir, 100)).all()], []);
      // Anything else is still refused, unchanged.
      await writeFile(file1(dir), 'not json at all');
      await assert.rejects(SegmentedCollection.open<Item>(dir, 100), { name: 'CorruptFileError' });
      assert.equal(existsSync(file1(dir)), true);
    }));
});
