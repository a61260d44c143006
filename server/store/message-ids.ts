/**
 * A sorted list of message IDs: appends in O(1), range lookups by binary search. The message
 * indexes are made of these. The newest entries are in a growable Int32Array (4 bytes each); once
 * PACK_AT have come, all but the last BLOCK of them are packed (issue 34: memory that does not
 * grow 4 bytes a message per index): in blocks of BLOCK, one Int32 base and a Uint16 offset an
 * entry, 2.25 bytes each (in chunks: see `chunks`), so long as a block spans fewer than 65,536 IDs (a list whose blocks
 * span more, a sparse topic, stays unpacked). A change before the newest entries (a move, a
 * deletion) unpacks the list first: those are rare, and the list packs again as messages come.
 */
/** What reading a sorted ID list needs (IdList; IdBitmap, ./id-bitmap.ts, for every message ID). */
export interface SortedIds {
  readonly length: number;
  readonly first: number | undefined;
  readonly last: number | undefined;
  at(i: number): number;
  /** Index of the first entry >= id (length when none). */
  lowerBound(id: number): number;
  has(id: number): boolean;
  toArray(): number[];
  [Symbol.iterator](): IterableIterator<number>;
  /** Entries from newest to oldest. */
  descending(): IterableIterator<number>;
}

const BLOCK_SHIFT = 4;
const BLOCK = 1 << BLOCK_SHIFT; // 16
const PACK_AT = 64;
/** Uint16s a packed block takes: its base (low, high half), then BLOCK offsets from it. */
const STRIDE = BLOCK + 2;
/**
 * A list's first chunks hold 4, 6, 9, ... blocks (each half as large again as the one before, up
 * to FULL_BLOCKS; GRADED_BLOCKS in all), every later one FULL_BLOCKS: a small list's unused room
 * is at most a third of it, a long list's at most one chunk.
 */
const FULL_BLOCKS = 256;
const GRADED_SIZES: number[] = [];
for (let n = 4; n < FULL_BLOCKS; n = Math.ceil(n * 1.5)) GRADED_SIZES.push(n);
const GRADED = GRADED_SIZES.length;
/** Where each graded chunk starts (in blocks), and the chunk of each block among them. */
const GRADED_STARTS = GRADED_SIZES.map((_, k) => GRADED_SIZES.slice(0, k).reduce((a, b) => a + b, 0));
const GRADED_BLOCKS = GRADED_STARTS[GRADED - 1]! + GRADED_SIZES[GRADED - 1]!;
const GRADED_CHUNK_OF = new Uint8Array(GRADED_BLOCKS).map((_, b) => GRADED_STARTS.findLastIndex((start) => start <= b));

const chunkOf = (block: number): number => (block < GRADED_BLOCKS ? GRADED_CHUNK_OF[block]! : GRADED + Math.floor((block - GRADED_BLOCKS) / FULL_BLOCKS));
const chunkStart = (k: number): number => (k < GRADED ? GRADED_STARTS[k]! : GRADED_BLOCKS + (k - GRADED) * FULL_BLOCKS);

export class IdList implements SortedIds {
  /** The newest entries: [packed, length). */
  private buf: Int32Array;
  private tail = 0;
  length = 0;
  /**
   * The packed entries [0, packed), block by block (STRIDE Uint16s each) in chunks that grow
   * up to FULL_BLOCKS: a chunk, once made, is never copied, so lists grow without leaving old
   * copies behind (growing by copying, 2,000 lists at 5 million messages left tens of MB of
   * garbage, memory's high-water while opening), and a small list has little unused room.
   */
  private chunks: Uint16Array[] | null = null;
  private packed = 0;
  /** The tail's length at which packing is tried next. */
  private packAt = PACK_AT;

  constructor(capacity = 8) {
    this.buf = new Int32Array(capacity);
  }

  static from(ids: Iterable<number>): IdList {
    const l = new IdList();
    for (const id of ids) l.insert(id);
    return l;
  }

  /** Bytes of typed arrays the list holds (its tail, its chunks). */
  get bytes(): number {
    let n = this.buf.byteLength;
    for (const c of this.chunks ?? []) n += c.byteLength;
    return n;
  }

  /**
   * Half as much again: hundreds of per-user lists grow in step as messages arrive (each
   * message joins every recipient's unread list), so room left over at doubling was a third
   * of their memory.
   */
  private grow(): void {
    const next = new Int32Array(Math.max(4, Math.ceil(this.buf.length * 1.5)));
    next.set(this.buf);
    this.buf = next;
  }

  /** Gives back room when a list has shrunk to a quarter of it (an unread list once read). */
  private shrink(): void {
    const next = new Int32Array(Math.max(8, this.tail * 2));
    next.set(this.buf.subarray(0, this.tail));
    this.buf = next;
  }

  /** Packs all but the last BLOCK entries of the tail, when every block of them spans fewer than 65,536 IDs. */
  private pack(): void {
    const k = Math.floor((this.tail - BLOCK) / BLOCK) * BLOCK;
    const buf = this.buf;
    for (let b = 0; b < k; b += BLOCK) {
      if (buf[b + BLOCK - 1]! - buf[b]! > 0xffff) {
        // Too sparse to pack now: tried again once the tail has doubled (appends stay O(1)).
        this.packAt = this.tail * 2;
        return;
      }
    }
    const chunks = (this.chunks ??= []);
    for (let b = 0; b < k; b += BLOCK) {
      const block = (this.packed + b) >>> BLOCK_SHIFT;
      const c = chunkOf(block);
      if (c === chunks.length) chunks.push(new Uint16Array((c < GRADED ? GRADED_SIZES[c]! : FULL_BLOCKS) * STRIDE));
      const u = chunks[c]!;
      const p = (block - chunkStart(c)) * STRIDE;
      const base = buf[b]!;
      u[p] = base & 0xffff;
      u[p + 1] = base >>> 16;
      for (let x = 0; x < BLOCK; x++) u[p + 2 + x] = buf[b + x]! - base;
    }
    buf.copyWithin(0, k, this.tail);
    this.tail -= k;
    this.packed += k;
    this.packAt = PACK_AT;
    // A tail made large (a list unpacked, or made with a large capacity) need not stay so.
    if (this.buf.length > 4 * PACK_AT) this.buf = this.buf.slice(0, 2 * PACK_AT);
  }

  /** Every entry back in the tail (before a change among the packed ones). */
  private unpack(): void {
    if (this.packed === 0) return;
    const all = new Int32Array(this.length + Math.max(8, this.length >> 3));
    for (let i = 0; i < this.packed; i++) all[i] = this.at(i);
    all.set(this.buf.subarray(0, this.tail), this.packed);
    this.buf = all;
    this.tail = this.length;
    this.packed = 0;
    this.chunks = null;
  }

  at(i: number): number {
    if (i >= this.packed) return this.buf[i - this.packed]!;
    const block = i >>> BLOCK_SHIFT;
    const c = chunkOf(block);
    const u = this.chunks![c]!;
    const p = (block - chunkStart(c)) * STRIDE;
    return (u[p]! | (u[p + 1]! << 16)) + u[p + 2 + (i & (BLOCK - 1))]!;
  }

  get last(): number | undefined {
    return this.length ? this.at(this.length - 1) : undefined;
  }

  get first(): number | undefined {
    return this.length ? this.at(0) : undefined;
  }

  /** Index of the first entry >= id (length when none). */
  lowerBound(id: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid) < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(id: number): boolean {
    const i = this.lowerBound(id);
    return i < this.length && this.at(i) === id;
  }

  /** Adds an id keeping order (appending is the fast path); no duplicates. */
  insert(id: number): void {
    if (this.length === 0 || this.at(this.length - 1) < id) {
      if (this.tail === this.buf.length) this.grow();
      this.buf[this.tail++] = id;
      this.length++;
      if (this.tail >= this.packAt) this.pack();
      return;
    }
    let i = this.lowerBound(id);
    if (this.at(i) === id) return;
    if (i < this.packed) this.unpack();
    if (this.tail === this.buf.length) this.grow();
    i -= this.packed;
    this.buf.copyWithin(i + 1, i, this.tail);
    this.buf[i] = id;
    this.tail++;
    this.length++;
  }

  remove(id: number): boolean {
    let i = this.lowerBound(id);
    if (i >= this.length || this.at(i) !== id) return false;
    if (i < this.packed) this.unpack();
    i -= this.packed;
    this.buf.copyWithin(i, i + 1, this.tail);
    this.tail--;
    this.length--;
    if (this.buf.length > 64 && this.tail < this.buf.length / 4) this.shrink();
    return true;
  }

  toArray(): number[] {
    const out = new Array<number>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.at(i);
    return out;
  }

  *[Symbol.iterator](): IterableIterator<number> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  /** Entries from newest to oldest. */
  *descending(): IterableIterator<number> {
    for (let i = this.length - 1; i >= 0; i--) yield this.at(i);
  }
}
