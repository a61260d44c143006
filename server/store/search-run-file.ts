/**
 * A search run (`messages/search/run-<first id>.bin`): the word index of a range of closed
 * segments on disk, so that the `search` operator's index does not keep all of history in
 * memory (./message-search.ts). Terms are sorted, each with its message IDs (ascending,
 * delta-encoded varints); a sparse list of every BLOCK-th term and its offset is kept in memory
 * (a few KB a run) and a lookup reads the blocks a prefix falls in.
 *
 * The header names each covered segment file as it was read (size, modification time, inode): a
 * segment changed since is "stale", and its messages are indexed again in memory (a run stays a
 * superset for it, which is all the search needs: every candidate is checked). Written to a temp
 * file, fsynced, then renamed, so a run that is in place is whole.
 *
 * Layout: "HSR1", u32 header length, header JSON, data.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';

const MAGIC = 0x31525348; // "HSR1" little-endian
const VERSION = 1;
const BLOCK = 32;

/** A segment file as a run read it: size, modification time, inode. */
export type SegmentStamp = [number, number, number];

export const stampOf = (file: string): SegmentStamp | null => {
  try {
    const s = statSync(file);
    return [s.size, s.mtimeMs, s.ino];
  } catch {
    return null;
  }
};

interface Header {
  v: number;
  first: number;
  span: number;
  /** Segment first ID → its stamp when read. */
  segs: Record<string, SegmentStamp>;
  terms: number;
  /** Every BLOCK-th term and its byte offset in the data. */
  sparse: [string, number][];
  dataLen: number;
}

class Writer {
  buf = Buffer.allocUnsafe(1 << 16);
  at = 0;
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
  varint(v: number): void {
    this.room(10);
    while (v >= 0x80) {
      this.buf[this.at++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.at++] = v;
  }
  bytes(b: Buffer): void {
    this.room(b.length);
    b.copy(this.buf, this.at);
    this.at += b.length;
  }
}

/** Writes a run: `postings` maps each term to its message IDs, ascending. */
export async function writeRun(file: string, first: number, span: number, segs: Record<string, SegmentStamp>, postings: Map<string, number[]>): Promise<void> {
  const terms = [...postings.keys()].sort();
  const w = new Writer();
  const scratch = new Writer();
  const sparse: [string, number][] = [];
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!;
    if (i % BLOCK === 0) sparse.push([term, w.at]);
    const t = Buffer.from(term, 'utf8');
    w.varint(t.length);
    w.bytes(t);
    const ids = postings.get(term)!;
    w.varint(ids.length);
    scratch.at = 0;
    let prev = 0;
    for (const id of ids) {
      scratch.varint(id - prev);
      prev = id;
    }
    // Its IDs' length in bytes first, so a lookup skips a term it does not want without decoding them.
    w.varint(scratch.at);
    w.bytes(scratch.buf.subarray(0, scratch.at));
  }
  const header = Buffer.from(JSON.stringify({ v: VERSION, first, span, segs, terms: terms.length, sparse, dataLen: w.at } satisfies Header));
  const head = Buffer.allocUnsafe(8);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(header.length, 4);
  const tmp = `${file}.tmp`;
  const h = await open(tmp, 'w', 0o600);
  try {
    await h.writev([head, header, w.buf.subarray(0, w.at)]);
    await h.sync();
  } catch (err) {
    await h.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await h.close();
  await rename(tmp, file);
}

/** An open run: its header in memory, its data read on lookup. */
export class RunReader {
  private constructor(
    readonly file: string,
    private readonly h: Header,
    private readonly dataStart: number,
  ) {}

  get first(): number {
    return this.h.first;
  }
  get span(): number {
    return this.h.span;
  }
  get terms(): number {
    return this.h.terms;
  }
  get segments(): Record<string, SegmentStamp> {
    return this.h.segs;
  }

  /** Reads a run's header; null when the file is not a whole run of this version. */
  static open(file: string): RunReader | null {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return null;
    }
    try {
      const head = Buffer.alloc(8);
      if (readSync(fd, head, 0, 8, 0) !== 8 || head.readUInt32LE(0) !== MAGIC) return null;
      const len = head.readUInt32LE(4);
      const text = Buffer.alloc(len);
      if (readSync(fd, text, 0, len, 8) !== len) return null;
      const h = JSON.parse(text.toString('utf8')) as Header;
      if (h.v !== VERSION || statSync(file).size !== 8 + len + h.dataLen) return null;
      return new RunReader(file, h, 8 + len);
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The ID lists of the terms `prefix` begins: null when more than `maxTerms` terms or more than
   * `maxIds` IDs in all (not worth it: the caller scans or picks another word).
   */
  lookup(prefix: string, maxTerms: number, maxIds: number): number[][] | null {
    const sparse = this.h.sparse;
    // The last block whose first term is below the prefix may hold its first terms.
    let lo = 0;
    let hi = sparse.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sparse[mid]![0] < prefix) lo = mid + 1;
      else hi = mid;
    }
    let block = Math.max(0, lo - 1);
    const out: number[][] = [];
    let ids = 0;
    const fd = openSync(this.file, 'r');
    try {
      for (; block < sparse.length; block++) {
        const start = sparse[block]![1];
        const end = block + 1 < sparse.length ? sparse[block + 1]![1] : this.h.dataLen;
        const buf = Buffer.allocUnsafe(end - start);
        readSync(fd, buf, 0, buf.length, this.dataStart + start);
        let at = 0;
        const varint = (): number => {
          let v = 0;
          let mul = 1;
          for (;;) {
            const b = buf[at++]!;
            v += (b & 0x7f) * mul;
            if (b < 0x80) return v;
            mul *= 0x80;
          }
        };
        while (at < buf.length) {
          const tlen = varint();
          const term = buf.toString('utf8', at, at + tlen);
          at += tlen;
          const n = varint();
          const bytes = varint();
          if (term < prefix) {
            at += bytes;
            continue;
          }
          if (!term.startsWith(prefix)) return out;
          if (out.length >= maxTerms || (ids += n) > maxIds) return null;
          const list = new Array<number>(n);
          let prev = 0;
          for (let i = 0; i < n; i++) list[i] = prev += varint();
          out.push(list);
        }
      }
      return out;
    } finally {
      closeSync(fd);
    }
  }
}
