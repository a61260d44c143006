/**
 * Messages with the same UserMessage rows share one frozen list (server/store/row-lists.ts); a
 * change gives the message a list of its own, or the one other messages already share.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FLAG, packRow, type MessageRecord } from '../../server/store/message-records.js';
import { MessageStore } from '../../server/store/messages.js';
import { RowLists } from '../../server/store/row-lists.js';
import { RowColumn } from '../../server/store/row-column.js';

const rowsOf = (...pairs: [number, number][]) => pairs.map(([u, f]) => packRow(u, f));

describe('shared row lists', () => {
  it('equal lists are one list, held until the last holder lets go', () => {
    const lists = new RowLists();
    const a = lists.hold(rowsOf([1, FLAG.read], [2, 0]));
    const b = lists.hold(rowsOf([1, FLAG.read], [2, 0]));
    assert.equal(a, b);
    assert.equal(lists.size, 1);
    assert.ok(Object.isFrozen(a));
    assert.throws(() => (a as number[]).push(5), TypeError);
    const c = lists.hold(rowsOf([1, FLAG.read], [2, FLAG.read]));
    assert.notEqual(c, a);
    assert.equal(lists.size, 2);
    lists.release(a);
    assert.equal(lists.size, 2, 'b still holds it');
    assert.equal(lists.hold(rowsOf([1, FLAG.read], [2, 0])), a);
    lists.release(a);
    lists.release(b);
    assert.equal(lists.size, 1);
    // Once forgotten, an equal list is a new one.
    const again = rowsOf([1, FLAG.read], [2, 0]);
    assert.equal(lists.hold(again), again);
    assert.equal(lists.hold([]), lists.hold([]), 'the empty list is one list, never counted');
    assert.equal(lists.size, 2);
  });

  it('a likely list given with the rows is used when equal, and only then', () => {
    const lists = new RowLists();
    const a = lists.hold(rowsOf([1, 0], [2, 0]));
    const b = lists.hold(rowsOf([1, 0], [2, FLAG.read]));
    assert.equal(lists.hold(rowsOf([1, 0], [2, 0]), a), a);
    assert.equal(lists.hold(rowsOf([1, 0], [2, 0]), b), a, 'an unequal hint is passed over');
    lists.release(a);
    lists.release(a);
    lists.release(a);
    assert.equal(lists.size, 1);
    const fresh = rowsOf([1, 0], [2, 0]);
    assert.equal(lists.hold(fresh, a), fresh, 'a hint no longer held is not revived');
    assert.equal(lists.size, 2);
  });

  it('lists whose hashes collide stay apart', () => {
    // These two hash alike (found by search); each must still find itself, and only itself.
    const lists = new RowLists();
    const x = lists.hold([652288, 854017]);
    const y = lists.hold([1096704, 1212417]);
    assert.notEqual(x, y);
    assert.deepEqual([...y], [1096704, 1212417]);
    assert.equal(lists.hold([652288, 854017]), x);
    assert.equal(lists.hold([1096704, 1212417]), y);
    assert.equal(lists.size, 2);
    lists.release(x);
    lists.release(x);
    assert.equal(lists.size, 1);
    assert.equal(lists.hold([1096704, 1212417]), y, 'the other list of the hash is kept');
    const x2 = [652288, 854017];
    assert.equal(lists.hold(x2), x2);
    lists.release(y);
    lists.release(y);
    lists.release(y);
    assert.equal(lists.size, 1);
    lists.release([652288, 854017]); // not a held list: nothing happens
    assert.equal(lists.hold([652288, 854017]), x2);
  });

  describe('in the message store', () => {
    const dirs: string[] = [];
    after(async () => {
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    });
    const message = (um: number[]): Omit<MessageRecord, 'id'> => ({ sender_id: 1, stream_id: 1, topic: 't', content: 'hi', timestamp: 1_700_000_000, um });

    it('messages share rows until one changes, and share them again after a restart', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'hearth-rowlists-'));
      dirs.push(dir);
      let store = await MessageStore.open(dir);
      const rows = () => rowsOf([1, FLAG.read], [2, 0], [3, 0]);
      const a = store.add(message(rows()));
      const b = store.add(message(rows()));
      const c = store.add(message(rows()));
      await store.save(a.id, b.id, c.id);
      assert.equal(a.um, b.um);
      assert.equal(b.um, c.um);

      // Read, starred and collapsed are kept apart (the flags journal): the rows stay shared.
      assert.equal(store.setRowFlags(b, 2, FLAG.read), false, 'the record does not change');
      assert.equal(a.um, b.um);
      assert.equal(store.rowFlags(a, 2), 0, "another message's flags are not changed");
      assert.equal(store.rowFlags(b, 2), FLAG.read);
      assert.deepEqual([...store.unread(2).toArray()], [a.id, c.id]);
      // Another flag is in the rows: the message gets a list of its own, shared again once equal.
      assert.equal(store.setRowFlags(b, 2, FLAG.read | FLAG.mentioned), true);
      assert.notEqual(a.um, b.um);
      store.setRowFlags(c, 2, FLAG.read | FLAG.mentioned);
      assert.equal(c.um, b.um, 'equal again: shared again');
      store.setRowFlags(c, 4, FLAG.historical);
      assert.deepEqual(store.rowUserIds(c), [1, 2, 3, 4]);
      assert.deepEqual(store.rowUserIds(b), [1, 2, 3]);
      store.removeRow(b, 3);
      assert.deepEqual(store.rowUserIds(b), [1, 2]);
      assert.deepEqual(store.rowUserIds(a), [1, 2, 3]);
      await store.save(a.id, b.id, c.id);

      store = await MessageStore.open(dir);
      const [a2, b2, c2] = [store.get(a.id)!, store.get(b.id)!, store.get(c.id)!];
      assert.deepEqual([a2.um, b2.um, c2.um].map((um) => [...um]), [[...a.um], [...b.um], [...c.um]]);
      const d = store.add(message(rows()));
      assert.equal(d.um, a2.um, 'a new message with the rows of a stored one shares them');
      store.remove(a2.id);
      store.setRowFlags(d, 3, FLAG.starred);
      assert.equal(store.rowFlags(d, 3), FLAG.starred);
      assert.deepEqual(store.starred(3).toArray(), [d.id]);
    });

    it("setRows changes many users' rows of one message in one list, as one change per user would", async () => {
      const dir = await mkdtemp(join(tmpdir(), 'hearth-rowlists-'));
      dirs.push(dir);
      const store = await MessageStore.open(dir);
      let seed = 7;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const flagsOf = [0, FLAG.read, FLAG.starred, FLAG.read | FLAG.starred, FLAG.read | FLAG.historical, FLAG.mentioned];
      for (let round = 0; round < 40; round++) {
        const base = Array.from({ length: 30 }, (_, k) => k + 1)
          .filter(() => rnd(3) > 0)
          .map((u) => packRow(u, flagsOf[rnd(flagsOf.length)]!));
        const one = store.add(message([...base]));
        const each = store.add(message([...base]));
        const witness = store.add(message([...base]));
        assert.equal(one.um, witness.um);
        const changes = new Map<number, number | null>();
        for (let k = 0; k < 12; k++) changes.set(1 + rnd(34), rnd(4) === 0 ? null : flagsOf[rnd(flagsOf.length)]!);
        store.setRows(one, changes);
        for (const [u, f] of changes) {
          if (f === null) store.removeRow(each, u);
          else store.setRowFlags(each, u, f);
        }
        // The model: the base rows by user, with the changes applied one by one.
        const model = new Map(base.map((r) => [Math.floor(r / 1024), r % 1024]));
        for (const [u, f] of changes) {
          if (f === null) model.delete(u);
          else model.set(u, f);
        }
        const expected = [...model].sort((a, b) => a[0] - b[0]).map(([u, f]) => packRow(u, f));
        assert.deepEqual([...one.um], expected, `round ${round}`);
        assert.deepEqual([...each.um], expected, `round ${round}`);
        assert.deepEqual([...witness.um], base, 'the message that shared the list is untouched');
        for (let u = 1; u <= 34; u++) {
          const f = model.get(u);
          const want = [f !== undefined && !(f & FLAG.read), f !== undefined && (f & FLAG.starred) !== 0, f !== undefined];
          for (const m of [one, each]) {
            const got = [store.unread(u), store.starred(u), store.userMessages(u)].map((list) => list.has(m.id));
            assert.deepEqual(got, want, `round ${round}, user ${u}: unread, starred, has the message`);
          }
        }
      }
      // Nothing to change: the message keeps its list; what is not a user ID is refused before any change.
      const m = store.add(message(rowsOf([1, FLAG.read], [2, 0])));
      const before = m.um;
      store.setRows(m, new Map([[2, 0], [3, null], [Number.NaN, null]]));
      assert.equal(m.um, before);
      assert.throws(() => store.setRows(m, new Map([[2, FLAG.read], [0, FLAG.read]])), RangeError);
      assert.equal(store.rowFlags(m, 2), 0);
      assert.ok(store.unread(2).has(m.id));
    });
  });

  it('the row column keeps every list number, also past 65,535 distinct lists (2 bytes a message, then 4)', () => {
    const lists = new RowLists();
    const column = new RowColumn(lists);
    const held: (readonly number[])[] = [];
    for (let i = 0; i < 70_000; i++) {
      const rows = lists.hold(rowsOf([1 + (i % 50_000), i < 50_000 ? 0 : FLAG.read]));
      held.push(rows);
      column.set(i + 1, rows);
    }
    for (let i = 0; i < 70_000; i += 997) assert.equal(column.rowsOf(i + 1), held[i], `message ${i + 1}`);
    assert.equal(column.rowsOf(69_999 + 1), held[69_999]);
    assert.deepEqual(column.rowsOf(80_000), []);
  });
});
