/**
 * Reading one item of a segment that is not in memory (./segmented.ts): its sidecar says where
 * each item is in the segment file (./segment-sidecar.ts Layout), so a fetch of old history reads
 * the few hundred bytes of each message it shows rather than parsing each segment they are in
 * (a topic's hundred messages may lie in dozens of segments: ~1.4 ms each at 5 million messages).
 *
 * An item read alone is kept ("loose") until its segment is read whole, which then takes it as
 * its own (the same object: a change made to it before its save is not lost). Past LOOSE_MAX
 * items, at the end of a turn of the event loop (never during one: an action may change items it
 * read and save them at its end), the least recently used segments' loose items are let go with
 * a WeakRef, each item linked to them, so that one a caller still holds is found again. A reader
 * that only looks (`peek`: a scan) keeps nothing. A layout is used only while the sidecar matches
 * the file; a segment read whole forgets its layout.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { own, type Identified } from './segment-files.js';
import type { Segment } from './segment-serialize.js';
import type { Layout, Sidecars } from './segment-sidecar.js';

const LOOSE_MAX = 20_000;
const LAYOUTS_MAX = 1024;
const WHOLE_AFTER = 32;

export class PointReads<T extends Identified> {
  /** Layouts of segments read from lately (null: read whole), least recently used first. */
  private readonly layouts = new Map<Segment<T>, Layout | null>();
  /** Items read alone, by segment, least recently used first. */
  private readonly loose = new Map<Segment<T>, Map<number, T>>();
  private looseCount = 0;
  /** Loose items let go (each links to its map: held anywhere, they are found again). */
  private readonly weakLoose = new Map<Segment<T>, WeakRef<Map<number, T>>>();
  private trimming = false;
  /** Items read alone only to be looked at, by segment, and their JSON's bytes (dropped whenever over `peekBytes`). */
  private readonly peeked = new Map<Segment<T>, { items: Map<number, T>; bytes: number; whole: boolean; turn: number; reads: number }>();
  private peekedBytes = 0;
  /** Turns of the event loop with reads (a segment's reads count towards WHOLE_AFTER within one turn). */
  private turn = 0;
  private turnEnding = false;
  /** The buffer sidecars are read into for their layouts. */
  private readonly scratch = { buf: Buffer.allocUnsafeSlow(0) };
  /** Items read alone (tests, benchmarks). */
  reads = 0;

  constructor(
    private readonly sidecars: Sidecars<T>,
    private readonly prepare: (items: T[]) => void,
    /** JSON bytes of items looked at kept for the next look. */
    private readonly peekBytes: number,
    /** A segment's items read whole, not kept (a scan looking at many of one segment). */
    private readonly readWhole: (seg: Segment<T>) => T[],
  ) {}

  /**
   * The item, read alone: null when the segment does not hold it, undefined when it cannot be
   * read alone (the segment is then to be read whole). `peek`: not kept (the caller only looks).
   */
  read(seg: Segment<T>, id: number, peek = false): T | null | undefined {
    const items = this.loose.get(seg);
    const kept = items?.get(id) ?? this.weakLoose.get(seg)?.deref()?.get(id);
    if (kept) return kept;
    const seen = this.peeked.get(seg);
    const looked = seen?.items.get(id);
    if (looked) {
      // Never changed (a peeker only looks): as read from the file, so it may be kept as it is.
      if (!peek) this.keep(seg, id, looked);
      return looked;
    }
    if (seen?.whole) return null;
    // A scan: past WHOLE_AFTER messages of one segment read alone in one turn (one slice of a scan), the rest are read
    // with it whole (one parse, not a read each). Not across turns: pages of several channels shown one after another
    // would add up to it, and the segments read whole then crowded the pages out of `peekBytes`.
    if (peek && seen && seen.turn === this.turn && seen.reads >= WHOLE_AFTER) {
      for (const item of this.readWhole(seg)) if (!seen.items.has(item.id)) seen.items.set(item.id, item);
      this.peekedBytes += seg.bytes - seen.bytes;
      [seen.bytes, seen.whole] = [seg.bytes, true];
      this.trimPeeked();
      return seen.items.get(id) ?? null;
    }
    let layout = this.layouts.get(seg);
    if (layout === undefined) {
      layout = this.sidecars.layout(seg.writer.file, this.scratch);
      if (this.layouts.size >= LAYOUTS_MAX) this.layouts.delete(this.layouts.keys().next().value!);
    } else this.layouts.delete(seg);
    this.layouts.set(seg, layout);
    if (!layout) return undefined;
    let lo = 0;
    let hi = layout.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = layout.ids[mid]!;
      if (v === id) return this.readAt(seg, id, layout.offsets[mid]!, layout.lengths[mid]!, peek);
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  private readAt(seg: Segment<T>, id: number, offset: number, length: number, peek: boolean): T | undefined {
    const buf = Buffer.allocUnsafe(length);
    const fd = openSync(seg.writer.file, 'r');
    let item: T | undefined;
    try {
      if (readSync(fd, buf, 0, length, offset) === length) item = JSON.parse(buf.toString('utf8')) as T;
    } catch {
      item = undefined;
    } finally {
      closeSync(fd);
    }
    if (item?.id !== id) {
      // Not where the layout said: the segment is read whole from now on.
      this.layouts.set(seg, null);
      return undefined;
    }
    this.prepare([item]);
    this.reads++;
    if (peek) {
      // Kept for the next look (a page of history shown again) within `peekBytes` of their JSON; the oldest go at once.
      let looked = this.peeked.get(seg);
      if (looked) this.peeked.delete(seg);
      this.peeked.set(seg, (looked ??= { items: new Map(), bytes: 0, whole: false, turn: this.turn, reads: 0 }));
      if (looked.turn !== this.turn) [looked.turn, looked.reads] = [this.turn, 0];
      looked.reads++;
      if (!this.turnEnding) {
        this.turnEnding = true;
        setImmediate(() => {
          this.turn++;
          this.turnEnding = false;
        }).unref();
      }
      looked.items.set(id, item);
      looked.bytes += length;
      this.peekedBytes += length;
      this.trimPeeked();
      return item;
    }
    this.keep(seg, id, item);
    return item;
  }

  private trimPeeked(): void {
    while (this.peekedBytes > this.peekBytes && this.peeked.size > 1) {
      const [oldest, its] = this.peeked.entries().next().value!;
      this.peeked.delete(oldest);
      this.peekedBytes -= its.bytes;
    }
  }

  private keep(seg: Segment<T>, id: number, item: T): void {
    let items = this.loose.get(seg);
    if (!items) {
      // Those let go before (and still held somewhere) come back with it.
      items = new Map(this.weakLoose.get(seg)?.deref());
      this.weakLoose.delete(seg);
      this.looseCount += items.size;
    } else this.loose.delete(seg);
    this.loose.set(seg, items);
    items.set(id, item);
    own(item, items);
    if (++this.looseCount > LOOSE_MAX && !this.trimming) {
      this.trimming = true;
      setImmediate(() => this.trim()).unref();
    }
  }

  /** At the end of a turn: the least recently used segments' loose items beyond LOOSE_MAX, let go with a WeakRef. */
  private trim(): void {
    this.trimming = false;
    while (this.looseCount > LOOSE_MAX && this.loose.size > 1) {
      const [oldest, items] = this.loose.entries().next().value!;
      this.loose.delete(oldest);
      this.looseCount -= items.size;
      this.weakLoose.set(oldest, new WeakRef(items));
    }
    for (const [seg, ref] of this.weakLoose) if (!ref.deref()) this.weakLoose.delete(seg);
  }

  /** A segment's items read whole only to be looked at, with the ones kept from reading alone in their places. */
  overlay(seg: Segment<T>, items: T[]): T[] {
    const kept = this.loose.get(seg);
    const weak = this.weakLoose.get(seg)?.deref();
    if (kept || weak) for (let i = 0; i < items.length; i++) items[i] = kept?.get(items[i]!.id) ?? weak?.get(items[i]!.id) ?? items[i]!;
    return items;
  }

  /** The segment is read whole: the items read alone so far (they are to replace the copies just read). */
  take(seg: Segment<T>): Map<number, T> | undefined {
    this.layouts.delete(seg);
    // Looked at before, maybe older than what is about to change: read again next time.
    this.peekedBytes -= this.peeked.get(seg)?.bytes ?? 0;
    this.peeked.delete(seg);
    const items = this.loose.get(seg);
    const weak = this.weakLoose.get(seg)?.deref();
    this.weakLoose.delete(seg);
    if (!items) return weak;
    this.loose.delete(seg);
    this.looseCount -= items.size;
    if (weak) for (const [id, item] of weak) if (!items.has(id)) items.set(id, item);
    return items;
  }
}
