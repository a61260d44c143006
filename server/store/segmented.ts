import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptFileError, DurableJSONFile, fsyncFile, removeStaleTemp, type TailPatch } from './durable-file.js';
import { findById, findSorted, type Identified, latestCopies, own, parseSegment, readSegmentItems, segmentFileName } from './segment-files.js';
import { FlushQueue, finishPendingWrite, joinSets, writeTogether } from './segment-writes.js';
import { Sidecars, writeSidecar, type SidecarCodec } from './segment-sidecar.js';
import { PointReads } from './segment-points.js';
import { serializeSegment, type Segment } from './segment-serialize.js';

export type { Identified, SidecarCodec };

/** One save(): the segments it changed (written together), and whether the highest id must be kept. */
interface SaveRequest<T> {
  segs: Set<Segment<T>>;
  lastId: boolean;
}

const SEGMENT_RE = /^seg-(\d{12})\.json$/;
const LAST_ID_FILE = 'last-id.json'; // the highest id ever assigned once the newest items were removed: ids are never reused

/**
 * An append-mostly collection of items with increasing integer ids, kept in fixed-size segment
 * files (`seg-<first id>.json`, `segmentSize` ids each). Appending writes only the new items, in place at the end of the open (last) segment's file,
 * and so does a change to one of its items (an edit, a reaction): its new version is appended and
 * the later copy counts, until copies outweigh the live items and the file is written whole
 * again. A change to an older segment rewrites that segment (never all of history); a change to
 * several lands all or nothing (./segment-writes.ts). After a machine crash cut an append short,
 * opening keeps the open segment's whole items (the torn file is kept beside it as `.torn-<time>`).
 *
 * Opening reads each segment's index sidecar (`sidecar.apply`), or, where it has none that
 * matches the file, the segment itself (`onSegment` sees its items: callers index there; its
 * sidecar is written then). Segments whose items were read stay in memory, in id order, within
 * `cacheBytes`, and others are read when asked for (`dataOf`), or one item alone (`get`, ./segment-points.ts). A segment
 * rewritten whole gets its sidecar again after the write; the open segment has none (it is always read).
 */
export class SegmentedCollection<T extends Identified> {
  private readonly segments: Segment<T>[] = [];
  /** Segments in memory, least recently used first (the open segment is always in memory). */
  private readonly cached = new Set<Segment<T>>();
  private cachedBytes = 0;
  private opening = true;
  /** Segments that left memory for the budget, and those opened from their sidecar (tests). */
  readonly stats = { evictions: 0, sidecars: 0 };
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
    /** Bytes of segment files kept in memory beyond the open segment and those with writes in flight. */
    readonly cacheBytes: number,
    /** Applied to each segment's items whenever they are read from disk (sharing, interning). */
    private readonly prepare: (items: T[]) => void,
    private readonly sidecars: Sidecars<T>,
  ) {
    this.lastIdFile = new DurableJSONFile(join(dir, LAST_ID_FILE));
    this.points = new PointReads(sidecars, prepare, cacheBytes / 4, (seg) => this.readItems(seg));
  }

  /** Items of segments out of memory, read alone (./segment-points.ts). */ readonly points: PointReads<T>;

  /**
   * Loads every segment. `onSegment` sees each segment's items right after it
   * is parsed (callers index there, while the parse garbage is still young); `highest` first hears the highest id there can be.
   */
  static async open<T extends Identified>(
    dir: string,
    segmentSize = 1000,
    onSegment?: (items: T[]) => void,
    opts: { cacheBytes?: number; prepare?: (items: T[]) => void; sidecar?: SidecarCodec<T>; highest?: (id: number) => void } = {},
  ): Promise<SegmentedCollection<T>> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const c = new SegmentedCollection<T>(dir, segmentSize, opts.cacheBytes ?? Number.POSITIVE_INFINITY, opts.prepare ?? (() => undefined), new Sidecars(opts.sidecar ?? null));
    let listing = await readdir(dir);
    // A change written to several files at once is finished (it was on disk) or dropped (it was not) first.
    const finished = await finishPendingWrite(dir, listing);
    if (finished.length) {
      c.finished.push(...finished);
      listing = await readdir(dir);
    }
    const [present, names] = [new Set(listing), listing.filter((n) => SEGMENT_RE.test(n)).sort()];
    opts.highest?.(names.length ? Number(SEGMENT_RE.exec(names[names.length - 1]!)![1]) + segmentSize - 1 : 0); // the highest id there can be: room at once
    for (const [index, name] of names.entries()) {
      const first = Number(SEGMENT_RE.exec(name)![1]);
      const file = join(dir, name);
      // Only where a temp file is left (a crash mid-write): one awaited unlink per segment costs seconds at 1M.
      if (present.has(`${name}.tmp`)) await removeStaleTemp(file);
      const seg = c.makeSegment(first);
      // Only the open segment is appended to in place, so only it (or the one before it, if the machine stopped
      // as a new segment began) may end torn: those are read whole, others through a sidecar matching the file.
      const mayBeTorn = index >= names.length - 2;
      const known = mayBeTorn ? null : c.sidecars.load(file, first, segmentSize, c.lastId);
      if (known) {
        [seg.count, c.lastId] = [known.count, known.count ? known.lastId : c.lastId];
        c.segments.push(seg);
        c.stats.sidecars++;
        continue;
      }
      // Read synchronously: opening is all this process does yet, and with a million items the
      // promise-based read costs more than twice as much (measured by `npm run bench -- p8`).
      const parsed = parseSegment(file, mayBeTorn);
      if (!Array.isArray(parsed.items)) throw new CorruptFileError(file, 'not a JSON array');
      const data = latestCopies(file, parsed.items as T[], first, segmentSize, c.lastId);
      seg.data = data;
      seg.count = data.length;
      seg.bytes = parsed.bytes;
      const last = data[data.length - 1];
      if (last) c.lastId = last.id;
      c.segments.push(seg);
      if (parsed.repaired) {
        // The torn file stays beside it for inspection; the segment is written whole again.
        const kept = `${file}.torn-${Date.now()}`;
        await copyFile(file, kept);
        await fsyncFile(kept);
        c.repaired.push({ file, kept, items: data.length });
        await seg.writer.write(c.serialize(seg, data));
      }
      c.prepare(data);
      for (const item of data) own(item, data);
      onSegment?.(data);
      if (index < names.length - 1) await c.sidecars.write(file, data);
      c.cache(seg, data);
    }
    await c.sidecars.removeTemps(dir, listing);
    c.opening = false;
    await removeStaleTemp(c.lastIdFile.file);
    const meta = await c.lastIdFile.read();
    if (meta !== null && Number.isSafeInteger(meta.lastId) && meta.lastId > c.lastId) c.lastId = meta.lastId;
    return c;
  }

  private makeSegment(first: number): Segment<T> {
    const file = join(this.dir, segmentFileName(first));
    const seg = { first, data: null, weak: null, count: 0, bytes: 0, requested: 0, landed: 0, text: null, disk: null, changed: new Set<number>() } as unknown as Segment<T>;
    seg.writer = new DurableJSONFile<string | Buffer | TailPatch>(file, 0o600, (content) => content);
    return seg;
  }

  private serialize(seg: Segment<T>, items: T[]): string | Buffer | TailPatch {
    return serializeSegment(seg, items, seg === this.segments[this.segments.length - 1], (id) => this.findIn(seg, id));
  }

  get size(): number {
    return this.segments.reduce((n, s) => n + s.count, 0);
  }

  /** Bytes of segment files in memory now, and how many segments. */
  get cacheUse(): { bytes: number; segments: number } {
    return { bytes: this.cachedBytes, segments: this.cached.size };
  }

  // ------------------------------------------------------------ the cache

  /** A segment's items, read from disk (synchronously: a few milliseconds) when not in memory. */
  private dataOf(seg: Segment<T>): T[] {
    if (seg.data) {
      // Most recently used last (the open segment stays in any case).
      this.cached.delete(seg);
      this.cached.add(seg);
      return seg.data;
    }
    let data = seg.weak?.deref();
    if (!data) {
      data = this.readItems(seg);
      // Items read alone before are the segment's from now on (the same objects).
      const alone = this.points.take(seg);
      for (let i = 0; i < data.length; i++) own((data[i] = alone?.get(data[i]!.id) ?? data[i]!), data);
    }
    seg.weak = null;
    this.cache(seg, data);
    return data;
  }

  /** A segment's items as its file holds them (not kept: the caller keeps or drops them). */
  private readItems(seg: Segment<T>): T[] {
    const { items, bytes } = readSegmentItems<T>(seg.writer.file, seg.first, this.segmentSize);
    seg.bytes = bytes;
    this.prepare(items);
    return items;
  }

  /** Puts a segment's items in memory, then lets the least recently used others go while over the budget. */
  private cache(seg: Segment<T>, data: T[]): void {
    seg.data = data;
    this.cached.delete(seg);
    this.cached.add(seg);
    this.cachedBytes += seg.bytes;
    if (this.cachedBytes <= this.cacheBytes) return;
    const open = this.segments[this.segments.length - 1];
    for (const s of this.cached) {
      if (this.cachedBytes <= this.cacheBytes) break;
      // Never the one just asked for, the open one, or one whose file does not hold it yet.
      if (s === seg || s === open || s.requested !== s.landed || s.text) continue;
      this.cached.delete(s);
      this.cachedBytes -= s.bytes;
      // While opening nothing else holds an item yet: no WeakRef, which would keep every segment
      // read in this synchronous step alive until it ends (all of history at once).
      s.weak = this.opening ? null : new WeakRef(s.data!);
      s.data = null;
      this.stats.evictions++;
    }
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
    // Segments are sorted by `first`.
    return findSorted(this.segments, Math.floor((id - 1) / this.segmentSize) * this.segmentSize + 1, (s) => s.first);
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
        this.sidecars.markDue(previous);
      }
      this.segments.push(seg);
      this.cache(seg, []);
    }
    const data = seg.data ?? this.dataOf(seg);
    data.push(full);
    own(full, data);
    seg.count++;
    this.lastId = id;
    return full;
  }

  /**
   * The item; from a segment out of memory it is read alone (./segment-points.ts), unless `whole` (a
   * reader of many). `peek`: to read, not change: an item read alone for it is not kept (a scan).
   */
  get(id: number, whole = false, peek = false): T | undefined {
    const seg = this.segmentFor(id);
    if (!seg) return undefined;
    const alone = whole || seg.data || seg.weak?.deref() ? undefined : this.points.read(seg, id, peek);
    return alone === undefined ? this.findIn(seg, id) : (alone ?? undefined);
  }

  private findIn(seg: Segment<T>, id: number): T | undefined {
    return findById(this.dataOf(seg), id);
  }

  /** Removes an item from memory; `save(id)` makes it durable. */
  remove(id: number): boolean {
    const seg = this.segmentFor(id);
    if (!seg) return false;
    const data = this.dataOf(seg);
    const idx = data.findIndex((x) => x.id === id);
    if (idx < 0) return false;
    data.splice(idx, 1);
    seg.count--;
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
    const open = this.segments[this.segments.length - 1];
    const last = open ? this.dataOf(open) : undefined;
    const lastId = this.lastId > 0 && last?.[last.length - 1]?.id !== this.lastId;
    return this.flushes.request({ segs, lastId });
  }

  /**
   * One flush. The saves are joined into sets of segments (saves sharing a segment join); a set of
   * one file is written as before (the open segment's tail patched in place), a set of several with
   * writeTogether (the open segment among them written whole). The highest id goes first.
   */
  private async flush(reqs: SaveRequest<T>[]): Promise<({ error: unknown } | null)[]> {
    const sets = joinSets(reqs.map((r) => r.segs));
    // --- Synchronously: every file's contents as of now.
    const open = this.segments[this.segments.length - 1];
    const planned = sets.map((set) =>
      [...set].map((seg) => {
        if (set.size > 1 && seg === open) seg.disk = null; // written whole: a set is made of whole files
        const data = this.dataOf(seg);
        // A segment other than the open one gets its sidecar as of the same instant.
        const side = seg !== open ? this.sidecars.of(data) : null;
        return { seg, covers: seg.requested, content: this.serialize(seg, data), side };
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
          for (const { seg, covers, content, side } of set) {
            // Right after the write, before another flush may write the file again.
            if (side) await writeSidecar(seg.writer.file, side.count, side.lastId, side.body);
            seg.landed = covers;
            // What it costs the cache now.
            const bytes = typeof content === 'string' || Buffer.isBuffer(content) ? content.length : (seg.disk?.bytes ?? seg.bytes);
            if (seg.data && this.cached.has(seg)) this.cachedBytes += bytes - seg.bytes;
            seg.bytes = bytes;
          }
        } catch (error) {
          for (const { seg } of set) {
            seg.disk = null; // what the file holds is not known now: the next write replaces it whole
            failed.set(seg, error);
          }
        }
      }),
    );
    // The segment that was open until a new one began: its file is final until a change rewrites it.
    await this.sidecars.writeDue(open, (seg) => this.dataOf(seg));
    return reqs.map((r) => {
      for (const s of r.segs) if (failed.has(s)) return { error: failed.get(s) };
      return null;
    });
  }

  *all(): IterableIterator<T> {
    // To read (an export): a segment out of memory is read for this alone, not kept (a WeakRef would keep all of history to the job's end).
    for (const s of this.segments) yield* s.data ?? s.weak?.deref() ?? this.points.overlay(s, this.readItems(s));
  }

  /**
   * Every file of the collection as of now, synchronously: `clean` files hold
   * exactly `data` on disk (no write in flight or failed), so a snapshot may
   * hard-link them; the others must be taken from `data`.
   */
  files(): { file: string; clean: boolean; data: unknown; first?: number }[] {
    // The open segment's file is appended to in place: a hard link to it would change with it.
    const open = this.segments[this.segments.length - 1];
    const self = this;
    const out: { file: string; clean: boolean; data: unknown; first?: number }[] = this.segments.map((s) => {
      const clean = s.requested === s.landed && s !== open;
      // A clean file is hard-linked, its items read only if it cannot be (from the file, which holds them).
      return clean
        ? { file: s.writer.file, first: s.first, clean, get data(): unknown { return self.dataOf(s); } }
        : { file: s.writer.file, first: s.first, clean, data: this.dataOf(s) as unknown };
    });
    out.push({ file: this.lastIdFile.file, clean: this.lastIdFile.clean, data: { lastId: this.lastId } });
    return out;
  }

  async settled(): Promise<void> {
    await this.flushes.settled();
    await this.lastIdFile.settled();
  }
}
