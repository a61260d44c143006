/**
 * The word index behind the `search` narrow operator: every lower-cased word of a message's
 * topic and Markdown source, each with the sorted IDs of the messages that hold it. A search
 * word matches the words it begins (Zulip's prefix search), so the terms are also kept in
 * sorted order for a range lookup by prefix.
 *
 * The index answers with a superset: an edited or moved message keeps its old words too, and
 * a deleted one stays listed. The search predicate still checks every candidate, so results
 * are exact; the index only spares the scan. It is built after the store opens, in slices that
 * yield to the event loop, so it adds nothing to the cold start; until it is ready (and for a
 * word so short that it begins too many terms) search falls back to the scan.
 */
import { IdList } from './message-ids.js';

const WORDS = /[\p{L}\p{N}_]+/gu;
/** A search word beginning more terms than this scans instead (a union that large costs more than it saves). */
const MAX_TERMS_PER_WORD = 4_000;
/** Merged into the sorted terms once this many new terms have come. */
const PENDING_LIMIT = 4_096;

export interface Indexable {
  id: number;
  topic: string;
  content: string;
}

/** The distinct lower-cased words of a text. */
export function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORDS) ?? []);
}

/**
 * The messages holding a term: one message's ID as a plain number (most terms, numbers and names
 * and typos, are in one message only, and an IdList for each cost ~240 bytes more), else a list.
 */
type Posting = number | IdList;

const sizeOf = (p: Posting): number => (typeof p === 'number' ? 1 : p.length);

export class SearchIndex {
  private readonly postings = new Map<string, Posting>();
  /** The terms in sorted order, plus the ones added since the last merge. */
  private sorted: string[] = [];
  private pending: string[] = [];
  private building = true;
  /** Messages added while the initial build runs, indexed after it (IDs stay in order). */
  private late: Indexable[] = [];

  get ready(): boolean {
    return !this.building;
  }

  get terms(): number {
    return this.postings.size;
  }

  /** Why the initial build stopped (a segment it read could not be): search scans from then on. */
  failure: unknown = null;

  /** Indexes a message's words (a new message, or an edit or move: new words are added, old ones stay). */
  add(m: Indexable): void {
    if (this.failure !== null) return;
    if (this.building) {
      this.late.push(m);
      return;
    }
    this.put(m);
  }

  private put(m: Indexable): void {
    for (const w of wordsOf(`${m.topic}\n${m.content}`)) {
      const p = this.postings.get(w);
      if (p === undefined) {
        this.postings.set(w, m.id);
        this.pending.push(w);
      } else if (typeof p === 'number') {
        if (p === m.id) continue;
        const list = new IdList(4);
        list.insert(p);
        list.insert(m.id);
        this.postings.set(w, list);
      } else p.insert(m.id);
    }
  }

  /**
   * The initial build over `all` (ascending IDs), in slices of at most `sliceMs` between turns
   * of the event loop, so requests meanwhile wait at most that long for it (at a million
   * messages the build takes seconds; slices of a fixed 5,000 messages held the loop ~50 ms
   * each and were most of POST /register's slowest answers right after a start).
   * A slice resumes from a timer, which runs before the turn reads requests: resuming at the
   * turn's end (setImmediate) put each slice before the answers those requests wait to send
   * there (server/events/turn-end.ts). Resolves when the index is ready.
   */
  async build(all: Iterable<Indexable>, sliceMs = 8): Promise<void> {
    let sliceEnd = performance.now() + sliceMs;
    try {
      for (const m of all) {
        this.put(m);
        if (performance.now() >= sliceEnd) {
          await new Promise<void>((r) => setTimeout(r, 0));
          sliceEnd = performance.now() + sliceMs;
        }
      }
    } catch (err) {
      // The index is never ready then (the scan answers, and meets the same error where it reads).
      this.failure = err;
      this.late = [];
      return;
    }
    this.merge();
    this.building = false;
    for (const m of this.late) this.put(m);
    this.late = [];
  }

  private merge(): void {
    if (!this.pending.length) return;
    this.pending.sort();
    const out: string[] = new Array(this.sorted.length + this.pending.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.sorted.length || j < this.pending.length) {
      if (j >= this.pending.length || (i < this.sorted.length && this.sorted[i]! < this.pending[j]!)) out[k++] = this.sorted[i++]!;
      else out[k++] = this.pending[j++]!;
    }
    this.sorted = out;
    this.pending = [];
  }

  /** The terms a search word begins, or null when there are too many to be worth it. */
  private termsFor(word: string): string[] | null {
    if (this.pending.length > PENDING_LIMIT) this.merge();
    const out: string[] = [];
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid]! < word) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length && this.sorted[i]!.startsWith(word); i++) {
      out.push(this.sorted[i]!);
      if (out.length > MAX_TERMS_PER_WORD) return null;
    }
    for (const t of this.pending) if (t.startsWith(word)) out.push(t);
    return out;
  }

  /**
   * The IDs of messages that may hold every word (a superset: the caller checks each), or
   * null when the index cannot narrow it down (not built yet, or a word too short).
   * `limit`: give up (null) when the smallest word's list is longer, since a scan of a
   * common word finds its matches quickly.
   */
  candidates(words: string[], limit = 200_000): IdList | null {
    if (this.building || !words.length) return null;
    let best: Posting[] | null = null;
    let bestSize = Infinity;
    for (const w of words) {
      const terms = this.termsFor(w);
      if (terms === null) continue;
      const lists = terms.map((t) => this.postings.get(t)!);
      const size = lists.reduce<number>((s, l) => s + sizeOf(l), 0);
      if (size < bestSize) {
        best = lists;
        bestSize = size;
      }
    }
    if (best === null || bestSize > limit) return null;
    if (best.length === 1 && typeof best[0] !== 'number') return best[0]!;
    const all = new Int32Array(bestSize);
    let at = 0;
    for (const l of best) {
      if (typeof l === 'number') all[at++] = l;
      else for (let i = 0; i < l.length; i++) all[at++] = l.at(i);
    }
    all.sort();
    const out = new IdList(Math.max(2, bestSize));
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) out.insert(all[i]!);
    return out;
  }
}
