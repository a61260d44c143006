/**
 * Every message ID there is, as a bitmap: message IDs are dense (1 to the highest, less the
 * deleted), so one bit an ID (0.6 MB at 5 million) holds what a sorted Int32 list held in 20 MB
 * and more (issue 34: memory that does not grow with history). Reads as an IdList does (`at`,
 * `lowerBound`, `has`, iteration), with each block of BLOCK_WORDS words' count of IDs before it
 * kept, so `lowerBound` is a count within one block and `at` a binary search over the blocks.
 */
import type { SortedIds } from './message-ids.js';

const BLOCK_WORDS = 32; // 1,024 IDs a block

function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export class IdBitmap implements SortedIds {
  private words = new Uint32Array(BLOCK_WORDS);
  /** IDs in the blocks before each block, for every block up to the highest ID's. */
  private before = new Int32Array(1);
  length = 0;
  private top = 0;

  /** The bit of `id` (IDs are positive integers; anything else is absent). */
  has(id: number): boolean {
    if (!Number.isInteger(id) || id < 0 || id > this.top) return false;
    return (this.words[id >>> 5]! & (1 << (id & 31))) !== 0;
  }

  private blockOf(id: number): number {
    return Math.floor((id >>> 5) / BLOCK_WORDS);
  }

  private grow(id: number): void {
    const needWords = (id >>> 5) + 1;
    if (needWords > this.words.length) {
      const next = new Uint32Array(Math.ceil(Math.max(needWords, this.words.length * 1.5) / BLOCK_WORDS) * BLOCK_WORDS);
      next.set(this.words);
      this.words = next;
    }
    const blocks = this.words.length / BLOCK_WORDS;
    if (blocks > this.before.length) {
      const next = new Int32Array(blocks);
      next.set(this.before);
      this.before = next;
    }
  }

  insert(id: number): void {
    if (!Number.isSafeInteger(id) || id < 0 || id > 0x7fffffff) throw new RangeError(`not a message ID: ${id}`);
    if (this.has(id)) return;
    this.grow(id);
    const block = this.blockOf(id);
    if (id > this.top) {
      // Blocks after the old highest ID's, up to this one's: every ID there is comes before them.
      for (let b = this.blockOf(this.top) + 1; b <= block; b++) this.before[b] = this.length;
      this.top = id;
    }
    this.words[id >>> 5]! |= 1 << (id & 31);
    this.length++;
    // (Appending, the usual case, is in the last block: nothing after it to count.)
    for (let b = block + 1, end = this.blockOf(this.top); b <= end; b++) this.before[b]!++;
  }

  remove(id: number): boolean {
    if (!this.has(id)) return false;
    this.words[id >>> 5]! &= ~(1 << (id & 31));
    this.length--;
    for (let b = this.blockOf(id) + 1, end = this.blockOf(this.top); b <= end; b++) this.before[b]!--;
    return true;
  }

  /** How many IDs are below `id`: the index of the first entry >= id. */
  lowerBound(id: number): number {
    if (!(id > 0)) return 0;
    if (id > this.top) return this.length;
    const w = id >>> 5;
    const block = Math.floor(w / BLOCK_WORDS);
    let n = this.before[block]!;
    for (let i = block * BLOCK_WORDS; i < w; i++) n += popcount(this.words[i]!);
    return n + popcount(this.words[w]! & ((1 << (id & 31)) - 1));
  }

  /** The i-th ID in ascending order. */
  at(i: number): number {
    if (!(i >= 0 && i < this.length)) return undefined as unknown as number;
    // The last block with fewer than i + 1 IDs before it holds it.
    let lo = 0;
    let hi = this.blockOf(this.top);
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.before[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    let left = i - this.before[lo]!;
    for (let w = lo * BLOCK_WORDS; ; w++) {
      let bits = this.words[w]!;
      const c = popcount(bits);
      if (left >= c) {
        left -= c;
        continue;
      }
      for (; left > 0; left--) bits &= bits - 1;
      return w * 32 + (31 - Math.clz32(bits & -bits));
    }
  }

  get first(): number | undefined {
    return this.length ? this.at(0) : undefined;
  }

  get last(): number | undefined {
    return this.length ? this.at(this.length - 1) : undefined;
  }

  *[Symbol.iterator](): IterableIterator<number> {
    const top = this.top >>> 5;
    for (let w = 0; w <= top; w++) {
      let bits = this.words[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        yield w * 32 + (31 - Math.clz32(low));
        bits ^= low;
      }
    }
  }

  *descending(): IterableIterator<number> {
    for (let w = this.top >>> 5; w >= 0; w--) {
      let bits = this.words[w]!;
      while (bits !== 0) {
        const high = 31 - Math.clz32(bits);
        yield w * 32 + high;
        bits &= ~(1 << high);
      }
    }
  }

  toArray(): number[] {
    return [...this];
  }
}
