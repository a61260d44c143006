/**
 * Who sent each message, as one small number a message in a typed array indexed by message ID (1
 * byte while fewer than 256 people have sent, 2 past that, 4 past 65,535): at 5 million messages
 * 5 MB, where a sorted ID list for each sender held 11 MB (issue 34: memory that does not grow
 * with history). A sender's list of messages (a `sender:` narrow) is built on first use by a scan
 * of the column and kept current; the newest lists asked for are kept, the rest built again.
 * The newest message of each sender is kept apart (who was active lately). MessageStore owns one.
 */
import { IdList } from './message-ids.js';

/** Sender lists kept built (the most recently asked for). */
const KEEP_LISTS = 8;

export class SenderColumn {
  private col: Uint8Array | Uint16Array | Int32Array = new Uint8Array(1024);
  /** Each sender's number in the column (from 1; 0 is "no message"), and the sender of each number. */
  private readonly numberOf = new Map<number, number>();
  private readonly senders: number[] = [0];
  /** Each sender's newest message ID. */
  private readonly newest = new Map<number, number>();
  /** Built lists, least recently asked for first. */
  private readonly built = new Map<number, IdList>();
  private top = 0;

  /** Room for IDs up to `id` at once (opening knows the highest there can be). */
  reserve(id: number): void {
    if (id >= this.col.length) this.resize(id + 1, this.col.BYTES_PER_ELEMENT);
  }

  private resize(length: number, width: number): void {
    const next = width === 1 ? new Uint8Array(length) : width === 2 ? new Uint16Array(length) : new Int32Array(length);
    next.set(this.col);
    this.col = next;
  }

  private numberFor(userId: number): number {
    let n = this.numberOf.get(userId);
    if (n === undefined) {
      n = this.senders.length;
      this.senders.push(userId);
      this.numberOf.set(userId, n);
      const width = n > 0xffff ? 4 : n > 0xff ? 2 : 1;
      if (width > this.col.BYTES_PER_ELEMENT) this.resize(this.col.length, width);
    }
    return n;
  }

  /** Message `id` was sent by `userId`. */
  set(id: number, userId: number): void {
    if (id >= this.col.length) this.resize(Math.max(id + 1, Math.ceil(this.col.length * 1.5)), this.col.BYTES_PER_ELEMENT);
    this.col[id] = this.numberFor(userId);
    if (id > this.top) this.top = id;
    if (id > (this.newest.get(userId) ?? 0)) this.newest.set(userId, id);
    this.built.get(userId)?.insert(id);
  }

  /** Message `id` (sent by `userId`) is gone. */
  remove(id: number, userId: number): void {
    const n = this.numberOf.get(userId);
    if (n === undefined || id >= this.col.length || this.col[id] !== n) return;
    this.col[id] = 0;
    this.built.get(userId)?.remove(id);
    if (this.newest.get(userId) === id) {
      let i = id - 1;
      while (i > 0 && this.col[i] !== n) i--;
      if (i > 0) this.newest.set(userId, i);
      else this.newest.delete(userId);
    }
  }

  /** The newest message the user sent, if any. */
  newestOf(userId: number): number | undefined {
    return this.newest.get(userId);
  }

  /** The messages the user sent, ascending (do not change it). */
  list(userId: number): IdList {
    let l = this.built.get(userId);
    if (l) {
      // Most recently asked for goes last.
      this.built.delete(userId);
      this.built.set(userId, l);
      return l;
    }
    l = new IdList();
    const n = this.numberOf.get(userId);
    if (n !== undefined) {
      const col = this.col;
      const top = Math.min(this.top, col.length - 1);
      for (let id = 1; id <= top; id++) if (col[id] === n) l.insert(id);
    }
    this.built.set(userId, l);
    if (this.built.size > KEEP_LISTS) this.built.delete(this.built.keys().next().value!);
    return l;
  }
}
