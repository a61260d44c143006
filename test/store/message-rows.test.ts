/**
 * A message's UserMessage rows are one number each (user ID * 1024 + flags). Segments written
 * before held them as pairs `[userId, flags, ...]`; they are read as such at load, and written
 * back as one number a row.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FLAG, packRow, packedRows, ROW_SPAN, type MessageRecord } from '../../server/store/message-records.js';
import { MessageStore } from '../../server/store/messages.js';

const message = (um: number[], extra: Partial<MessageRecord> = {}): Omit<MessageRecord, 'id'> => ({
  sender_id: 1,
  stream_id: 1,
  topic: 'lunch',
  content: 'hi',
  timestamp: 1_700_000_000,
  um,
  ...extra,
});

async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => /^seg-\d+\.json$/.test(f)).map((f) => join(dir, f));
}

describe('message rows', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('every flag fits below ROW_SPAN, and packRow refuses what does not', () => {
    const all = Object.values(FLAG).reduce((a, b) => a | b, 0);
    assert.ok(all < ROW_SPAN, `all flags together: ${all}`);
    assert.equal(packRow(3, FLAG.read | FLAG.starred), 3 * ROW_SPAN + 3);
    assert.throws(() => packRow(3, ROW_SPAN), RangeError);
    assert.throws(() => packRow(3, -1), RangeError);
    assert.throws(() => packRow(3, 1.5), RangeError);
    // User IDs start at 1, which is what tells a row (>= ROW_SPAN) from a pair's flags.
    for (const id of [0, -1, 1.5, Number.NaN, 2 ** 60]) assert.throws(() => packRow(id, 0), RangeError, String(id));
  });

  it('rows of large user IDs, and lookups of what is not a user ID', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-rows-'));
    dirs.push(dir);
    const store = await MessageStore.open(dir);
    const big = 2 ** 40 + 3;
    const m = store.add(message([packRow(1, FLAG.read), packRow(2, 0)]));
    store.setRowFlags(m, big, FLAG.starred);
    store.setRowFlags(m, 2 ** 20, 0);
    assert.deepEqual(store.rowUserIds(m), [1, 2, 2 ** 20, big]);
    assert.equal(store.rowFlags(m, big), FLAG.starred);
    for (const id of [Number.NaN, 1.5, 0, -1]) assert.equal(store.rowFlags(m, id), null, String(id));
    assert.throws(() => store.setRowFlags(m, 1.5, 0), RangeError);
    assert.deepEqual(store.rowUserIds(m), [1, 2, 2 ** 20, big], 'unchanged');
  });

  it('packedRows reads pairs as one number a row and leaves packed rows alone', () => {
    assert.deepEqual(packedRows([2, 0, 5, FLAG.read, 900, FLAG.starred]), [packRow(2, 0), packRow(5, FLAG.read), packRow(900, FLAG.starred)]);
    const packed = [packRow(1, 0), packRow(7, FLAG.read)];
    assert.equal(packedRows(packed), packed);
    assert.deepEqual(packedRows([]), []);
    // One row, no flags: as pairs [1, 0]; packed [1024].
    assert.deepEqual(packedRows([1, 0]), [ROW_SPAN]);
    assert.deepEqual(packedRows([ROW_SPAN]), [ROW_SPAN]);
  });

  it('a row that cannot be read stops the open with the message named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-rows-'));
    dirs.push(dir);
    const first = await MessageStore.open(dir);
    const a = first.add(message([packRow(1, 0)]));
    await first.save(a.id);
    await first.settled();
    const [file] = await segmentFiles(dir);
    const items = JSON.parse(await readFile(file!, 'utf8')) as MessageRecord[];
    items[0]!.um = [0, 5];
    await writeFile(file!, JSON.stringify(items));
    await assert.rejects(MessageStore.open(dir), new RegExp(`message ${a.id} in .*rows cannot be read`));
  });

  it('a store written with pairs opens with the same rows and indexes, and is written back one number a row', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-rows-'));
    dirs.push(dir);
    const first = await MessageStore.open(dir);
    const a = first.add(message([packRow(1, FLAG.read), packRow(2, 0), packRow(3, FLAG.starred | FLAG.read)]));
    const b = first.add(message([packRow(2, FLAG.read), packRow(3, 0)]));
    const others = Array.from({ length: 8 }, () => first.add(message([packRow(5, FLAG.read)])).id);
    await first.save(a.id, b.id, ...others);
    await first.settled();
    // Rewrite the segment as a Hearth before schema 4 wrote it: [userId, flags, ...].
    const [file] = await segmentFiles(dir);
    const items = JSON.parse(await readFile(file!, 'utf8')) as MessageRecord[];
    for (const m of items) m.um = m.um.flatMap((r) => [Math.floor(r / ROW_SPAN), r % ROW_SPAN]);
    await writeFile(file!, JSON.stringify(items));

    const old = await MessageStore.open(dir);
    const ma = old.get(a.id)!;
    const mb = old.get(b.id)!;
    assert.deepEqual(old.rowUserIds(ma), [1, 2, 3]);
    assert.equal(old.rowFlags(ma, 1), FLAG.read);
    assert.equal(old.rowFlags(ma, 2), 0);
    assert.equal(old.rowFlags(ma, 3), FLAG.starred | FLAG.read);
    assert.equal(old.rowFlags(ma, 4), null);
    assert.deepEqual(old.unread(2).toArray(), [a.id]);
    assert.deepEqual(old.unread(3).toArray(), [b.id]);
    assert.deepEqual(old.starred(3).toArray(), [a.id]);
    assert.deepEqual(old.userMessages(1).toArray(), [a.id]);

    // Changes: a flag, a new row (in order), a removed row; then the segment is saved and reopened.
    old.setRowFlags(mb, 3, FLAG.read);
    old.setRowFlags(mb, 1, FLAG.historical | FLAG.read);
    old.removeRow(ma, 2);
    await old.save(a.id, b.id);
    await old.settled();
    const written = JSON.parse(await readFile(file!, 'utf8')) as MessageRecord[];
    const byId = new Map(written.map((m) => [m.id, m.um]));
    assert.deepEqual(byId.get(a.id), [packRow(1, FLAG.read), packRow(3, FLAG.starred | FLAG.read)]);
    // User 3's read is a line in the flags journal: the row keeps its stored copy (unread), and reopening reads the journal.
    assert.deepEqual(byId.get(b.id), [packRow(1, FLAG.historical | FLAG.read), packRow(2, FLAG.read), packRow(3, 0)]);
    const again = await MessageStore.open(dir);
    assert.equal(again.rowFlags(again.get(b.id)!, 3), FLAG.read);
    assert.deepEqual(again.unread(3).toArray(), []);
    await again.settled();

    // The first write after a load writes the segment whole, from memory: no pairs are left in it.
    assert.ok(written.every((x) => x.um.length === 0 || x.um[x.um.length - 1]! >= ROW_SPAN), JSON.stringify(written.map((x) => x.um)));
    assert.equal(written.length, 10, 'written whole: one copy each');

    const reopened = await MessageStore.open(dir);
    assert.deepEqual(reopened.rowUserIds(reopened.get(b.id)!), [1, 2, 3]);
    assert.deepEqual(reopened.unread(3).toArray(), []);
    assert.deepEqual(reopened.unread(2).toArray(), []);
    assert.deepEqual(reopened.userMessages(1).toArray(), [a.id, b.id]);
    assert.deepEqual(reopened.userMessages(2).toArray(), [b.id]);
  });
});
