import { Low } from 'lowdb';
import { DurableJSONFile, removeStaleTemp } from './durable-file.js';

/**
 * One lowdb database in one JSON file. `data` is the live in-memory document;
 * `save()` resolves once the current document is durably on disk.
 */
export class Collection<T> {
  private readonly db: Low<T>;
  private readonly adapter: DurableJSONFile<T>;
  /** True when the file was there at open; false when `data` holds the defaults, not yet saved. */
  loaded = false;

  private constructor(
    readonly file: string,
    defaults: T,
  ) {
    this.adapter = new DurableJSONFile<T>(file);
    this.db = new Low<T>(this.adapter, defaults);
  }

  static async open<T>(file: string, defaults: () => T): Promise<Collection<T>> {
    await removeStaleTemp(file);
    const c = new Collection<T>(file, defaults());
    const onDisk = await c.adapter.read();
    if (onDisk !== null && onDisk !== undefined) {
      c.db.data = onDisk;
      c.loaded = true;
    }
    return c;
  }

  get data(): T {
    return this.db.data;
  }

  save(): Promise<void> {
    return this.db.write();
  }

  settled(): Promise<void> {
    return this.adapter.settled();
  }

  get flushes(): number {
    return this.adapter.flushes;
  }
}
