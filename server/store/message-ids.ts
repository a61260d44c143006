/**
 * A sorted list of message IDs in a growable Int32Array: 4 bytes per entry,
 * appends in O(1), range lookups by binary search. The message indexes are
 * made of these.
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

export class IdList implements SortedIds {
  private buf: Int32Array;
  length = 0;

  constructor(capacity = 8) {
    this.buf = new Int32Array(capacity);
  }

  static from(ids: Iterable<number>): IdList {
    const l = new IdList();
    for (const id of ids) l.insert(id);
    return l;
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
    const next = new Int32Array(Math.max(8, this.length * 2));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  /** Makes room for `capacity` entries at once (loading a known number of IDs). */
  reserve(capacity: number): void {
    if (capacity <= this.buf.length) return;
    const next = new Int32Array(capacity);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  at(i: number): number {
    return this.buf[i]!;
  }

  get last(): number | undefined {
    return this.length ? this.buf[this.length - 1] : undefined;
  }

  get first(): number | undefined {
    return this.length ? this.buf[0] : undefined;
  }

  /** Index of the first entry >= id (length when none). */
  lowerBound(id: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.buf[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(id: number): boolean {
    const i = this.lowerBound(id);
    return i < this.length && this.buf[i] === id;
  }

  /** Adds an id keeping order (appending is the fast path); no duplicates. */
  insert(id: number): void {
    if (this.length === this.buf.length) this.grow();
    if (this.length === 0 || this.buf[this.length - 1]! < id) {
      this.buf[this.length++] = id;
      return;
    }
    const i = this.lowerBound(id);
    if (this.buf[i] === id) return;
    this.buf.copyWithin(i + 1, i, this.length);
    this.buf[i] = id;
    this.length++;
  }

  remove(id: number): boolean {
    const i = this.lowerBound(id);
    if (i >= this.length || this.buf[i] !== id) return false;
    this.buf.copyWithin(i, i + 1, this.length);
    this.length--;
    if (this.buf.length > 64 && this.length < this.buf.length / 4) this.shrink();
    return true;
  }

  toArray(): number[] {
    return Array.from(this.buf.subarray(0, this.length));
  }

  *[Symbol.iterator](): IterableIterator<number> {
    for (let i = 0; i < this.length; i++) yield this.buf[i]!;
  }

  /** Entries from newest to oldest. */
  *descending(): IterableIterator<number> {
    for (let i = this.length - 1; i >= 0; i--) yield this.buf[i]!;
  }
}
