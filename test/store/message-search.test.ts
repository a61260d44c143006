/**
 * The search index with history on disk (issue 34, item 1; server/store/message-search.ts):
 * closed segments are indexed in runs under `messages/search/`, built once and read on lookup;
 * only the segments after the last run, segments changed since their run read them and what was
 * added since the start are in memory. Checked with runs of two segments: runs are built, kept
 * across starts, made stale by a change (the segment then in memory, the run still used), built
 * as new ranges close, rebuilt when damaged, never written by an open that changes nothing; a
 * source that cannot be read stops the index (the scan answers). Seeded random changes and
 * reopens: the candidates always hold every message the words match.
 */
import assert from 'node:assert/strict';
import { readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MessageStore } from '../../server/store/messages.js';
import { MessageSearch } from '../../server/store/message-search.js';
import { IdList } from '../../server/store/message-ids.js';
import { matchesWords, searchWords } from '../../server/lib/messages/search.js';
import { FLAG, packRow, type MessageRecord } from '../../server/store/message-records.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('hearth-search-');

const WORDS = ['apple', 'apricot', 'banana', 'band', 'cherry', 'chart', 'delta', 'deploy', 'echo', 'eagle', 'fig', 'figure', 'grape', 'kiwi'];
const message = (i: number): Omit<MessageRecord, 'id'> => ({
  sender_id: 1,
  stream_id: 1 + (i % 3),
  topic: `topic ${WORDS[i % 5]}`,
  content: `${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 11 + 3) % WORDS.length]} number${i}`,
  timestamp: 1_700_000_000 + i,
  um: [packRow(1, FLAG.read), packRow(2, 0)],
});

const RUN = 2; // segments a run covers here (2,000 messages)
const open = (dir: string, opts: { writable?: boolean } = {}) => MessageStore.open(dir, { searchRunSegments: RUN, ...opts });

async function filled(dir: string, n: number): Promise<void> {
  const store = await open(dir);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(store.add(message(i)).id);
  await store.save(...ids);
  await store.search.start();
  await store.settled();
}

const runFiles = async (dir: string) => (await readdir(join(dir, 'search')).catch(() => [] as string[])).filter((n) => n.endsWith('.bin')).sort();
const ids = (l: IdList | null) => (l ? l.toArray() : null);

/** Every message a search for `q` must find is among the candidates; answers the candidates. */
function checkSearch(store: MessageStore, q: string): number[] {
  const words = searchWords(q);
  const got = ids(store.search.candidates(words));
  assert.ok(got, `an answer for ${q}`);
  const have = new Set(got);
  for (const m of store.all()) if (matchesWords(m, words)) assert.ok(have.has(m.id), `${q}: message ${m.id} is a candidate`);
  return got;
}

describe('the search index with runs on disk', () => {
  it('builds runs for closed ranges, keeps the rest in memory, and answers with every match', async () => {
    const dir = await tempDir();
    await filled(dir, 7_500);
    assert.deepEqual(await runFiles(dir), ['run-000000000001.bin', 'run-000000002001.bin', 'run-000000004001.bin']);
    const store = await open(dir);
    await store.search.start();
    assert.equal(store.search.ready, true);
    // Ranges 1-6,000 are runs; segments 6,001 and 7,001 (the open one) in memory.
    assert.deepEqual(store.search.shape, { runs: 3, memorySegments: 2 });
    assert.deepEqual(checkSearch(store, 'number4299'), [4300]);
    assert.deepEqual(checkSearch(store, 'number7499'), [7500]);
    for (const q of ['apple', 'ap', 'band cherry', 'topic eagle', 'number12', 'nothinglikethis']) checkSearch(store, q);
    assert.deepEqual(checkSearch(store, 'nothinglikethis'), []);
    // A word in every message: more candidates than the limit, so the scan answers.
    assert.equal(store.search.candidates(['number'], 1_000), null);
  });

  it('a start reuses the runs; a changed segment is indexed in memory beside its run; new ranges get runs as they close', async () => {
    const dir = await tempDir();
    await filled(dir, 4_500);
    const first = join(dir, 'search', 'run-000000000001.bin');
    const before = (await stat(first)).mtimeMs;
    let store = await open(dir);
    const m = store.get(10)!;
    m.content = 'zebra crossing';
    store.search.add(m);
    await store.save(10);
    await store.settled();
    await store.search.start();
    assert.deepEqual(checkSearch(store, 'zebra'), [10]);
    store = await open(dir);
    await store.search.start();
    assert.equal((await stat(first)).mtimeMs, before, 'the run was not built again');
    // Segment 1 changed after its run read it: in memory too, beside 4,001 (the open one).
    assert.deepEqual(store.search.shape, { runs: 2, memorySegments: 2 });
    assert.deepEqual(checkSearch(store, 'zebra'), [10]);
    // Its old words still point at it (a superset; the predicate drops it).
    assert.ok(checkSearch(store, 'number9').includes(10));
    // Messages up to 6,001 close the range 4,001-6,000: its run is built in the background.
    const added: number[] = [];
    for (let i = 4_500; i < 6_001; i++) added.push(store.add(message(i)).id);
    await store.save(...added);
    await store.search.start();
    assert.deepEqual(await runFiles(dir), ['run-000000000001.bin', 'run-000000002001.bin', 'run-000000004001.bin']);
    assert.deepEqual(store.search.shape, { runs: 3, memorySegments: 2 }, 'segments 1 (changed) and 6,001 (open)');
    assert.deepEqual(checkSearch(store, 'number5000'), [5001]);
  });

  it('a damaged run is built again; an open that changes nothing writes none and keeps what they would cover in memory', async () => {
    const dir = await tempDir();
    await filled(dir, 4_200);
    const first = join(dir, 'search', 'run-000000000001.bin');
    await truncate(first, 100);
    let store = await open(dir);
    await store.search.start();
    assert.ok((await stat(first)).size > 100, 'built again');
    assert.deepEqual(checkSearch(store, 'number1234'), [1235]);
    await rm(join(dir, 'search'), { recursive: true });
    store = await open(dir, { writable: false });
    await store.search.start();
    assert.deepEqual(await runFiles(dir), []);
    assert.deepEqual(store.search.shape, { runs: 0, memorySegments: 5 });
    assert.deepEqual(checkSearch(store, 'number1234'), [1235]);
  });

  it('a message that cannot be read stops the index: not ready, the scan answers', async () => {
    const all = IdList.from([1, 2, 3]);
    const search = new MessageSearch(join(await tempDir(), 'search'), {
      ids: all,
      get: (id) => {
        if (id === 2) throw new Error('EIO: a segment could not be read');
        return { id, topic: 't', content: 'soup' };
      },
      maxId: 3,
      segmentFile: (f) => `/nonexistent/seg-${f}.json`,
      settled: async () => undefined,
    }, true);
    await search.start();
    assert.match(String(search.failure), /EIO/);
    assert.equal(search.ready, false);
    search.add({ id: 4, topic: 'later', content: 'soup again' });
    assert.equal(search.candidates(['soup']), null);
  });

  it('seeded random changes and reopens: the candidates hold every match', async () => {
    for (const seed0 of [4, 9]) {
      let seed = seed0;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
      const dir = await tempDir();
      await filled(dir, 5_000);
      let store = await open(dir, {});
      for (let batch = 0; batch < 6; batch++) {
        await store.search.start();
        const touched: number[] = [];
        for (let k = 0; k < 40; k++) {
          const all = store.allIds.toArray();
          const m = store.get(all[rnd(all.length)]!)!;
          const op = rnd(4);
          if (op === 0) {
            store.setContent(m, `${WORDS[rnd(WORDS.length)]} edited${batch}x${k}`, '', 0);
            touched.push(m.id);
          } else if (op === 1 && m.stream_id !== null) {
            store.relocate(m, { stream_id: 2, topic: `moved ${WORDS[rnd(WORDS.length)]}` });
            touched.push(m.id);
          } else if (op === 2) {
            if (store.remove(m.id)) touched.push(m.id);
          } else {
            for (let j = 0; j < 30; j++) touched.push(store.add(message(rnd(100_000))).id);
          }
        }
        await store.save(...touched);
        await store.settled();
        await store.search.start();
        for (let q = 0; q < 8; q++) checkSearch(store, `${WORDS[rnd(WORDS.length)]!.slice(0, 1 + rnd(5))} ${rnd(2) ? `edited${rnd(batch + 1)}` : ''}`);
        store = await open(dir, {});
        await store.search.start();
        for (let q = 0; q < 8; q++) checkSearch(store, `${rnd(2) ? 'moved ' : ''}${WORDS[rnd(WORDS.length)]} ${rnd(2) ? `edited${rnd(batch + 1)}` : ''}`);
        assert.ok(store.search.shape.runs >= 2, JSON.stringify(store.search.shape));
      }
    }
  });
});
