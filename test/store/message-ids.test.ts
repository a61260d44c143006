/**
 * IdList, the sorted ID lists behind the message indexes: they grow by half again and give room
 * back once mostly emptied (an unread list once read), keeping their entries in order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdList } from '../../server/store/message-ids.js';
import { IdBitmap } from '../../server/store/id-bitmap.js';

describe('IdList', () => {
  it('grows from no room at all, keeps order and refuses duplicates', () => {
    const l = new IdList(0);
    for (const id of [5, 1, 9, 3, 9, 7, 1]) l.insert(id);
    assert.deepEqual(l.toArray(), [1, 3, 5, 7, 9]);
    assert.equal(l.first, 1);
    assert.equal(l.last, 9);
    assert.ok(l.has(7) && !l.has(8));
    assert.deepEqual([...l.descending()], [9, 7, 5, 3, 1]);
  });

  it('keeps every entry through growing and shrinking', () => {
    const l = new IdList(2);
    const want = new Set<number>();
    for (let id = 1; id <= 10_000; id++) {
      l.insert(id);
      want.add(id);
    }
    // Remove all but every 97th (the list shrinks several times on the way), checking as it goes.
    for (let id = 1; id <= 10_000; id++) {
      if (id % 97 === 0) continue;
      assert.equal(l.remove(id), true);
      want.delete(id);
      if (id % 1000 === 0) assert.deepEqual(l.toArray(), [...want]);
    }
    assert.deepEqual(l.toArray(), [...want]);
    assert.equal(l.remove(1), false);
    // And it grows again from the smaller room.
    for (let id = 10_001; id <= 12_000; id++) l.insert(id);
    l.insert(50);
    assert.equal(l.length, want.size + 2_001);
    assert.equal(l.lowerBound(50), 0);
    assert.equal(l.at(l.length - 1), 12_000);
    assert.deepEqual(l.toArray().slice(0, 3), [50, 97, 194]);
  });
});

describe('IdBitmap (every message ID, one bit each)', () => {
  it('answers as a sorted list would, through seeded inserts and removals across many blocks', () => {
    for (const seed0 of [1, 8, 23]) {
      let seed = seed0;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const bits = new IdBitmap();
      const model = new IdList();
      let next = 1;
      for (let step = 0; step < 4_000; step++) {
        const op = rnd(10);
        if (op < 6) {
          // Mostly appends, sometimes a jump over empty blocks.
          next += op === 0 ? 1 + rnd(5_000) : 1;
          bits.insert(next);
          model.insert(next);
        } else if (op < 9 && model.length) {
          const id = model.at(rnd(model.length));
          assert.equal(bits.remove(id), model.remove(id));
        } else {
          const id = 1 + rnd(next + 10);
          bits.insert(id);
          model.insert(id);
        }
        if (step % 97 === 0 || step === 3_999) {
          assert.equal(bits.length, model.length, `seed ${seed0} step ${step}`);
          assert.deepEqual(bits.toArray(), model.toArray());
          assert.deepEqual([...bits.descending()], [...model.descending()]);
          assert.equal(bits.first, model.first);
          assert.equal(bits.last, model.last);
          for (let k = 0; k < 50; k++) {
            const i = rnd(model.length + 1);
            if (i < model.length) assert.equal(bits.at(i), model.at(i), `at(${i})`);
            const id = rnd(next + 2000);
            assert.equal(bits.lowerBound(id), model.lowerBound(id), `lowerBound(${id})`);
            assert.equal(bits.has(id), model.has(id), `has(${id})`);
          }
        }
      }
    }
  });

  it('refuses what is not an ID; absent values are absent', () => {
    const bits = new IdBitmap();
    assert.throws(() => bits.insert(-1), RangeError);
    assert.throws(() => bits.insert(1.5), RangeError);
    assert.equal(bits.has(Number.NaN), false);
    assert.equal(bits.remove(3), false);
    assert.equal(bits.lowerBound(10), 0);
    assert.equal(bits.first, undefined);
    bits.insert(31);
    bits.insert(32);
    bits.insert(2_000_000);
    assert.deepEqual(bits.toArray(), [31, 32, 2_000_000]);
    assert.equal(bits.lowerBound(33), 2);
    assert.equal(bits.at(2), 2_000_000);
  });
});

describe('IdList packing (2.25 bytes an entry once many have come)', () => {
  it('answers as a plain sorted array would, through seeded appends, inserts and removals, dense and sparse', () => {
    for (const seed0 of [2, 13, 31, 47]) {
      let seed = seed0;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const list = new IdList(seed0 % 2 ? 0 : 5_000);
      let model: number[] = [];
      let next = 1;
      // Seeds 31 and 47 make gaps past 4,096 IDs now and then (blocks of 16 spanning more than 65,535 stay unpacked).
      const gap = () => (seed0 > 30 && rnd(50) === 0 ? 5_000 + rnd(100_000) : 1 + rnd(seed0 % 2 ? 3 : 40));
      for (let step = 0; step < 12_000; step++) {
        const op = rnd(100);
        if (op < 80) {
          next += gap();
          list.insert(next);
          model.push(next);
        } else if (op < 88 && model.length) {
          const id = 1 + rnd(next);
          list.insert(id);
          if (!model.includes(id)) model = [...model, id].sort((a, b) => a - b);
        } else if (model.length) {
          const id = rnd(3) === 0 ? 1 + rnd(next) : model[rnd(model.length)]!;
          assert.equal(list.remove(id), model.includes(id), `remove ${id}`);
          model = model.filter((x) => x !== id);
        }
        if (step % 251 === 0 || step === 11_999) {
          assert.equal(list.length, model.length, `seed ${seed0} step ${step}`);
          assert.deepEqual(list.toArray(), model);
          assert.deepEqual([...list], model);
          assert.deepEqual([...list.descending()], [...model].reverse());
          assert.equal(list.first, model[0]);
          assert.equal(list.last, model[model.length - 1]);
          for (let k = 0; k < 40; k++) {
            const id = rnd(next + 10);
            let lb = 0;
            while (lb < model.length && model[lb]! < id) lb++;
            assert.equal(list.lowerBound(id), lb, `lowerBound(${id})`);
            assert.equal(list.has(id), model.includes(id));
            const i = rnd(model.length + 1);
            if (i < model.length) assert.equal(list.at(i), model[i]);
          }
        }
      }
    }
  });
});

describe('IdList chunks (packed entries in chunks that are never copied)', () => {
  it('reads back every entry of long lists through the graded and the whole chunks, dense and with wide gaps', () => {
    for (const [seed0, maxGap] of [
      [3, 2],
      [5, 40],
      [9, 4_000],
    ] as [number, number][]) {
      let seed = seed0;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const list = new IdList();
      const model: number[] = [];
      let next = 0;
      // 40,000 entries: past the graded chunks (11,504 entries) into several whole ones.
      for (let i = 0; i < 40_000; i++) {
        next += 1 + rnd(maxGap);
        list.insert(next);
        model.push(next);
      }
      assert.equal(list.length, model.length);
      for (let i = 0; i < model.length; i += 1 + rnd(7)) assert.equal(list.at(i), model[i], `seed ${seed0}: at(${i})`);
      assert.deepEqual(list.toArray(), model);
      for (let k = 0; k < 2_000; k++) {
        const id = rnd(next + 2);
        let lo = 0;
        let hi = model.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (model[mid]! < id) lo = mid + 1;
          else hi = mid;
        }
        assert.equal(list.lowerBound(id), lo, `seed ${seed0}: lowerBound(${id})`);
      }
      // Packed at 2.25 bytes an entry, with unused room of at most one whole chunk (9 KB) and the tail.
      assert.ok(list.bytes < model.length * 2.25 + 9_216 + 1_024, `seed ${seed0}: ${list.bytes} bytes for ${model.length} entries`);
      // A change among the packed entries unpacks, and the list packs again as entries come.
      const mid = model[20_000]!;
      assert.equal(list.remove(mid), true);
      model.splice(20_000, 1);
      for (let i = 0; i < 5_000; i++) {
        next += 1 + rnd(maxGap);
        list.insert(next);
        model.push(next);
      }
      assert.deepEqual(list.toArray(), model);
      assert.ok(list.bytes < model.length * 2.25 + 9_216 + 1_024, `seed ${seed0}: packed again, ${list.bytes} bytes`);
    }
  });
});
