/**
 * What the message indexes keep of records that may be out of memory (older segments are read on
 * demand, ./segmented.ts):
 * - **RowColumn**: each message's row list by number (RowLists.idOf), in one typed array indexed by
 *   message ID (2 bytes a message, 4 past 65,535 lists), so "the messages a user has a row for" is a scan of numbers,
 *   each distinct list looked at once, with no record read.
 * - **UnreadPlaces**: where recently unread messages are (channel and topic, or the direct
 *   conversation), so the unread counts of a register need no record either; at most 100,000 are
 *   kept (the oldest noted go first), a message not kept is read from its segment.
 */
import { ROW_SPAN, type MessageRecord } from './message-records.js';
import type { RowLists } from './row-lists.js';

/** Where the user's row is in a row list (ascending `userId * ROW_SPAN + flags`), or -1. */
export function rowIndexIn(um: readonly number[], userId: number): number {
  // Not a user ID (NaN, 1.5): no row, rather than whichever row its range would hit.
  if (!Number.isInteger(userId)) return -1;
  const first = userId * ROW_SPAN;
  const last = first + ROW_SPAN - 1;
  let lo = 0;
  let hi = um.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = um[mid]!;
    if (r < first) lo = mid + 1;
    else if (r > last) hi = mid - 1;
    else return mid;
  }
  return -1;
}

export class RowColumn {
  /** 2 bytes a message while fewer than 65,536 distinct row lists are held (an office's few thousand), else 4. */
  private col: Uint16Array | Int32Array = new Uint16Array(1024);

  constructor(private readonly rows: RowLists) {}

  /** The message's rows are now `um` (a list the RowLists holds). */
  set(id: number, um: readonly number[]): void {
    this.setNumber(id, this.rows.idOf(um));
  }

  /** The message's rows are now the list numbered `list` (RowLists.idOf). */
  setNumber(id: number, list: number): void {
    if (id >= this.col.length || (list > 0xffff && this.col instanceof Uint16Array)) {
      const length = Math.max(this.col.length, id >= this.col.length ? Math.max(id + 1, Math.ceil(this.col.length * 1.5)) : 0);
      const next = list > 0xffff || this.col instanceof Int32Array ? new Int32Array(length) : new Uint16Array(length);
      next.set(this.col);
      this.col = next;
    }
    this.col[id] = list;
  }

  /** Room for IDs up to `id` at once (opening knows the highest there can be: growing by half as it loaded left copies behind). */
  reserve(id: number): void {
    if (id >= this.col.length) {
      const next = this.col instanceof Int32Array ? new Int32Array(id + 1) : new Uint16Array(id + 1);
      next.set(this.col);
      this.col = next;
    }
  }

  rowsOf(id: number): readonly number[] {
    return (id < this.col.length && this.rows.byId(this.col[id]!)) || [];
  }

  /** A test of "the user has a row", remembering each distinct list's answer. */
  tester(userId: number): (id: number) => boolean {
    const known = new Map<number, boolean>();
    return (id) => {
      const list = id < this.col.length ? this.col[id]! : 0;
      let has = known.get(list);
      if (has === undefined) known.set(list, (has = rowIndexIn(this.rows.byId(list) ?? [], userId) >= 0));
      return has;
    };
  }
}

export type UnreadPlace = Pick<MessageRecord, 'stream_id' | 'topic' | 'dm'>;
const KEEP = 100_000;

export class UnreadPlaces {
  private readonly places = new Map<number, UnreadPlace>();

  note(m: Pick<MessageRecord, 'id' | 'stream_id' | 'topic' | 'dm'>): void {
    this.places.delete(m.id);
    this.places.set(m.id, m.dm ? { stream_id: m.stream_id, topic: m.topic, dm: m.dm } : { stream_id: m.stream_id, topic: m.topic });
    // Over the limit: the oldest noted goes (a Map iterates in insertion order).
    if (this.places.size > KEEP) this.places.delete(this.places.keys().next().value!);
  }

  /** A message moved: its place follows, if kept. */
  moved(m: MessageRecord): void {
    if (this.places.has(m.id)) this.note(m);
  }

  forget(id: number): void {
    this.places.delete(id);
  }

  get(id: number): UnreadPlace | undefined {
    return this.places.get(id);
  }
}
