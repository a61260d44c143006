/**
 * The message segments keep the open segment's items as JSON text between writes (appending
 * serialises only the new item). The files must still hold exactly the items in memory: a
 * seeded run of appends, in-place changes saved by id, and removals, across segment
 * boundaries, compared with JSON.stringify of the items and with a reopen.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SegmentedCollection } from '../../server/store/segmented.js';

interface Item {
  id: number;
  text: string;
  flags: number[];
}

describe('segment files with kept item text', () => {
  it('always hold exactly the items in memory (appends, changes, removals, new segments)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-seg-'));
    try {
      const c = await SegmentedCollection.open<Item>(dir, 50);
      let seed = 42;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      const live: number[] = [];
      for (let step = 0; step < 600; step++) {
        const r = rnd();
        if (r < 0.6 || live.length === 0) {
          const item = c.append({ text: `item ${step}`, flags: [step] });
          live.push(item.id);
          await c.save(item.id);
        } else if (r < 0.9) {
          // Recent items mostly, as read flags and reactions change.
          const id = live[Math.max(0, live.length - 1 - Math.floor(rnd() * 20))]!;
          const item = c.get(id)!;
          item.flags.push(step);
          item.text = `changed at ${step}`;
          await c.save(id);
        } else {
          const id = live.splice(Math.floor(rnd() * live.length), 1)[0]!;
          c.remove(id);
          await c.save(id);
        }
      }
      await c.settled();
      const files = (await readdir(dir)).filter((f) => f.startsWith('seg-')).sort();
      assert.ok(files.length >= 8, `${files.length} segments`);
      const onDisk: Item[] = [];
      for (const f of files) {
        const text = await readFile(join(dir, f), 'utf8');
        const items = JSON.parse(text) as Item[];
        assert.equal(text, JSON.stringify(items), f);
        onDisk.push(...items);
      }
      assert.deepEqual(onDisk, [...c.all()]);
      const again = await SegmentedCollection.open<Item>(dir, 50);
      assert.deepEqual([...again.all()], [...c.all()]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
