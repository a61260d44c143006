/**
 * The editable per-user flags (read, starred, collapsed) apart from the message records: a
 * snapshot (`messages/flags.json`) and the changes made since, appended to a journal
 * (`messages/flags-<n>.log`, one JSON line per change). Marking messages read appends one line
 * naming them; no segment is written (issue 34, item 2).
 *
 * - **The snapshot** holds, for every message up to `upTo` (the highest ID when it was taken), each
 *   user's unread, starred and collapsed IDs (delta-encoded: the first ID, then the gaps), and names
 *   the journal that follows it (`log`). For a message above `upTo`, the flags in its record (`um`,
 *   as at send or last written) are the starting point instead.
 * - **A journal line** `{"u":user,"f":bit,"v":0|1,"ids":[delta-encoded IDs]}` sets (`v` 1) or clears
 *   that flag bit for those messages. Lines are absolute, so replaying every line written after the
 *   snapshot over it (and over a record's own flags, which are always as of some earlier line) gives
 *   the flags as last acknowledged. Lines for messages that no longer exist are skipped.
 * - **Appending** is group commit: the lines asked for since the last flush are written at the end
 *   in one write and fdatasynced. A failed write is cut off again (ftruncate) before the next one,
 *   so a refused line never comes back. A line cut short by a machine stop (no newline, or not
 *   JSON, at the very end) was never acknowledged: it is ignored and cut off at the next start.
 * - **Compacting** writes a new snapshot from memory (as of one instant, covering the lines not yet
 *   written too) naming the next journal, durably (temp file, fsync, rename: the instant it counts),
 *   then deletes the journals before it. Stopped before the rename, the old snapshot and journals
 *   still hold everything. It runs when the journal outgrows the snapshot (and 1 MiB) or 50,000
 *   messages arrived since the snapshot, and at the first start of a data dir written before this
 *   layout (schema 5): that snapshot is the migration, redone whole if stopped half-way (nothing
 *   else changes, the records keep their flags).
 */
import { open, readdir, readFile, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptFileError, DurableJSONFile, fsyncFile, removeStaleTemp } from './durable-file.js';
import { FlushQueue } from './segment-writes.js';
import { FLAG } from './message-records.js';

/** The flags a user changes (Zulip's editable UserMessage flags); the others stay in the records. */
export const EDITABLE_BITS = [FLAG.read, FLAG.starred, FLAG.collapsed] as const;
export const EDITABLE_MASK = FLAG.read | FLAG.starred | FLAG.collapsed;

export const FLAGS_FILE = 'flags.json';
const LOG_RE = /^flags-(\d+)\.log$/;
const logName = (gen: number) => `flags-${gen}.log`;

/** One user's flag lists in the snapshot (delta-encoded ID lists; absent: none). */
export interface UserFlagLists {
  unread?: number[];
  starred?: number[];
  collapsed?: number[];
}

export interface FlagSnapshot {
  upTo: number;
  log: number;
  users: Record<string, UserFlagLists>;
}

/** A journal line: set (`v` 1) or clear flag bit `f` of user `u` on messages `ids` (ascending, delta-encoded on disk). */
export interface FlagLine {
  u: number;
  f: number;
  v: 0 | 1;
  ids: number[];
}

export const deltaEncode = (ids: readonly number[]): number[] => ids.map((id, i) => (i === 0 ? id : id - ids[i - 1]!));
export function deltaDecode(list: readonly number[]): number[] {
  const out: number[] = new Array(list.length);
  let prev = 0;
  for (let i = 0; i < list.length; i++) out[i] = prev = prev + list[i]!;
  return out;
}

/** A flush writes the lines pending when it starts; a compaction also folds them into a new snapshot. */
type Request = { flush: true } | { compact: () => Omit<FlagSnapshot, 'log'> };

/** What opening found: the snapshot (null before the first one) and the lines written after it, in order. */
export interface OpenedFlags {
  journal: FlagJournal;
  snapshot: FlagSnapshot | null;
  lines: FlagLine[];
}

const isIdList = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isSafeInteger(x));

function checkSnapshot(file: string, doc: unknown): FlagSnapshot {
  const d = doc as FlagSnapshot;
  if (typeof d !== 'object' || d === null || !Number.isSafeInteger(d.upTo) || !Number.isSafeInteger(d.log) || typeof d.users !== 'object' || d.users === null) {
    throw new CorruptFileError(file, 'unexpected structure');
  }
  for (const lists of Object.values(d.users)) {
    for (const key of ['unread', 'starred', 'collapsed'] as const) {
      if (lists[key] !== undefined && !isIdList(lists[key])) throw new CorruptFileError(file, `a ${key} list is not a list of IDs`);
    }
  }
  return d;
}

function parseLine(text: string): FlagLine | null {
  try {
    const l = JSON.parse(text) as FlagLine;
    if (!Number.isSafeInteger(l.u) || !EDITABLE_BITS.includes(l.f as 1) || (l.v !== 0 && l.v !== 1) || !isIdList(l.ids)) return null;
    return { u: l.u, f: l.f, v: l.v, ids: deltaDecode(l.ids) };
  } catch {
    return null;
  }
}

export class FlagJournal {
  /** The snapshot's file, written as text made once (its length is the snapshot's size). */
  private readonly snapshotFile: DurableJSONFile<string>;
  private readonly queue = new FlushQueue<Request>((reqs) => this.writeBatch(reqs));
  /** Lines asked for and not yet handed to a flush, and the one still growing. */
  private pending: Buffer[] = [];
  private current: FlagLine | null = null;
  /** Flushes asked for and not finished. */
  private inFlight = 0;
  /** Bytes of the journal as acknowledged; anything after them (a refused write) is cut off before the next. */
  private length: number;
  /** The file may hold bytes after `length` (a torn line, a refused write). */
  private dirtyTail: boolean;
  /** Bytes of the snapshot last written or read (compaction starts when the journal outgrows it). */
  snapshotBytes: number;
  /** The error of a refused write: every later flush fails with it. */
  private broken: unknown = null;

  private constructor(
    readonly dir: string,
    private gen: number,
    length: number,
    dirtyTail: boolean,
    snapshotBytes: number,
    /** The snapshot's `upTo`: messages above it start from their records' flags. */
    public upTo: number,
  ) {
    this.snapshotFile = new DurableJSONFile<string>(join(dir, FLAGS_FILE), 0o600, (text) => text);
    this.length = length;
    this.dirtyTail = dirtyTail;
    this.snapshotBytes = snapshotBytes;
  }

  /** Reads the snapshot and the journals after it. `writable`: journals before the snapshot's are deleted. */
  static async open(dir: string, writable: boolean): Promise<OpenedFlags> {
    const file = join(dir, FLAGS_FILE);
    if (writable) await removeStaleTemp(file);
    const raw = await new DurableJSONFile<unknown>(file).read();
    const snapshot = raw === null ? null : checkSnapshot(file, raw);
    const first = snapshot?.log ?? 0;
    const gens = (await readdir(dir))
      .map((n) => LOG_RE.exec(n))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const lines: FlagLine[] = [];
    let gen = Math.max(first, 1);
    let length = 0;
    let dirtyTail = false;
    const live = gens.filter((g) => g >= first);
    for (const [i, g] of live.entries()) {
      const path = join(dir, logName(g));
      const text = await readFile(path);
      let at = 0;
      for (;;) {
        const nl = text.indexOf(10, at);
        const end = nl < 0 ? text.length : nl;
        if (at === end && nl < 0) break;
        const line = nl < 0 ? null : parseLine(text.toString('utf8', at, end));
        if (!line) {
          // Only the newest journal's last line may be torn (an append the machine stop cut short).
          const last = i === live.length - 1 && (nl < 0 || text.indexOf(10, nl + 1) < 0);
          if (!last) throw new CorruptFileError(path, `line at byte ${at} is not a flag change`);
          dirtyTail = true;
          break;
        }
        lines.push(line);
        at = end + 1;
      }
      gen = g;
      length = at;
    }
    if (writable) {
      for (const g of gens) if (g < first) await unlink(join(dir, logName(g))).catch(() => undefined);
    }
    const snapshotBytes = raw === null ? 0 : (await stat(file)).size;
    const journal = new FlagJournal(dir, gen, length, dirtyTail, snapshotBytes, snapshot?.upTo ?? 0);
    return { journal, snapshot, lines };
  }

  /** Bytes in the current journal. */
  get journalBytes(): number {
    return this.length;
  }

  /** Queues a change of one flag of one message (lines of the same user, flag and value in a row are one line); `flush()` makes it durable. */
  add(u: number, f: number, v: 0 | 1, id: number): void {
    const line = this.current;
    if (line && line.u === u && line.f === f && line.v === v) {
      line.ids.push(id);
      return;
    }
    this.seal();
    this.current = { u, f, v, ids: [id] };
  }

  private seal(): void {
    const line = this.current;
    if (!line) return;
    this.current = null;
    this.pending.push(Buffer.from(`${JSON.stringify({ u: line.u, f: line.f, v: line.v, ids: deltaEncode(line.ids) })}\n`));
  }

  /** Makes every line added so far durable (resolves at once when there is nothing to wait for). */
  flush(): Promise<void> {
    this.seal();
    if (!this.pending.length && this.inFlight === 0) return Promise.resolve();
    return this.request({ flush: true });
  }

  /** Writes a new snapshot (made by `make`, synchronously, when its turn comes) and starts the next journal. */
  compact(make: () => Omit<FlagSnapshot, 'log'>): Promise<void> {
    return this.request({ compact: make });
  }

  private request(req: Request): Promise<void> {
    this.inFlight++;
    return this.queue.request(req).finally(() => this.inFlight--);
  }

  settled(): Promise<void> {
    return this.queue.settled();
  }

  private async writeBatch(reqs: Request[]): Promise<({ error: unknown } | null)[]> {
    // After a refused write, lines taken by it may belong to changes not yet asking: nothing is acknowledged
    // again (the store is rolled back to the disk and reopened, with a journal of its own).
    if (this.broken) return reqs.map(() => ({ error: this.broken }));
    this.seal();
    const lines = Buffer.concat(this.pending.splice(0));
    const compact = reqs.find((r): r is { compact: () => Omit<FlagSnapshot, 'log'> } => 'compact' in r);
    let compactError: unknown = null;
    if (compact) {
      try {
        // The snapshot covers every change in memory, the lines just taken included.
        const snap: FlagSnapshot = { ...compact.compact(), log: this.gen + 1 };
        const text = JSON.stringify(snap);
        await this.snapshotFile.write(text);
        const old = this.gen;
        this.gen = snap.log;
        this.upTo = snap.upTo;
        this.length = 0;
        this.dirtyTail = false;
        this.snapshotBytes = text.length;
        for (let g = old; g < this.gen; g++) await unlink(join(this.dir, logName(g))).catch(() => undefined);
        return reqs.map(() => null);
      } catch (error) {
        // The old snapshot and journal still hold everything; the lines go to the journal as usual.
        compactError = error;
      }
    }
    try {
      if (lines.length) await this.append(lines);
    } catch (error) {
      this.broken = error;
      return reqs.map(() => ({ error }));
    }
    return reqs.map((r) => ('compact' in r && compactError ? { error: compactError } : null));
  }

  private async append(bytes: Buffer): Promise<void> {
    const path = join(this.dir, logName(this.gen));
    let handle: FileHandle;
    let created = false;
    try {
      handle = await open(path, 'r+');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      handle = await open(path, 'w', 0o600);
      created = true;
    }
    try {
      if (this.dirtyTail) {
        await handle.truncate(this.length);
        this.dirtyTail = false;
      }
      this.dirtyTail = true;
      for (let done = 0; done < bytes.length; ) {
        const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, this.length + done);
        done += bytesWritten;
      }
      await handle.datasync();
      this.dirtyTail = false;
    } catch (err) {
      // Given back at once where the disk allows, else before the next write.
      await handle.truncate(this.length).then(() => (this.dirtyTail = false)).catch(() => undefined);
      throw err;
    } finally {
      await handle.close();
    }
    if (created) await fsyncFile(this.dir);
    this.length += bytes.length;
  }
}

/** Messages a flags snapshot or journal may have unread for someone (delta-decoded IDs). */
export function unreadIn(snapshot: FlagSnapshot | null, lines: FlagLine[]): Set<number> {
  const out = new Set<number>();
  for (const lists of Object.values(snapshot?.users ?? {})) for (const id of deltaDecode(lists.unread ?? [])) out.add(id);
  for (const line of lines) if (line.f === FLAG.read && line.v === 0) for (const id of line.ids) out.add(id);
  return out;
}
