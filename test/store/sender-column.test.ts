/**
 * SenderColumn: who sent each message, one small number a message; a sender's list built on
 * first use and kept current while kept; the newest message of each sender.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SenderColumn } from '../../server/store/sender-column.js';

describe('SenderColumn', () => {
  it('answers as a map of message to sender would, through seeded sends and removals, past 255 and 65,535 senders', () => {
    for (const [seed0, people] of [
      [4, 12],
      [17, 700],
      [29, 70_000],
    ] as [number, number][]) {
      let seed = seed0;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const col = new SenderColumn();
      const model = new Map<number, number>();
      const ids: number[] = [];
      let next = 0;
      const steps = people > 1_000 ? 150_000 : 20_000;
      // A few senders asked for throughout (their lists are then kept current), and others now and then.
      const watched = [1, 2, 3, people];
      for (let step = 0; step < steps; step++) {
        if (rnd(10) < 8 || model.size === 0) {
          next += 1 + rnd(3);
          // Early on, every sender in turn (so the column widens), then mostly a few.
          const who = step < people ? step + 1 : rnd(4) === 0 ? 1 + rnd(people) : watched[rnd(watched.length)]!;
          col.set(next, who);
          model.set(next, who);
          ids.push(next);
        } else {
          const at = rnd(ids.length);
          const id = ids[at]!;
          ids[at] = ids[ids.length - 1]!;
          ids.pop();
          col.remove(id, model.get(id)!);
          model.delete(id);
        }
        if (step % 4_999 === 0 || step === steps - 1) {
          for (const who of [...watched, 1 + rnd(people)]) {
            const want = [...model].filter(([, s]) => s === who).map(([id]) => id).sort((a, b) => a - b);
            assert.deepEqual(col.list(who).toArray(), want, `seed ${seed0} step ${step}: sender ${who}`);
            assert.equal(col.newestOf(who), want[want.length - 1], `seed ${seed0} step ${step}: newest of ${who}`);
          }
        }
      }
      assert.equal(col.list(people + 5).length, 0);
      assert.equal(col.newestOf(people + 5), undefined);
    }
  });

  it('keeps a list current while kept, and builds it again once others pushed it out', () => {
    const col = new SenderColumn();
    col.reserve(100);
    for (let id = 1; id <= 100; id++) col.set(id, 1 + (id % 20));
    const of7 = col.list(7);
    assert.deepEqual(of7.toArray(), [6, 26, 46, 66, 86]);
    col.set(101, 7);
    col.remove(26, 7);
    // The same list, changed with the column.
    assert.equal(col.list(7), of7);
    assert.deepEqual(of7.toArray(), [6, 46, 66, 86, 101]);
    // Asking for many others pushes it out; built again, it reads the same.
    for (let s = 1; s <= 20; s++) if (s !== 7) col.list(s);
    col.set(102, 7);
    const again = col.list(7);
    assert.notEqual(again, of7);
    assert.deepEqual(again.toArray(), [6, 46, 66, 86, 101, 102]);
    // A removal that is not the sender's (a wrong sender given) changes nothing.
    col.remove(46, 8);
    assert.deepEqual(col.list(7).toArray(), [6, 46, 66, 86, 101, 102]);
    assert.equal(col.newestOf(7), 102);
    col.remove(102, 7);
    col.remove(101, 7);
    assert.equal(col.newestOf(7), 86);
  });
});
