/**
 * Older message segments are read on demand and kept within a memory budget (issue 34, item 1):
 * the cache holds at most its budget beyond the open segment and those being written; a message
 * a caller still holds is the same object when its segment comes back (a change made before its
 * save is never lost to a fresh copy); seeded random changes over a store whose cache holds one
 * segment reopen equal to a store that keeps everything.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageStore } from '../../server/store/messages.js';
import { FLAG, packRow, type MessageRecord } from '../../server/store/message-records.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const tempDir = tempDirs('hearth-cache-');

const message = (i: number): Omit<MessageRecord, 'id'> => ({
  sender_id: 1,
  stream_id: 1 + (i % 4),
  topic: `topic ${i % 9}`,
  content: `message number ${i} with some words in it`,
  timestamp: 1_700_000_000 + i,
  um: [packRow(1, FLAG.read), packRow(2, 0), packRow(3, 0)],
});

async function filled(dir: string, n: number): Promise<void> {
  const store = await MessageStore.open(dir, { cacheBytes: Number.POSITIVE_INFINITY });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(store.add(message(i)).id);
  await store.save(...ids);
  await store.settled();
}

/** Everything a reader sees of the store, as one comparable value. */
function contentsOf(store: MessageStore): string {
  const out: string[] = [];
  for (const m of store.all()) out.push(`${m.id} ${m.stream_id} ${m.topic} ${m.content} ${m.reactions?.length ?? 0} ${[1, 2, 3, 4].map((u) => store.rowFlags(m, u)).join(',')}`);
  for (const s of [1, 2, 3, 4, 5]) out.push(`channel ${s}: ${store.channel(s).length}`);
  return out.join('\n');
}

describe('the message segment cache', () => {
  it('keeps older segments within its budget and reads them again on demand', async () => {
    const dir = await tempDir();
    await filled(dir, 12_000);
    const store = await MessageStore.open(dir, { cacheBytes: 200_000 });
    assert.equal(store.size, 12_000);
    const use = store.items.cacheUse;
    // One older segment's file is about 100 KB: at most two of them beside the open one (opening read the
    // older segments' sidecars, test/store/segment-sidecar.test.ts; the search index's build reads them).
    assert.ok(use.segments <= 3 && use.bytes <= 200_000 + 120_000, JSON.stringify(use));
    // Read whole (as a reader of many does), older segments come into memory and others leave.
    for (let id = 1; id <= 12_000; id += 1000) store.items.get(id, true);
    const evictions = store.items.stats.evictions;
    assert.ok(evictions >= 8, `older segments left memory as others were read: ${evictions}`);
    assert.ok(store.items.cacheUse.segments <= 3, JSON.stringify(store.items.cacheUse));
    assert.equal(store.items.get(5, true)?.content, 'message number 4 with some words in it', 'an old message, read again');
    const after5 = store.items.stats.evictions;
    store.get(6);
    assert.equal(store.items.stats.evictions, after5, 'its segment stays for the next read');
    for (let id = 1; id <= 12_000; id += 1000) store.items.get(id, true);
    assert.ok(store.items.cacheUse.bytes <= 200_000 + 120_000, JSON.stringify(store.items.cacheUse));
    // Right after a start, one message of a segment out of memory is read alone: no segment comes into memory for it.
    const fresh = await MessageStore.open(dir, { cacheBytes: 200_000 });
    const use2 = JSON.stringify(fresh.items.cacheUse);
    assert.equal(fresh.get(2_500)?.content, 'message number 2499 with some words in it');
    assert.equal(fresh.peek(2_501)?.content, 'message number 2500 with some words in it');
    assert.equal(fresh.items.points.reads, 2);
    assert.equal(JSON.stringify(fresh.items.cacheUse), use2);
    assert.equal(fresh.get(2_500), fresh.get(2_500), 'kept: the same object');
    // Looked at again: from the few thousand kept for looking (not read again); then kept by a get.
    const looked = fresh.peek(2_501);
    assert.equal(fresh.items.points.reads, 2);
    assert.equal(fresh.get(2_501), looked);
    // A scan looks at every message: past 32 of a segment the rest are read with it whole, not one by one.
    const before = fresh.items.points.reads;
    for (let id = 1; id <= 9_000; id++) assert.equal(fresh.peek(id)?.content, `message number ${id - 1} with some words in it`);
    assert.ok(fresh.items.points.reads - before <= 9 * 32, `read alone: ${fresh.items.points.reads - before}`);
    // Changed while read alone, then its segment read whole (a save): the change is in it.
    fresh.get(2_500)!.content = 'changed alone';
    // Reading everything (an export) brings no segment into memory, and sees the change not yet saved.
    const cached = JSON.stringify(fresh.items.cacheUse);
    const seen = [...fresh.all()];
    assert.equal(seen.length, 12_000);
    assert.equal(seen.find((m) => m.id === 2_500)?.content, 'changed alone');
    assert.equal(JSON.stringify(fresh.items.cacheUse), cached);
    await fresh.save(2_500);
    await fresh.settled();
    assert.equal((await MessageStore.open(dir)).get(2_500)?.content, 'changed alone');
    // Everything is still there, in order.
    let n = 0;
    let last = 0;
    for (const m of store.all()) {
      assert.ok(m.id > last);
      last = m.id;
      n++;
    }
    assert.equal(n, 12_000);
  });

  it('pages looked at one request after another are read alone, however many fall in one segment; a scan in one turn reads it whole', async () => {
    const dir = await tempDir();
    await filled(dir, 12_000);
    const store = await MessageStore.open(dir, { cacheBytes: 200_000 });
    // The search index's build reads every segment whole: once it is done and its copies collected, none is in memory.
    while (!store.search.ready) await new Promise((r) => setTimeout(r, 5));
    collectGarbage();
    const use = JSON.stringify(store.items.cacheUse);
    // 60 messages of the first segment, each looked at in a turn of its own (pages of different channels, one request each).
    for (let id = 1; id <= 600; id += 10) {
      assert.equal(store.peek(id)?.content, `message number ${id - 1} with some words in it`);
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(store.items.points.reads, 60, 'each read alone: the segment was not read whole');
    // Shown again: kept from the first look, none read again.
    for (let id = 1; id <= 600; id += 10) store.peek(id);
    assert.equal(store.items.points.reads, 60);
    // A scan of the same segment in one turn: past 32 read alone, the rest come with the segment read whole.
    for (let id = 2; id <= 1_000; id += 2) assert.equal(store.peek(id)?.content, `message number ${id - 1} with some words in it`);
    assert.ok(store.items.points.reads - 60 <= 32, `read alone in the scan: ${store.items.points.reads - 60}`);
    assert.equal(JSON.stringify(store.items.cacheUse), use, 'looking brings no segment into the cache');
  });

  it('more messages read alone in one turn than are kept: none is let go before the turn ends; one still held is found again after', async () => {
    const dir = await tempDir();
    await filled(dir, 26_000);
    const store = await MessageStore.open(dir, { cacheBytes: 0 });
    const first = store.get(1)!;
    for (let id = 2; id <= 24_500; id++) store.get(id);
    assert.ok(store.items.points.reads > 20_000, `read alone: ${store.items.points.reads}`);
    first.content = 'changed after 24,000 others were read';
    assert.equal(store.get(1), first, 'the same object within the turn');
    await store.save(1);
    await store.settled();
    assert.equal((await MessageStore.open(dir)).get(1)?.content, 'changed after 24,000 others were read');
    // Past the turn, the oldest are let go; one the caller holds is still the one get() gives.
    const held = store.get(3)!;
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    (globalThis as { gc?: () => void }).gc?.();
    assert.equal(store.get(3), held);
  });

  it('a message held by a caller is the same object after its segment left the cache, and its change is saved', async () => {
    const dir = await tempDir();
    await filled(dir, 5000);
    const store = await MessageStore.open(dir, { cacheBytes: 0 });
    const held = store.get(10)!;
    held.content = 'changed while its segment was out of memory';
    for (let id = 1001; id <= 4001; id += 1000) store.get(id); // other segments push it out
    await new Promise((r) => setImmediate(r));
    (globalThis as { gc?: () => void }).gc?.();
    assert.equal(store.get(10), held, 'the same object');
    await store.save(10);
    await store.settled();
    const again = await MessageStore.open(dir, { cacheBytes: 0 });
    assert.equal(again.get(10)?.content, 'changed while its segment was out of memory');
  });

  it('seeded random changes with a cache of nothing reopen equal to a store that keeps everything', async () => {
    for (const seed0 of [3, 11]) {
      let seed = seed0;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const small = await tempDir();
      const big = await tempDir();
      await filled(small, 4500);
      await filled(big, 4500);
      let a = await MessageStore.open(small, { cacheBytes: 0 });
      let b = await MessageStore.open(big, { cacheBytes: Number.POSITIVE_INFINITY });
      for (let batch = 0; batch < 8; batch++) {
        const touched: number[] = [];
        const picks: number[] = [];
        for (let k = 0; k < 40; k++) picks.push(rnd(6), rnd(1_000_000), rnd(4));
        for (const s of [a, b]) {
          const ids = s.allIds.toArray();
          for (let k = 0; k < picks.length; k += 3) {
            const [op, r, u] = [picks[k]!, picks[k + 1]!, 1 + picks[k + 2]!];
            const m = s.get(ids[r % ids.length]!);
            if (!m) continue;
            if (op === 0) {
              m.content = `edited ${batch} ${k}`;
              if (s === a) touched.push(m.id);
            } else if (op === 1) {
              s.relocate(m, { stream_id: 5, topic: `moved ${batch}` });
              if (s === a) touched.push(m.id);
            } else if (op === 2) {
              (m.reactions ??= []).push({ emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji', user_id: u });
              if (s === a) touched.push(m.id);
            } else if (op === 3) {
              const f = s.rowFlags(m, u);
              if (f !== null) s.setRowFlags(m, u, f ^ FLAG.read);
            } else if (op === 4) {
              if (s.remove(m.id) && s === a) touched.push(m.id);
            } else {
              const added = s.add(message(r));
              if (s === a) touched.push(added.id);
            }
          }
        }
        await Promise.all([a.save(...touched), b.save(...touched)]);
        await Promise.all([a.settled(), b.settled()]);
        assert.equal(contentsOf(a), contentsOf(b), `seed ${seed0}, batch ${batch}, in memory`);
        a = await MessageStore.open(small, { cacheBytes: 0 });
        b = await MessageStore.open(big, { cacheBytes: Number.POSITIVE_INFINITY });
        assert.equal(contentsOf(a), contentsOf(b), `seed ${seed0}, batch ${batch}, reopened`);
      }
    }
  });
});
