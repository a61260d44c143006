import { readFileSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { CorruptFileError, DurableJSONFile, removeStaleTemp } from './durable-file.js';

export interface Identified {
  id: number;
}

interface Segment<T> {
  first: number; // first id this segment may hold
  db: Low<T[]>;
  adapter: DurableJSONFile<T[]>;
  /**
   * The open (last) segment's items as JSON text, by id, reused while unchanged: appending a
   * message then costs its own serialisation, not the segment's. An item's text is dropped
   * whenever it is saved or removed (every change to an item is followed by save(its id)).
   */
  text: Map<number, string> | null;
}

function parseSegment(file: string): unknown[] {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text) as unknown[];
  } catch (err) {
    throw new CorruptFileError(file, text.length === 0 ? 'empty file' : (err as Error).message);
  }
}

const SEGMENT_RE = /^seg-(\d{12})\.json$/;
/** Holds the highest id ever assigned once the newest items were removed, so ids are never reused. */
const LAST_ID_FILE = 'last-id.json';

/**
 * An append-mostly collection of items with increasing integer ids, kept in
 * fixed-size segment files (`seg-<first id>.json`, `segmentSize` ids each).
 * Appending rewrites only the open (last) segment; updating an old item
 * rewrites only its segment. History is never rewritten as a whole.
 *
 * Every item is also held in memory, in id order, for fast reads; callers
 * build their own indexes from `all()` at load.
 */
export class SegmentedCollection<T extends Identified> {
  private readonly segments: Segment<T>[] = [];
  private lastId = 0;
  private readonly lastIdFile: DurableJSONFile<{ lastId: number }>;

  private constructor(
    readonly dir: string,
    readonly segmentSize: number,
  ) {
    this.lastIdFile = new DurableJSONFile(join(dir, LAST_ID_FILE));
  }

  /**
   * Loads every segment. `onSegment` sees each segment's items right after it
   * is parsed (callers index there, while the parse garbage is still young).
   */
  static async open<T extends Identified>(
    dir: string,
    segmentSize = 1000,
    onSegment?: (items: T[]) => void,
  ): Promise<SegmentedCollection<T>> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const c = new SegmentedCollection<T>(dir, segmentSize);
    const listing = await readdir(dir);
    const present = new Set(listing);
    const names = listing.filter((n) => SEGMENT_RE.test(n)).sort();
    for (const name of names) {
      const first = Number(SEGMENT_RE.exec(name)![1]);
      const file = join(dir, name);
      // Only where a temp file is left (a crash mid-write): one awaited unlink per segment costs seconds at 1M.
      if (present.has(`${name}.tmp`)) await removeStaleTemp(file);
      const seg = c.makeSegment(first);
      // Read synchronously: opening is all this process does yet, and with a million items the
      // promise-based read costs more than twice as much (measured by `npm run bench -- p8`).
      seg.db.data = parseSegment(file) as T[];
      if (!Array.isArray(seg.db.data)) throw new CorruptFileError(file, 'not a JSON array');
      for (const item of seg.db.data) {
        if (typeof item?.id !== 'number' || item.id < first || item.id >= first + segmentSize || item.id <= c.lastId) {
          throw new CorruptFileError(file, `item id ${String(item?.id)} out of order or outside the segment`);
        }
        c.lastId = item.id;
      }
      c.segments.push(seg);
      onSegment?.(seg.db.data);
    }
    await removeStaleTemp(c.lastIdFile.file);
    const meta = await c.lastIdFile.read();
    if (meta !== null && Number.isSafeInteger(meta.lastId) && meta.lastId > c.lastId) c.lastId = meta.lastId;
    return c;
  }

  private makeSegment(first: number): Segment<T> {
    const file = join(this.dir, `seg-${String(first).padStart(12, '0')}.json`);
    const seg = { first, text: null } as Segment<T>;
    seg.adapter = new DurableJSONFile<T[]>(file, 0o600, (items) => this.serialize(seg, items));
    seg.db = new Low<T[]>(seg.adapter, []);
    return seg;
  }

  /** JSON of a segment: the open one from its items' kept text, older ones in one go (as JSON.stringify). */
  private serialize(seg: Segment<T>, items: T[]): string {
    const open = seg === this.segments[this.segments.length - 1];
    if (!open) {
      seg.text = null;
      return JSON.stringify(items);
    }
    const text = (seg.text ??= new Map());
    const parts = new Array<string>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      let t = text.get(item.id);
      if (t === undefined) text.set(item.id, (t = JSON.stringify(item)));
      parts[i] = t;
    }
    return `[${parts.join(',')}]`;
  }

  get size(): number {
    let n = 0;
    for (const s of this.segments) n += s.db.data.length;
    return n;
  }

  get maxId(): number {
    return this.lastId;
  }

  get segmentCount(): number {
    return this.segments.length;
  }

  /** Next id `append` will assign. */
  nextId(): number {
    return this.lastId + 1;
  }

  private segmentFor(id: number): Segment<T> | undefined {
    const first = Math.floor((id - 1) / this.segmentSize) * this.segmentSize + 1;
    // Segments are sorted by `first`; binary search.
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = this.segments[mid]!.first;
      if (f === first) return this.segments[mid];
      if (f < first) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Adds an item (its id is assigned here) in memory and returns it; `save(id)` makes it durable. */
  append(item: Omit<T, 'id'>): T {
    const id = this.lastId + 1;
    const full = { ...item, id } as T;
    let seg = this.segmentFor(id);
    if (!seg) {
      seg = this.makeSegment(Math.floor((id - 1) / this.segmentSize) * this.segmentSize + 1);
      // The previous open segment is history now: its kept text goes.
      const previous = this.segments[this.segments.length - 1];
      if (previous) previous.text = null;
      this.segments.push(seg);
    }
    seg.db.data.push(full);
    this.lastId = id;
    return full;
  }

  get(id: number): T | undefined {
    const seg = this.segmentFor(id);
    if (!seg) return undefined;
    const arr = seg.db.data;
    let lo = 0;
    let hi = arr.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = arr[mid]!.id;
      if (v === id) return arr[mid];
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Removes an item from memory; `save(id)` makes it durable. */
  remove(id: number): boolean {
    const seg = this.segmentFor(id);
    if (!seg) return false;
    const idx = seg.db.data.findIndex((x) => x.id === id);
    if (idx < 0) return false;
    seg.db.data.splice(idx, 1);
    seg.text?.delete(id);
    return true;
  }

  /** Persists the segments holding these ids (the caller mutated them in memory). */
  async save(...ids: number[]): Promise<void> {
    const segs = new Set<Segment<T>>();
    for (const id of ids) {
      const s = this.segmentFor(id);
      if (s) {
        segs.add(s);
        s.text?.delete(id);
      }
    }
    const writes = [...segs].map((s) => s.db.write());
    // The newest item was removed: remember the highest id, or a reopen would assign it again.
    const last = this.segments[this.segments.length - 1]?.db.data;
    if (this.lastId > 0 && last?.[last.length - 1]?.id !== this.lastId) {
      writes.push(this.lastIdFile.write({ lastId: this.lastId }));
    }
    await Promise.all(writes);
  }

  *all(): IterableIterator<T> {
    for (const s of this.segments) yield* s.db.data;
  }

  /**
   * Every file of the collection as of now, synchronously: `clean` files hold
   * exactly `data` on disk (no write in flight or failed), so a snapshot may
   * hard-link them; the others must be taken from `data`.
   */
  files(): { file: string; clean: boolean; data: unknown }[] {
    const out = this.segments.map((s) => ({ file: s.adapter.file, clean: s.adapter.clean, data: s.db.data as unknown }));
    out.push({ file: this.lastIdFile.file, clean: this.lastIdFile.clean, data: { lastId: this.lastId } });
    return out;
  }

  async settled(): Promise<void> {
    await Promise.all([...this.segments.map((s) => s.adapter.settled()), this.lastIdFile.settled()]);
  }
}
