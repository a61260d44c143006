/**
 * Messages' UserMessage row lists, shared: messages whose rows are the same numbers hold one
 * array between them. A channel message's rows are its subscribers with the same flags for all
 * but the sender, so an office's messages have a few thousand distinct lists among hundreds of
 * thousands of messages; held apart, the lists were most of the store's memory (8 bytes per
 * recipient per message on Node's uncompressed heap).
 *
 * A shared list is frozen: a change is a new list (`replace`), never a write into the old one.
 * Each list counts the messages holding it and is forgotten when none does.
 */
interface Entry {
  rows: readonly number[];
  holders: number;
}

const EMPTY: readonly number[] = Object.freeze([]);

function hashOf(rows: readonly number[]): number {
  let h = 0x811c9dc5 ^ rows.length;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    h = Math.imul(h ^ (r | 0), 0x01000193);
    h = Math.imul(h ^ ((r / 0x1_0000_0000) | 0), 0x01000193);
  }
  return h;
}

function sameRows(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class RowLists {
  /** Entries by hash; a hash that two lists share keeps an array of entries. */
  private readonly byHash = new Map<number, Entry | Entry[]>();
  private count = 0;

  /** Distinct lists held. */
  get size(): number {
    return this.count;
  }

  /** The shared list equal to `rows` (which is then not to be changed), now held once more. */
  hold(rows: readonly number[]): readonly number[] {
    if (rows.length === 0) return EMPTY;
    const h = hashOf(rows);
    const found = this.byHash.get(h);
    if (found === undefined) {
      this.byHash.set(h, this.entry(rows));
      return rows;
    }
    const entries = Array.isArray(found) ? found : [found];
    for (const e of entries) {
      if (sameRows(e.rows, rows)) {
        e.holders++;
        return e.rows;
      }
    }
    const e = this.entry(rows);
    this.byHash.set(h, [...entries, e]);
    return e.rows;
  }

  /** A message no longer holds `rows` (a list `hold` returned). */
  release(rows: readonly number[]): void {
    if (rows.length === 0) return;
    const h = hashOf(rows);
    const found = this.byHash.get(h);
    if (found === undefined) return;
    if (!Array.isArray(found)) {
      if (found.rows === rows && --found.holders === 0) this.forget(h);
      return;
    }
    const i = found.findIndex((e) => e.rows === rows);
    if (i < 0 || --found[i]!.holders > 0) return;
    this.count--;
    const rest = found.filter((_, k) => k !== i);
    this.byHash.set(h, rest.length === 1 ? rest[0]! : rest);
  }

  /** Releases `old` and holds `rows` (a fresh list), for a message whose rows changed. */
  replace(old: readonly number[], rows: readonly number[]): readonly number[] {
    const held = this.hold(rows);
    this.release(old);
    return held;
  }

  private entry(rows: readonly number[]): Entry {
    this.count++;
    return { rows: Object.freeze(rows), holders: 1 };
  }

  private forget(h: number): void {
    this.byHash.delete(h);
    this.count--;
  }
}
