/**
 * The word index behind the `search` operator, with history on disk: closed segments are indexed
 * in runs of RUN_SEGMENTS segments (./search-run-file.ts, `messages/search/`), and only the rest
 * is in memory (./search-index.ts, one small index per segment): the segments after the last
 * run, segments a run read before they changed, and every message added, edited or moved since
 * the start. So memory stays flat as history grows; a lookup reads a few blocks of each run.
 *
 * Like the in-memory index it answers with a superset (old words stay; deleted messages stay
 * listed): the search predicate checks every candidate. It is ready once every segment is
 * covered by a run or indexed in memory; until then (a first start builds every run) search
 * scans. A run is built in the background whenever a range of closed segments has none, in
 * slices that yield to the event loop. An open that must change nothing on disk builds no run:
 * what runs do not cover is indexed in memory.
 */
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { IdList, SortedIds } from './message-ids.js';
import { pickCandidates, SearchIndex, wordsOf, type IdSource, type Indexable } from './search-index.js';
import { RunReader, stampOf, writeRun, type SegmentStamp } from './search-run-file.js';

/** Segments in a run (64,000 messages with 1,000-message segments). */
export const RUN_SEGMENTS = 64;
const MAX_TERMS_PER_WORD = 4_000;
const RUN_RE = /^run-(\d{12})\.bin$/;

export interface SearchSource {
  /** Every message ID, ascending. */
  readonly ids: SortedIds;
  get(id: number): Indexable | undefined;
  readonly maxId: number;
  /** The segment file of the segment beginning at `first`. */
  segmentFile(first: number): string;
  /** Resolves once the writes asked for so far are on disk (a run stamps segment files as they are then). */
  settled(): Promise<void>;
}

const yieldTurn = () => new Promise<void>((r) => setTimeout(r, 0));

export class MessageSearch {
  private readonly runs = new Map<number, RunReader>();
  /** Segment first ID → its in-memory index, and a count of what was added to it (a run drops it only if unchanged). */
  private readonly mem = new Map<number, { index: SearchIndex; version: number }>();
  private isReady = false;
  private running: Promise<void> | null = null;
  /** Why indexing stopped (a segment could not be read): search scans from then on. */
  failure: unknown = null;
  private readonly span: number;

  constructor(
    private readonly dir: string,
    private readonly src: SearchSource,
    private readonly writable: boolean,
    private readonly segmentSize = 1000,
    runSegments = RUN_SEGMENTS,
    private readonly sliceMs = 8,
  ) {
    this.span = segmentSize * runSegments;
  }

  get ready(): boolean {
    return this.isReady && this.failure === null;
  }

  /** Terms held: in memory and in the runs (a term in several counts once for each). */
  get terms(): number {
    let n = 0;
    for (const r of this.runs.values()) n += r.terms;
    for (const m of this.mem.values()) n += m.index.terms;
    return n;
  }

  /** Runs in use, and segments indexed in memory (tests, benchmarks). */
  get shape(): { runs: number; memorySegments: number } {
    return { runs: this.runs.size, memorySegments: this.mem.size };
  }

  private segOf(id: number): number {
    return Math.floor((id - 1) / this.segmentSize) * this.segmentSize + 1;
  }

  private runOf(id: number): number {
    return Math.floor((id - 1) / this.span) * this.span + 1;
  }

  private memFor(seg: number): { index: SearchIndex; version: number } {
    let e = this.mem.get(seg);
    if (!e) this.mem.set(seg, (e = { index: new SearchIndex(), version: 0 }));
    return e;
  }

  /** Indexes a message's words (a new message, or an edit or move: new words are added, old ones stay). */
  add(m: Indexable): void {
    if (this.failure !== null) return;
    const e = this.memFor(this.segOf(m.id));
    e.index.add(m);
    e.version++;
    // A range of segments just closed: its run is due.
    if (this.isReady && this.writable && m.id % this.span === 1) void this.work();
  }

  /** Starts indexing (after open); resolves when the index is ready or indexing stopped. */
  start(): Promise<void> {
    return this.work();
  }

  /** One pass: open the runs there are (the first time), index in memory what they do not cover, build the runs due. */
  private work(): Promise<void> {
    if (this.running) return this.running.then(() => (this.isReady ? this.work() : undefined));
    this.running = this.pass()
      .catch((err: unknown) => {
        this.failure = err;
        this.mem.clear();
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    if (!this.isReady) await this.openRuns();
    const openSeg = this.segOf(Math.max(1, this.src.maxId));
    // Whole ranges of closed segments with no run: built now (when this open may write).
    const due: number[] = [];
    for (let r = 1; r + this.span <= openSeg; r += this.span) if (!this.runs.has(r) && this.writable && this.hasMessages(r, this.span)) due.push(r);
    if (!this.isReady) {
      // Everything else in memory: segments no run covers, and those changed since their run read them.
      for (let seg = 1; seg <= openSeg; seg += this.segmentSize) {
        const run = this.runs.get(this.runOf(seg));
        if (due.includes(this.runOf(seg)) || (run && !this.stale(run, seg)) || !this.hasMessages(seg, this.segmentSize)) continue;
        await this.indexInMemory(seg);
      }
    }
    for (const r of due) await this.buildRun(r);
    this.isReady = true;
  }

  private async openRuns(): Promise<void> {
    let names: string[] = [];
    try {
      if (this.writable) await mkdir(this.dir, { recursive: true, mode: 0o700 });
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (this.writable && name.endsWith('.tmp')) await unlink(join(this.dir, name)).catch(() => undefined);
      const m = RUN_RE.exec(name);
      if (!m) continue;
      const run = RunReader.open(join(this.dir, name));
      // Another segment or run size (an older Hearth's): not ours to use.
      if (run && run.first === Number(m[1]) && run.span === this.span && this.runOf(run.first) === run.first) this.runs.set(run.first, run);
    }
  }

  /** Whether the segment changed since the run read it (or the run never read it). */
  private stale(run: RunReader, seg: number): boolean {
    const had = run.segments[String(seg)];
    const now = stampOf(this.src.segmentFile(seg));
    if (!had || !now) return had !== undefined || now !== null;
    return had[0] !== now[0] || had[1] !== now[1] || had[2] !== now[2];
  }

  private hasMessages(first: number, n: number): boolean {
    const ids = this.src.ids;
    const i = ids.lowerBound(first);
    return i < ids.length && ids.at(i) < first + n;
  }

  private *idsIn(first: number, n: number): IterableIterator<number> {
    const ids = this.src.ids;
    // By value, not position: messages may come and go between slices.
    for (let i = ids.lowerBound(first); i < ids.length; ) {
      const id = ids.at(i);
      if (id >= first + n) return;
      yield id;
      i = ids.lowerBound(id + 1);
    }
  }

  /** Builds the run of the range beginning at `first`, reading its segments; drops their memory indexes it covers. */
  private async buildRun(first: number): Promise<void> {
    await this.src.settled();
    const postings = new Map<string, number[]>();
    const segs: Record<string, SegmentStamp> = {};
    const versions = new Map<number, number>();
    let sliceEnd = performance.now() + this.sliceMs;
    for (let seg = first; seg < first + this.span; seg += this.segmentSize) {
      // Stamped before it is read: a write after that makes the run stale for it, never wrong.
      const stamp = stampOf(this.src.segmentFile(seg));
      if (stamp) segs[String(seg)] = stamp;
      versions.set(seg, this.mem.get(seg)?.version ?? 0);
      for (const id of this.idsIn(seg, this.segmentSize)) {
        const m = this.src.get(id);
        if (!m) continue;
        for (const w of wordsOf(`${m.topic}\n${m.content}`)) {
          const list = postings.get(w);
          if (list === undefined) postings.set(w, [m.id]);
          else if (list[list.length - 1] !== m.id) list.push(m.id);
        }
        if (performance.now() >= sliceEnd) {
          await yieldTurn();
          sliceEnd = performance.now() + this.sliceMs;
        }
      }
    }
    const file = join(this.dir, `run-${String(first).padStart(12, '0')}.bin`);
    const written = await writeRun(file, first, this.span, segs, postings).then(() => RunReader.open(file), () => null);
    if (!written) {
      // Not written (a full disk): the range is indexed in memory instead, and its run tried again at the next start.
      for (let seg = first; seg < first + this.span; seg += this.segmentSize) await this.indexInMemory(seg);
      return;
    }
    this.runs.set(first, written);
    for (const [seg, v] of versions) if ((this.mem.get(seg)?.version ?? 0) === v) this.mem.delete(seg);
  }

  private async indexInMemory(seg: number): Promise<void> {
    const { index } = this.memFor(seg);
    let sliceEnd = performance.now() + this.sliceMs;
    for (const id of this.idsIn(seg, this.segmentSize)) {
      const m = this.src.get(id);
      if (m) index.add(m);
      if (performance.now() >= sliceEnd) {
        await yieldTurn();
        sliceEnd = performance.now() + this.sliceMs;
      }
    }
  }

  /**
   * The IDs of messages that may hold every word (a superset: the caller checks each), or null
   * when the index cannot narrow it down (not ready, or every word begins too many terms).
   * `limit`: give up (null) when the smallest word's lists hold more IDs.
   */
  candidates(words: string[], limit = 200_000): IdList | null {
    if (!this.ready) return null;
    return pickCandidates(
      words,
      (w, maxIds) => {
        const lists: IdSource[] = [];
        let size = 0;
        for (const e of this.mem.values()) {
          const p = e.index.postingsFor(w);
          if (p === null) return null;
          for (const l of p) (lists.push(l), (size += typeof l === 'number' ? 1 : l.length));
        }
        for (const run of this.runs.values()) {
          const found = size > maxIds ? null : run.lookup(w, MAX_TERMS_PER_WORD, maxIds - size);
          if (found === null) return null;
          for (const l of found) (lists.push(l), (size += l.length));
        }
        return lists;
      },
      limit,
    );
  }
}
