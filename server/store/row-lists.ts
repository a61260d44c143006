/**
 * Messages' UserMessage row lists, shared: messages whose rows are the same numbers hold one
 * array between them. A channel message's rows are its subscribers with the same flags for all
 * but the sender, so an office's messages have a few thousand distinct lists among hundreds of
 * thousands of messages; held apart, the lists were most of the store's memory (8 bytes per
 * recipient per message on Node's uncompressed heap).
 *
 * A shared list is frozen: a change is a new list (`replace`), never a write into the old one.
 * Each list counts the messages holding it and is forgotten when none does (a message read from
 * disk again holds it once more: the count may only be too high, never too low).
 */
interface Entry {
  rows: readonly number[];
  holders: number;
  hash: number;
  /** A small number naming the list (`idOf`, `byId`): message stores keep it per message in a column. */
  id: number;
}

const EMPTY: readonly number[] = Object.freeze([]);

function hashOf(rows: readonly number[]): number {
  let h = 0x811c9dc5 ^ rows.length;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    h = Math.imul(h ^ (r | 0), 0x01000193);
    // Rows past 2^31 (user IDs past 2 million) mix in their high part too.
    if (r > 0x7fffffff) h = Math.imul(h ^ ((r / 0x1_0000_0000) | 0), 0x01000193);
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
  /** The same entries by list. */
  private readonly byList = new Map<readonly number[], Entry>();

  /** Distinct lists held. */
  get size(): number {
    return this.byList.size;
  }

  /**
   * The shared list equal to `rows` (which is then not to be changed), now held once more.
   * `like`, a held list that `rows` may well equal (the previous message's in the same
   * place, at load), is compared first, which costs less than finding the list by its hash.
   */
  hold(rows: readonly number[], like?: readonly number[], holders = 1): readonly number[] {
    if (rows.length === 0) return EMPTY;
    if (like !== undefined && like !== rows && sameRows(like, rows)) {
      const e = this.byList.get(like);
      if (e) {
        e.holders += holders;
        return e.rows;
      }
    }
    const h = hashOf(rows);
    const found = this.byHash.get(h);
    if (found === undefined) {
      this.byHash.set(h, this.entry(rows, h, holders));
      return rows;
    }
    const entries = Array.isArray(found) ? found : [found];
    for (const e of entries) {
      if (sameRows(e.rows, rows)) {
        e.holders += holders;
        return e.rows;
      }
    }
    const e = this.entry(rows, h, holders);
    this.byHash.set(h, [...entries, e]);
    return e.rows;
  }

  /** A message no longer holds `rows` (a list `hold` returned). */
  release(rows: readonly number[]): void {
    const e = this.byList.get(rows);
    if (e === undefined || --e.holders > 0) return;
    this.byList.delete(rows);
    this.lists[e.id] = undefined;
    this.freeIds.push(e.id);
    const found = this.byHash.get(e.hash)!;
    if (!Array.isArray(found)) {
      this.byHash.delete(e.hash);
      return;
    }
    const rest = found.filter((x) => x !== e);
    this.byHash.set(e.hash, rest.length === 1 ? rest[0]! : rest);
  }

  /** Releases `old` and holds `rows` (a fresh list), for a message whose rows changed. */
  replace(old: readonly number[], rows: readonly number[]): readonly number[] {
    const held = this.hold(rows);
    this.release(old);
    return held;
  }

  private entry(rows: readonly number[], hash: number, holders: number): Entry {
    const id = this.freeIds.pop() ?? this.lists.length;
    const e = { rows: Object.freeze(rows), holders, hash, id };
    this.byList.set(e.rows, e);
    this.lists[id] = e.rows;
    return e;
  }

  /** Lists by their number (0: the empty list). */
  private readonly lists: (readonly number[] | undefined)[] = [EMPTY];
  private readonly freeIds: number[] = [];

  /** The number of a held list (0 for the empty one). */
  idOf(rows: readonly number[]): number {
    return rows.length === 0 ? 0 : (this.byList.get(rows)?.id ?? 0);
  }

  /** The list a number names (undefined once no message holds it). */
  byId(id: number): readonly number[] | undefined {
    return this.lists[id];
  }
}
