/**
 * The word index behind the `search` narrow operator: every lower-cased word of a message's
 * topic and Markdown source, each with the sorted IDs of the messages that hold it. A search
 * word matches the words it begins (Zulip's prefix search), so the terms are also kept in
 * sorted order for a range lookup by prefix.
 *
 * The index answers with a superset: an edited or moved message keeps its old words too, and
 * a deleted one stays listed. The search predicate still checks every candidate, so results
 * are exact; the index only spares the scan; for a word so short that it begins too many terms
 * search falls back to the scan. This is the in-memory part: ./message-search.ts keeps one per
 * segment that its runs on disk do not cover, and decides when the whole is ready.
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
export type Posting = number | IdList;

const sizeOf = (p: IdSource): number => (typeof p === 'number' ? 1 : p.length);

export class SearchIndex {
  private readonly postings = new Map<string, Posting>();
  /** The terms in sorted order, plus the ones added since the last merge. */
  private sorted: string[] = [];
  private pending: string[] = [];

  get terms(): number {
    return this.postings.size;
  }

  /** Indexes a message's words (a new message, or an edit or move: new words are added, old ones stay). */
  add(m: Indexable): void {
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

  /** The postings of the terms `word` begins (each one ID or a list), or null when there are too many terms. */
  postingsFor(word: string): Posting[] | null {
    return this.termsFor(word)?.map((t) => this.postings.get(t)!) ?? null;
  }

  /**
   * The IDs of messages that may hold every word (a superset: the caller checks each), or
   * null when the index cannot narrow it down (every word too short).
   */
  candidates(words: string[], limit = 200_000): IdList | null {
    return pickCandidates(words, (w) => this.postingsFor(w), limit);
  }
}

/** Lists of message IDs: one ID, an IdList or an array (ascending). */
export type IdSource = Posting | readonly number[];

/**
 * The candidates of a search: the union of the lists of the word whose lists hold the fewest IDs
 * (`listsOf` gives a word's lists, or null when they would hold more than `maxIds` or it begins
 * too many terms), or null when no word's lists hold `limit` IDs or fewer: a scan of a common
 * word finds its matches quickly.
 */
export function pickCandidates(words: string[], listsOf: (word: string, maxIds: number) => IdSource[] | null, limit: number): IdList | null {
  let best: IdSource[] | null = null;
  let bestSize = Infinity;
  for (const w of words) {
    const lists = listsOf(w, Math.min(limit, bestSize));
    if (lists === null) continue;
    const size = lists.reduce<number>((n, l) => n + sizeOf(l), 0);
    if (size < bestSize) [best, bestSize] = [lists, size];
  }
  if (best === null || bestSize > limit) return null;
  if (best.length === 1 && best[0] instanceof IdList) return best[0];
  const all = new Int32Array(bestSize);
  let at = 0;
  for (const l of best) {
    if (typeof l === 'number') all[at++] = l;
    else if (l instanceof IdList) for (let i = 0; i < l.length; i++) all[at++] = l.at(i);
    else for (const id of l) all[at++] = id;
  }
  all.sort();
  const out = new IdList(Math.max(2, bestSize));
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) out.insert(all[i]!);
  return out;
}
