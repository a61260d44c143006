/**
 * A message segment as the collection keeps it (./segmented.ts), and what a write of one puts on disk.
 */
import type { DurableJSONFile, TailPatch } from './durable-file.js';
import type { Identified } from './segment-files.js';

export interface Segment<T> {
  first: number; // first id this segment may hold
  /** The items, when in memory (the cache); read through `dataOf`, which loads them on demand. */
  data: T[] | null;
  /** The items last held, after they left the cache: the same objects come back while anything still holds one. */
  weak: WeakRef<T[]> | null;
  /** Items in the segment (kept while its data is out of memory). */
  count: number;
  /** Bytes of its file when last read or written: what it costs the cache. */
  bytes: number;
  /** Writes the file whole (temp file, rename) or patches its tail in place; segments changed together go through writeTogether. */
  writer: DurableJSONFile<string | Buffer | TailPatch>;
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

/**
 * What a write of a segment puts on disk. Older segments are written whole (JSON.stringify).
 * The open one is made from its items' kept bytes: while its file is known, only new items and
 * new versions of changed ones are written, over the closing `]`, in place (a send then writes
 * its own message, not the segment's thousand); else, or once superseded copies outweigh the
 * live items, it is written whole, byte for byte as JSON.stringify.
 */
export function serializeSegment<T extends Identified>(seg: Segment<T>, items: T[], open: boolean, find: (id: number) => T | undefined): string | Buffer | TailPatch {
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
      const item = find(id);
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

