/**
 * Reading a segment file of server/store/segmented.ts: its items, a torn last append cut back, and
 * each item as its last copy.
 */
import { readFileSync } from 'node:fs';
import { CorruptFileError } from './durable-file.js';

export interface Identified {
  id: number;
}

export function parseSegment(file: string, tornTailMayBeCut: boolean): { items: unknown[]; repaired: boolean; bytes: number } {
  const text = readFileSync(file, 'utf8');
  try {
    return { items: JSON.parse(text) as unknown[], repaired: false, bytes: text.length };
  } catch (err) {
    const items = tornTailMayBeCut ? completeItems(text) : null;
    if (items) return { items, repaired: true, bytes: text.length };
    throw new CorruptFileError(file, text.length === 0 ? 'empty file' : (err as Error).message);
  }
}

/**
 * The items of a segment whose last in-place append was cut short (the machine stopped
 * mid-write: that append was never acknowledged): the longest run of whole items from the start.
 * Trailing zero bytes (blocks the file system allocated but never wrote) are dropped first, then
 * the text is cut after each `}` that may end an item, from the end, until what is left reads as
 * an array. null when the text is no such array.
 */
function completeItems(raw: string): unknown[] | null {
  const text = raw.replace(/[\0\s]+$/, '');
  if (!text.startsWith('[')) return null;
  const attempt = (cut: string): unknown[] | null => {
    try {
      const v = JSON.parse(cut) as unknown;
      return Array.isArray(v) ? v : null;
    } catch {
      return null;
    }
  };
  const whole = attempt(text) ?? attempt(`${text}]`);
  if (whole) return whole;
  let tries = 0;
  for (let i = text.lastIndexOf('}'); i > 0 && tries < 5_000; i = text.lastIndexOf('}', i - 1)) {
    const next = text[i + 1];
    if (next !== ',' && next !== ']' && next !== '\0') continue;
    tries++;
    const items = attempt(`${text.slice(0, i + 1)}]`);
    if (items) return items;
  }
  // Torn inside its first item (the file held none before): nothing was there.
  return tries === 0 ? [] : null;
}

/**
 * A segment file's items in ID order, each as its last copy: IDs rise through the file, except
 * that an item the file already held may come again (a newer version appended after it), and
 * then the later copy counts. Anything else (an ID outside the segment, not above the previous
 * segment's, or falling back to one the file never held) is damage.
 */
/** A closed segment file's items, each as its last copy (`first`: the segment's first id; `size` ids a segment). */
export function readSegmentItems<T extends Identified>(file: string, first: number, size: number): { items: T[]; bytes: number } {
  const parsed = parseSegment(file, false);
  if (!Array.isArray(parsed.items)) throw new CorruptFileError(file, 'not a JSON array');
  return { items: latestCopies(file, parsed.items as T[], first, size, first - 1), bytes: parsed.bytes };
}

export function latestCopies<T extends Identified>(file: string, items: T[], first: number, size: number, previousLast: number): T[] {
  let top = previousLast;
  let held: Set<number> | null = null;
  for (let i = 0; i < items.length; i++) {
    const id = items[i]?.id;
    if (typeof id !== 'number' || id < first || id >= first + size || id <= previousLast) {
      throw new CorruptFileError(file, `item id ${String(id)} out of order or outside the segment`);
    }
    if (id > top) {
      top = id;
      held?.add(id);
      continue;
    }
    held ??= new Set(items.slice(0, i).map((x) => x.id));
    if (!held.has(id)) throw new CorruptFileError(file, `item id ${id} out of order or outside the segment`);
  }
  if (held === null) return items;
  const latest = new Map<number, T>();
  for (const item of items) latest.set(item.id, item);
  // A Map keeps each key where it was first set: first copies rise, so this is ID order.
  return [...latest.values()];
}

/** The message cache's default budget: HEARTH_MESSAGE_CACHE_MB (a whole number of MB, 0 allowed) or 64 MB. */
export function defaultMessageCacheBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.HEARTH_MESSAGE_CACHE_MB ?? '64');
  return (Number.isFinite(mb) && mb >= 0 ? mb : 64) * 1024 * 1024;
}

/** The entry whose key is `key` in an array sorted by key (binary search). */
export function findSorted<T>(arr: readonly T[], key: number, keyOf: (x: T) => number): T | undefined {
  let lo = 0;
  let hi = arr.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = keyOf(arr[mid]!);
    if (v === key) return arr[mid];
    if (v < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The item with this id in an array sorted by id. */
export const findById = <T extends Identified>(arr: readonly T[], id: number): T | undefined => findSorted(arr, id, (x) => x.id);

/** A segment's file name: `seg-<its first id, 12 digits>.json`. */
export const segmentFileName = (first: number): string => `seg-${String(first).padStart(12, '0')}.json`;

/**
 * Each item in memory links to its segment's array (a hidden property: a WeakMap of every item made
 * each collection of the heap hundreds of ms slower), so that an item a caller still holds keeps its
 * segment reachable: found again through the segment's WeakRef, it is the same objects (a change made
 * to an item before it is saved is never lost to a fresh copy read from disk).
 */
const OWNER = Symbol('segment');
export const own = (item: object, data: object): void => {
  Object.defineProperty(item, OWNER, { value: data, writable: true, configurable: true });
};
