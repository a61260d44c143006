/**
 * Index sidecars (issue 34, item 1): opening reads each older segment's `.idx` instead of its
 * JSON, and the indexes it builds are exactly those built from the records. A sidecar that does
 * not match its segment (the segment changed after it, it is torn, it is garbage) is ignored and
 * written again; an open that must change nothing writes none; a crash's sidecar temp files go.
 * Seeded random changes (channel and direct messages, moves, removals, rows, flags, widgets) reopen
 * with sidecars equal to a reopen without any.
 */
import assert from 'node:assert/strict';
import { cp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MessageStore } from '../../server/store/messages.js';
import { FLAG, packRow, type MessageRecord } from '../../server/store/message-records.js';
import { readSidecar } from '../../server/store/segment-sidecar.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('hearth-sidecar-');

const USERS = [1, 2, 3, 4, 5, 6];
const CHANNELS = [1, 2, 3, 4, 5, 9];

function message(i: number): Omit<MessageRecord, 'id'> {
  if (i % 7 === 3) {
    const dm = i % 2 ? [1, 3] : [2, 4, 5];
    return { sender_id: dm[0]!, stream_id: null, topic: '', dm, content: `dm ${i}`, timestamp: 1_700_000_000 + i, um: dm.map((u, k) => packRow(u, k === 0 ? FLAG.read : 0)) };
  }
  return {
    sender_id: 1 + (i % 3),
    stream_id: 1 + (i % 4),
    topic: i % 5 === 0 ? `Topic ${i % 11}` : `topic ${i % 11}`,
    content: `message number ${i}`,
    timestamp: 1_700_000_000 + i,
    um: [packRow(1, FLAG.read), packRow(2, i % 3 ? 0 : FLAG.starred), packRow(3, 0)],
  };
}

async function filled(dir: string, n: number): Promise<void> {
  const store = await MessageStore.open(dir);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(store.add(message(i)).id);
  await store.save(...ids);
  // A flags snapshot covering them: opening then indexes them a segment at a time (./sidecar-index.ts).
  await store.compactFlags();
  await store.settled();
}

/** Everything the indexes answer, as one comparable value (records are not read for it). */
function indexView(store: MessageStore): string {
  const out: string[] = [`max ${store.maxId} size ${store.size} sub ${(store as unknown as { lastSubmessageId: number }).lastSubmessageId}`];
  out.push(`all ${store.allIds.toArray().join(',')}`);
  for (const c of CHANNELS) {
    out.push(`channel ${c}: ${store.channel(c).toArray().join(',')} topics ${[...store.topicsOf(c)].map((t) => t.maxId).sort((x, y) => x - y).join(',')}`);
    for (let t = 0; t < 11; t++) out.push(`topic ${c}/${t}: ${store.topic(c, `topic ${t}`).toArray().join(',')}`);
    out.push(`moved ${c}: ${store.topic(c, 'moved').toArray().join(',')}`);
  }
  for (const u of USERS) {
    out.push(`user ${u}: sent ${store.sender(u).toArray().join(',')} has ${store.userMessages(u).toArray().join(',')} dm ${store.directOf(u).toArray().join(',')}`);
    out.push(`  unread ${store.unread(u).toArray().join(',')} starred ${store.starred(u).toArray().join(',')}`);
    out.push(`  conversations ${[...store.conversationsOf(u)].map((c) => `${c.userIds.join('+')}:${c.ids.length}`).sort().join(' ')}`);
  }
  for (const id of store.unread(3)) {
    const r = store.unreadRecord(id)!;
    out.push(`unread place ${id}: ${r.stream_id} ${r.topic} ${r.dm?.join('+') ?? '-'} ${r.um.length}`);
  }
  return out.join('\n');
}

const idxFiles = async (dir: string) => (await readdir(dir)).filter((n) => n.endsWith('.idx')).sort();

describe('index sidecars', () => {
  it('opening reads the sidecars of older segments and builds the same indexes as from the records', async () => {
    const dir = await tempDir();
    await filled(dir, 6500);
    // Segments 1..6 are closed: each has its sidecar (the sixth got it once the seventh began).
    assert.deepEqual(await idxFiles(dir), [1, 1001, 2001, 3001, 4001, 5001].map((f) => `seg-${String(f).padStart(12, '0')}.idx`));
    const store = await MessageStore.open(dir);
    // The last two segments are always read whole (one may end torn); the other five from sidecars.
    assert.equal(store.items.stats.sidecars, 5);
    const copy = await tempDir();
    await cp(dir, copy, { recursive: true });
    for (const n of await idxFiles(copy)) await rm(join(copy, n));
    const fromRecords = await MessageStore.open(copy, { writable: false });
    assert.equal(fromRecords.items.stats.sidecars, 0);
    assert.equal(indexView(store), indexView(fromRecords));
    // Records read on demand are still whole.
    assert.equal(store.get(17)?.content, 'message number 16');
  });

  it('a sidecar older than its segment, torn or garbage is ignored and written again', async () => {
    const dir = await tempDir();
    await filled(dir, 4000);
    const first = join(dir, 'seg-000000000001.idx');
    const stale = await readFile(first);
    let store = await MessageStore.open(dir);
    const m = store.get(5)!;
    store.relocate(m, { stream_id: 9, topic: 'moved' });
    await store.save(5);
    await store.settled();
    assert.notDeepEqual(await readFile(first), stale, 'the rewritten segment got its sidecar again');
    await writeFile(first, stale);
    store = await MessageStore.open(dir);
    assert.equal(store.items.stats.sidecars, 1, 'the stale one was not used');
    assert.deepEqual(store.channel(9).toArray(), [5]);
    assert.ok(!store.channel(1).has(5));
    assert.ok(readSidecar(join(dir, 'seg-000000000001.json')), 'and it was written again');
    // Torn, then one byte changed: each ignored, then written again.
    const second = join(dir, 'seg-000000001001.idx');
    await truncate(second, (await readFile(second)).length - 3);
    store = await MessageStore.open(dir);
    assert.equal(store.items.stats.sidecars, 1);
    assert.ok(readSidecar(join(dir, 'seg-000000001001.json')));
    const bytes = await readFile(second);
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
    await writeFile(second, bytes);
    const view = indexView(await MessageStore.open(dir));
    assert.ok(readSidecar(join(dir, 'seg-000000001001.json')));
    await writeFile(second, 'not a sidecar');
    store = await MessageStore.open(dir);
    assert.equal(indexView(store), view);
    assert.equal(store.items.stats.sidecars, 1);
  });

  it('an open that must change nothing writes no sidecar; temp files a crash left go', async () => {
    const dir = await tempDir();
    await filled(dir, 3500);
    for (const n of await idxFiles(dir)) await rm(join(dir, n));
    await writeFile(join(dir, 'seg-000000000001.idx.123.abc.tmp'), 'half');
    await MessageStore.open(dir, { writable: false });
    assert.deepEqual(await idxFiles(dir), []);
    assert.ok((await readdir(dir)).includes('seg-000000000001.idx.123.abc.tmp'));
    await MessageStore.open(dir);
    assert.deepEqual(await idxFiles(dir), ['seg-000000000001.idx', 'seg-000000001001.idx', 'seg-000000002001.idx']);
    assert.ok(!(await readdir(dir)).some((n) => n.endsWith('.tmp')));
  });

  it('seeded random changes reopen with sidecars equal to a reopen from the records', async () => {
    for (const seed0 of [5, 17, 29]) {
      let seed = seed0;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const dir = await tempDir();
      await filled(dir, 3200);
      let store = await MessageStore.open(dir, { cacheBytes: 0 });
      for (let batch = 0; batch < 10; batch++) {
        const touched: number[] = [];
        for (let k = 0; k < 30; k++) {
          const ids = store.allIds.toArray();
          const m = store.get(ids[rnd(ids.length)]!)!;
          const u = USERS[rnd(USERS.length)]!;
          const op = rnd(8);
          if (op === 0 && m.stream_id !== null) {
            store.relocate(m, { stream_id: CHANNELS[rnd(CHANNELS.length)]!, topic: rnd(2) ? 'moved' : `topic ${rnd(11)}` });
            touched.push(m.id);
          } else if (op === 1) {
            if (store.remove(m.id)) touched.push(m.id);
          } else if (op === 2) {
            // A row added or removed (the record changes).
            if (store.setRows(m, new Map([[u, store.rowFlags(m, u) === null ? FLAG.historical : null]]))) touched.push(m.id);
          } else if (op === 3) {
            const f = store.rowFlags(m, u);
            if (f !== null) store.setRowFlags(m, u, f ^ (rnd(2) ? FLAG.read : FLAG.starred));
          } else if (op === 4) {
            const added = store.add({ ...message(rnd(1000)), submessages: [{ id: store.nextSubmessageId(), sender_id: 1, msg_type: 'widget', content: '{}' }] });
            touched.push(added.id);
          } else {
            touched.push(store.add(message(rnd(1000))).id);
          }
        }
        await store.save(...touched);
        // Half the batches end with a flags snapshot: their messages are below it at the next start, or above.
        if (batch % 2 === 0) await store.compactFlags();
        await store.settled();
        const live = indexView(store);
        store = await MessageStore.open(dir, { cacheBytes: 0 });
        assert.ok(store.items.stats.sidecars > 0);
        const copy = await tempDir();
        await cp(dir, copy, { recursive: true });
        for (const n of await idxFiles(copy)) await rm(join(copy, n));
        const fromRecords = await MessageStore.open(copy, { writable: false });
        assert.equal(indexView(store), indexView(fromRecords), `seed ${seed0}, batch ${batch}: sidecars vs records`);
        assert.equal(indexView(store), live, `seed ${seed0}, batch ${batch}: reopened vs before`);
      }
    }
  });
});
