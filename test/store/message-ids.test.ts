/**
 * IdList, the sorted ID lists behind the message indexes: they grow by half again and give room
 * back once mostly emptied (an unread list once read), keeping their entries in order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdList } from '../../server/store/message-ids.js';

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
