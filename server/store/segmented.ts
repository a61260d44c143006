import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptFileError, DurableJSONFile, fsyncFile, removeStaleTemp, type TailPatch } from './durable-file.js';
import { type Identified, latestCopies, parseSegment } from './segment-files.js';
import { FlushQueue, finishPendingWrite, writeTogether } from './segment-writes.js';

export type { Identified };

type Content = string | Buffer | TailPatch;

/** One save(): the segments it changed (written together), and whether the highest id must be kept. */
interface SaveRequest<T> {
  segs: Set<Segment<T>>;
  lastId: boolean;
}

interface Segment<T> {
  first: number; // first id this segment may hold
  data: T[];
  /** Writes the file whole (temp file, rename) or patches its tail in place; segments changed together go through writeTogether. */
  writer: DurableJSONFile<Content>;
  /** Saves asked for, and how many of them the file holds: the file holds `data` when they are equal. */
  requested: number;
  landed: number;
  /**
   * The open (last) segment's items as UTF-8 JSON bytes, by id, reused while unchanged: appending a
   * message then costs its own serialisation, not the segment's. An item's text is dropped
   * whenever it is saved or removed (every change to an item is followed by save(its id)).
   */
  text: Map<number, Buffer> | null;
  /**
   * The open segment's file as its last write left it (planned, or done): its length in bytes,
   * the newest id in it and the bytes of copies later ones superseded, so the next write may
   * append in place. null when unknown (after a start, a failed write, a removal): the next
   * write replaces the file whole.
   */
  disk: { bytes: number; lastId: number; copies: number } | null;
  /**
   * IDs of items the open segment's file holds (as of `disk`) that changed since: the next write
   * appends their new versions after the file's items (a later copy of an ID replaces an earlier
   * one when the file is read), until copies outweigh the live items and the file is rewritten.
   */
  changed: Set<number>;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

const SEGMENT_RE = /^seg-(\d{12})\.json$/;
/** Holds the highest id ever assigned once the newest items were removed, so ids are never reused. */
const LAST_ID_FILE = 'last-id.json';

/**
 * An append-mostly collection of items with increasing integer ids, kept in
 * fixed-size segment files (`seg-<first id>.json`, `segmentSize` ids each).
 * Appending writes only the new items, in place at the end of the open (last) segment's file,
 * and so does a change to one of its items (read flags, mostly): its new version is appended and
 * the later copy counts, until copies outweigh the live items and the file is written whole
 * again. A change to an older segment rewrites that segment. History is never rewritten as a
 * whole. A change to several segments lands all or nothing (./segment-writes.ts). After a machine crash cut an append short, opening keeps the open segment's whole items
 * (the torn file is kept beside it as `.torn-<time>`).
 *
 * Every item is also held in memory, in id order, for fast reads; callers
 * build their own indexes from `all()` at load.
 */
export class SegmentedCollection<T extends Identified> {
  private readonly segments: Segment<T>[] = [];
  private lastId = 0;
  /** Segment files cut back to their whole items at open (a torn append), each with where the torn copy was kept. */
  readonly repaired: { file: string; kept: string; items: number }[] = [];
  private readonly lastIdFile: DurableJSONFile<{ lastId: number }>;
  private readonly flushes = new FlushQueue<SaveRequest<T>>((reqs) => this.flush(reqs));
  /** Files of a change written together that opening finished (the process had stopped after the change was on disk). */
  readonly finished: string[] = [];

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
    let listing = await readdir(dir);
    // A change written to several files at once is finished (it was on disk) or dropped (it was not) first.
    const finished = await finishPendingWrite(dir, listing);
    if (finished.length) {
      c.finished.push(...finished);
      listing = await readdir(dir);
    }
    const present = new Set(listing);
    const names = listing.filter((n) => SEGMENT_RE.test(n)).sort();
    for (const [index, name] of names.entries()) {
      const first = Number(SEGMENT_RE.exec(name)![1]);
      const file = join(dir, name);
      // Only where a temp file is left (a crash mid-write): one awaited unlink per segment costs seconds at 1M.
      if (present.has(`${name}.tmp`)) await removeStaleTemp(file);
      const seg = c.makeSegment(first);
      // Read synchronously: opening is all this process does yet, and with a million items the
      // promise-based read costs more than twice as much (measured by `npm run bench -- p8`).
      // Only the open segment is appended to in place, so only the last one (or the one before it,
      // if the machine stopped just as a new segment began) may end in a torn append.
      const parsed = parseSegment(file, index >= names.length - 2);
      if (!Array.isArray(parsed.items)) throw new CorruptFileError(file, 'not a JSON array');
      seg.data = latestCopies(file, parsed.items as T[], first, segmentSize, c.lastId);
      const last = seg.data[seg.data.length - 1];
      if (last) c.lastId = last.id;
      c.segments.push(seg);
      if (parsed.repaired) {
        // The torn file stays beside it for inspection; the segment is written whole again.
        const kept = `${file}.torn-${Date.now()}`;
        await copyFile(file, kept);
        await fsyncFile(kept);
        c.repaired.push({ file, kept, items: seg.data.length });
        await seg.writer.write(c.serialize(seg, seg.data));
      }
      onSegment?.(seg.data);
    }
    await removeStaleTemp(c.lastIdFile.file);
    const meta = await c.lastIdFile.read();
    if (meta !== null && Number.isSafeInteger(meta.lastId) && meta.lastId > c.lastId) c.lastId = meta.lastId;
    return c;
  }

  private makeSegment(first: number): Segment<T> {
    const file = join(this.dir, `seg-${String(first).padStart(12, '0')}.json`);
    const seg = { first, data: [], requested: 0, landed: 0, text: null, disk: null, changed: new Set<number>() } as unknown as Segment<T>;
    seg.writer = new DurableJSONFile<Content>(file, 0o600, (content) => content);
    return seg;
  }

  /**
   * What a write of a segment puts on disk. Older segments are written whole (JSON.stringify).
   * The open one is made from its items' kept bytes: while its file is known, only new items and
   * new versions of changed ones are written, over the closing `]`, in place (a send then writes
   * its own message, not the segment's thousand); else, or once superseded copies outweigh the
   * live items, it is written whole, byte for byte as JSON.stringify.
   */
  private serialize(seg: Segment<T>, items: T[]): string | Buffer | TailPatch {
    const open = seg === this.segments[this.segments.length - 1];
    if (!open) {
      seg.text = null;
      seg.disk = null;
      seg.changed.clear();
      return JSON.stringify(items);
    }
    const text = (seg.text ??= new Map());
    const jsonOf = (item: T) => {
      let t = text.get(item.id);
      if (t === undefined) text.set(item.id, (t = Buffer.from(JSON.stringify(item))));
      return t;
    };
    const disk = seg.disk;
    const newest = items.length > 0 ? items[items.length - 1]!.id : 0;
    if (disk && disk.bytes >= 2 && (newest > disk.lastId || seg.changed.size > 0)) {
      let from = items.length;
      while (from > 0 && items[from - 1]!.id > disk.lastId) from--;
      const parts: Buffer[] = [];
      let copies = disk.copies;
      // New versions of held items first (in ID order), then the new items; a later copy wins.
      for (const id of [...seg.changed].sort((a, b) => a - b)) {
        const item = this.findIn(seg, id);
        if (!item) continue;
        const json = jsonOf(item);
        parts.push(COMMA, json);
        copies += json.length + 1;
      }
      for (let i = from; i < items.length; i++) parts.push(COMMA, jsonOf(items[i]!));
      if (disk.bytes === 2 && parts.length > 0) parts.shift(); // `[]`: no comma before the first item
      parts.push(CLOSE);
      const tail = Buffer.concat(parts);
      const bytes = disk.bytes - 1 + tail.length;
      // Until the superseded copies outweigh the live items; then the segment is written whole again.
      if (copies <= bytes - copies + 65_536) {
        seg.changed.clear();
        seg.disk = { bytes, lastId: Math.max(disk.lastId, newest), copies };
        return { at: disk.bytes - 1, bytes: tail, undo: CLOSE };
      }
    }
    seg.changed.clear();
    // The file's bytes from the kept ones, copied once (no string of the whole segment to build and encode).
    const parts: Buffer[] = [OPEN];
    for (let i = 0; i < items.length; i++) {
      if (i > 0) parts.push(COMMA);
      parts.push(jsonOf(items[i]!));
    }
    parts.push(CLOSE);
    const whole = Buffer.concat(parts);
    seg.disk = { bytes: whole.length, lastId: newest, copies: 0 };
    return whole;
  }

  get size(): number {
    let n = 0;
    for (const s of this.segments) n += s.data.length;
    return n;
  }

  /** IDs up to `id` are never assigned (another file counted them as used); the next save keeps that. */
  reserveThrough(id: number): void {
    if (id > this.lastId) this.lastId = id;
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
      if (previous) {
        previous.text = null;
        previous.disk = null;
      }
      this.segments.push(seg);
    }
    seg.data.push(full);
    this.lastId = id;
    return full;
  }

  get(id: number): T | undefined {
    const seg = this.segmentFor(id);
    return seg ? this.findIn(seg, id) : undefined;
  }

  private findIn(seg: Segment<T>, id: number): T | undefined {
    const arr = seg.data;
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
    const idx = seg.data.findIndex((x) => x.id === id);
    if (idx < 0) return false;
    seg.data.splice(idx, 1);
    seg.text?.delete(id);
    seg.disk = null;
    return true;
  }

  /**
   * Persists the segments holding these ids (the caller mutated them in memory): all of them or
   * none, whenever the process stops. One flush at a time, covering every save asked for since the
   * last one began; its segments are serialised at once, so a file never holds part of a change
   * whose other files wait for a later flush.
   */
  save(...ids: number[]): Promise<void> {
    const segs = new Set<Segment<T>>();
    for (const id of ids) {
      const s = this.segmentFor(id);
      if (s) {
        segs.add(s);
        s.text?.delete(id);
        // A change to an item the open segment's file already holds: the next write appends its new version.
        if (s.disk && id <= s.disk.lastId) s.changed.add(id);
      }
    }
    for (const s of segs) s.requested++;
    // The newest item was removed: remember the highest id, or a reopen would assign it again.
    const last = this.segments[this.segments.length - 1]?.data;
    const lastId = this.lastId > 0 && last?.[last.length - 1]?.id !== this.lastId;
    return this.flushes.request({ segs, lastId });
  }

  /**
   * One flush. The saves are joined into sets of segments (saves sharing a segment join); a set of
   * one file is written as before (the open segment's tail patched in place), a set of several with
   * writeTogether (the open segment among them written whole). The highest id goes first.
   */
  private async flush(reqs: SaveRequest<T>[]): Promise<({ error: unknown } | null)[]> {
    const sets: Set<Segment<T>>[] = [];
    for (const r of reqs) {
      const joined = new Set(r.segs);
      for (let i = sets.length - 1; i >= 0; i--) {
        if ([...sets[i]!].some((s) => joined.has(s))) for (const s of sets.splice(i, 1)[0]!) joined.add(s);
      }
      if (joined.size) sets.push(joined);
    }
    // --- Synchronously: every file's contents as of now.
    const open = this.segments[this.segments.length - 1];
    const planned = sets.map((set) =>
      [...set].map((seg) => {
        if (set.size > 1 && seg === open) seg.disk = null; // written whole: a set is made of whole files
        return { seg, covers: seg.requested, content: this.serialize(seg, seg.data) };
      }),
    );
    const lastId = reqs.some((r) => r.lastId) ? { lastId: this.lastId } : null;
    // ---
    const failed = new Map<Segment<T>, unknown>();
    try {
      if (lastId) await this.lastIdFile.write(lastId);
    } catch (error) {
      for (const set of planned) for (const { seg } of set) seg.disk = null;
      return reqs.map(() => ({ error }));
    }
    await Promise.all(
      planned.map(async (set) => {
        try {
          if (set.length === 1) await set[0]!.seg.writer.write(set[0]!.content);
          else await writeTogether(this.dir, set.map(({ seg, content }) => ({ file: seg.writer.file, bytes: content as string | Buffer })));
          for (const { seg, covers } of set) seg.landed = covers;
        } catch (error) {
          for (const { seg } of set) {
            seg.disk = null; // what the file holds is not known now: the next write replaces it whole
            failed.set(seg, error);
          }
        }
      }),
    );
    return reqs.map((r) => {
      for (const s of r.segs) if (failed.has(s)) return { error: failed.get(s) };
      return null;
    });
  }

  *all(): IterableIterator<T> {
    for (const s of this.segments) yield* s.data;
  }

  /**
   * Every file of the collection as of now, synchronously: `clean` files hold
   * exactly `data` on disk (no write in flight or failed), so a snapshot may
   * hard-link them; the others must be taken from `data`.
   */
  files(): { file: string; clean: boolean; data: unknown }[] {
    // The open segment's file is appended to in place: a hard link to it would change with it.
    const open = this.segments[this.segments.length - 1];
    const out = this.segments.map((s) => ({ file: s.writer.file, clean: s.requested === s.landed && s !== open, data: s.data as unknown }));
    out.push({ file: this.lastIdFile.file, clean: this.lastIdFile.clean, data: { lastId: this.lastId } });
    return out;
  }

  async settled(): Promise<void> {
    await this.flushes.settled();
    await this.lastIdFile.settled();
  }
}
