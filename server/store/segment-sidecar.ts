/**
 * A segment's index sidecar (`seg-<first>.idx` beside `seg-<first>.json`): what opening needs of
 * the segment (its count, its last ID, and the body its collection's owner encoded: the message
 * store keeps each message's place, sender and rows), so that a start reads numbers instead of
 * parsing every segment's JSON.
 *
 * A sidecar is a cache, never the truth: it names the segment file it was made from (size,
 * modification time, inode), and one that does not match the file as it is now, or that is torn
 * (length and checksum), is ignored and the segment parsed instead. So it is written without
 * fsync, after its segment is on disk, and a lost or stale one costs only a parse.
 *
 * Layout: "HSX1", u32 header length, header JSON, u32 body length, u32 checksum of the body, body.
 */
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import type { Identified } from './segment-files.js';
import type { Segment } from './segment-serialize.js';

const MAGIC = 0x31585348; // "HSX1" little-endian
const VERSION = 3;

interface Header {
  v: number;
  size: number;
  mtimeMs: number;
  ino: number;
  count: number;
  lastId: number;
}

export interface Sidecar {
  count: number;
  lastId: number;
  body: Buffer;
  /** The segment file's size (it is as the sidecar says). */
  size: number;
}

export const sidecarPath = (segmentFile: string): string => segmentFile.replace(/\.json$/, '.idx');

/** CRC-32 of the bytes (zlib's, native, from Node 20.15: a torn or zero-filled tail shows). */
export function checksum(buf: Uint8Array): number {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(buf);
  let c = ~0;
  for (let i = 0; i < buf.length; i++) {
    c ^= buf[i]!;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

const matches = (h: Header, s: Stats): boolean => h.v === VERSION && h.size === s.size && h.mtimeMs === s.mtimeMs && h.ino === s.ino;

/**
 * The sidecar of `segmentFile` when it describes the file as it is now, else null (missing, stale,
 * torn, another version). Synchronous: opening reads thousands of them and does nothing else yet.
 * With `scratch`, read into its buffer (grown as needed): the body is then valid until the next read.
 */
export function readSidecar(segmentFile: string, scratch?: { buf: Buffer }): Sidecar | null {
  let fd: number;
  try {
    fd = openSync(sidecarPath(segmentFile), 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    if (size < 16) return null;
    // One buffer for every sidecar an open reads (a fresh one each left ~27 KB a segment of heap high-water behind).
    if (scratch && scratch.buf.length < size) scratch.buf = Buffer.allocUnsafeSlow(Math.max(size, scratch.buf.length * 2));
    const buf = scratch ? scratch.buf.subarray(0, size) : Buffer.allocUnsafe(size);
    if (readSync(fd, buf, 0, size, 0) !== size) return null;
    if (buf.readUInt32LE(0) !== MAGIC) return null;
    const headerLen = buf.readUInt32LE(4);
    if (8 + headerLen + 8 > size) return null;
    const header = JSON.parse(buf.toString('utf8', 8, 8 + headerLen)) as Header;
    const at = 8 + headerLen;
    const bodyLen = buf.readUInt32LE(at);
    if (at + 8 + bodyLen !== size) return null;
    const body = buf.subarray(at + 8);
    if (checksum(body) !== buf.readUInt32LE(at + 4)) return null;
    if (!matches(header, statSync(segmentFile))) return null;
    return { count: header.count, lastId: header.lastId, body, size: header.size };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the sidecar of `segmentFile` as the file is now (call right after the segment's write,
 * before anything else can write it). Failures are swallowed: the segment is parsed next time.
 */
export async function writeSidecar(segmentFile: string, count: number, lastId: number, body: Uint8Array): Promise<void> {
  const target = sidecarPath(segmentFile);
  try {
    const s = await stat(segmentFile);
    const json = JSON.stringify({ v: VERSION, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, count, lastId } satisfies Header);
    // Padded so that the body starts 4-aligned (its Int32 columns are then read in place).
    const header = Buffer.from(json.padEnd(json.length + ((4 - (Buffer.byteLength(json) % 4)) % 4)));
    const out = Buffer.allocUnsafe(8 + header.length + 8 + body.length);
    out.writeUInt32LE(MAGIC, 0);
    out.writeUInt32LE(header.length, 4);
    header.copy(out, 8);
    const at = 8 + header.length;
    out.writeUInt32LE(body.length, at);
    out.writeUInt32LE(checksum(body), at + 4);
    out.set(body, at + 8);
    // A name of its own: two writes of one sidecar never share a temp file.
    const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, out, { mode: 0o600 });
    await rename(tmp, target).catch(async (err) => {
      await unlink(tmp).catch(() => undefined);
      throw err;
    });
  } catch {
    await unlink(target).catch(() => undefined);
  }
}

/**
 * A collection's index sidecars: what opening needs of a segment, so that a start reads it
 * instead of the segment (the owner's indexes are built from either).
 */
export interface SidecarCodec<T> {
  encode(items: readonly T[]): Uint8Array;
  /** Indexes a segment from a sidecar's body; throws, having indexed nothing, when it does not read. */
  apply(body: Buffer, count: number): void;
  /** false: sidecars are read but never written (an open that changes nothing on disk). */
  write: boolean;
  /** Where each item is in the segment file (`size` bytes), or null when the file is not laid out so. */
  layout(body: Buffer, count: number, size: number): Layout | null;
}

/** Each item's ID, and its byte offset and length in its segment's file. */
export interface Layout {
  ids: Int32Array;
  offsets: Int32Array;
  lengths: Int32Array;
}

/** The sidecars of one SegmentedCollection (none when it has no codec). */
export class Sidecars<T extends Identified> {
  /** Segments no longer open whose sidecar is still to be written. */
  private readonly due = new Set<Segment<T>>();
  /** The buffer sidecars are read into (`apply` keeps nothing of a body). */
  private readonly scratch = { buf: Buffer.allocUnsafeSlow(0) };

  constructor(private readonly codec: SidecarCodec<T> | null) {}

  get writes(): boolean {
    return this.codec?.write === true;
  }

  /**
   * Indexes the segment (`first`, `size` ids, after `lastId`) from its sidecar when one matches
   * its file: its count and last id then, else null (the segment is to be read).
   */
  load(file: string, first: number, size: number, lastId: number): { count: number; lastId: number } | null {
    const sc = this.codec ? readSidecar(file, this.scratch) : null;
    if (!sc || !(sc.count === 0 ? sc.lastId === 0 : sc.lastId >= first && sc.lastId < first + size && sc.lastId > lastId)) return null;
    try {
      this.codec!.apply(sc.body, sc.count);
    } catch {
      return null;
    }
    return { count: sc.count, lastId: sc.lastId };
  }

  /** Where each item of the segment is in its file, when its sidecar matches the file and says so. */
  layout(file: string, scratch?: { buf: Buffer }): Layout | null {
    const sc = this.codec ? readSidecar(file, scratch) : null;
    return sc && this.codec!.layout(sc.body, sc.count, sc.size);
  }

  /** The sidecar of these items (a segment's, as its file holds them now or is about to). */
  of(data: readonly T[]): { count: number; lastId: number; body: Uint8Array } | null {
    if (!this.codec?.write) return null;
    return { count: data.length, lastId: data[data.length - 1]?.id ?? 0, body: this.codec.encode(data) };
  }

  async write(file: string, data: readonly T[]): Promise<void> {
    const side = this.of(data);
    if (side) await writeSidecar(file, side.count, side.lastId, side.body);
  }

  /** Removes sidecar temp files a crash left (their sidecars never took their place). */
  async removeTemps(dir: string, listing: readonly string[]): Promise<void> {
    if (!this.writes) return;
    for (const name of listing) if (/\.idx\..*\.tmp$/.test(name)) await unlink(join(dir, name)).catch(() => undefined);
  }

  /** The segment is no longer the open one: its sidecar is written once its file holds it. */
  markDue(seg: Segment<T>): void {
    if (this.codec?.write) this.due.add(seg);
  }

  /** Writes the due sidecars whose segments' files hold their items (call inside a flush). */
  async writeDue(open: Segment<T> | undefined, dataOf: (seg: Segment<T>) => T[]): Promise<void> {
    for (const seg of this.due) {
      if (seg === open || seg.requested !== seg.landed) continue;
      this.due.delete(seg);
      await this.write(seg.writer.file, dataOf(seg));
    }
  }
}
