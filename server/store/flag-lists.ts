/**
 * Each user's read, starred and collapsed flags in memory: unread, starred and collapsed ID lists
 * (IdList, ascending), kept apart from the message records, with the flags journal that makes them
 * durable (./flag-journal.ts): opening loads the snapshot and replays the journal; every change is
 * a journal line; compaction folds the journal into a new snapshot. MessageStore owns one.
 */
import { IdList } from './message-ids.js';
import { FLAG } from './message-records.js';
import { EDITABLE_BITS, deltaEncode, type FlagJournal, type FlagLine, type FlagSnapshot, type UserFlagLists } from './flag-journal.js';

/** Compaction: when the journal outgrows the snapshot (and this), or this many messages arrived since. */
const COMPACT_MIN_BYTES = 1 << 20;
const COMPACT_EVERY_MESSAGES = 50_000;

const EMPTY = new IdList(0);
const userList = (arr: (IdList | undefined)[], userId: number): IdList => (arr[userId] ??= new IdList());

export class FlagLists {
  private readonly unreadByUser: (IdList | undefined)[] = [];
  private readonly starredByUser: (IdList | undefined)[] = [];
  private readonly collapsedByUser: (IdList | undefined)[] = [];
  private compacting: Promise<void> | null = null;

  constructor(
    readonly journal: FlagJournal,
    /** The highest message ID so far (a snapshot covers every message up to it). */
    private readonly maxId: () => number,
  ) {}

  unread = (userId: number): IdList => this.unreadByUser[userId] ?? EMPTY;
  starred = (userId: number): IdList => this.starredByUser[userId] ?? EMPTY;

  /** The user's read, starred and collapsed bits on a message. */
  of(id: number, userId: number): number {
    return (
      (this.unreadByUser[userId]?.has(id) ? 0 : FLAG.read) |
      (this.starredByUser[userId]?.has(id) ? FLAG.starred : 0) |
      (this.collapsedByUser[userId]?.has(id) ? FLAG.collapsed : 0)
    );
  }

  /** The lists follow a change of the user's flags on a message (`old` to `flags`; other bits are ignored). */
  update(id: number, userId: number, old: number, flags: number): void {
    if ((old ^ flags) & FLAG.read) {
      if (flags & FLAG.read) this.unreadByUser[userId]?.remove(id);
      else userList(this.unreadByUser, userId).insert(id);
    }
    if ((old ^ flags) & FLAG.starred) {
      if (flags & FLAG.starred) userList(this.starredByUser, userId).insert(id);
      else this.starredByUser[userId]?.remove(id);
    }
    if ((old ^ flags) & FLAG.collapsed) {
      if (flags & FLAG.collapsed) userList(this.collapsedByUser, userId).insert(id);
      else this.collapsedByUser[userId]?.remove(id);
    }
  }

  /**
   * A row made (`old` null), changed or removed (`flags` null): the lists follow, and the journal gets
   * a line for each of the three flags that changed; a new row's three are all written (the snapshot
   * may cover the message, so its record's copy would not count) and a removed row's cleared (read:
   * not unread), so replaying needs no look at rows.
   */
  record(id: number, userId: number, old: number | null, flags: number | null): void {
    const now = flags ?? FLAG.read;
    this.update(id, userId, old ?? FLAG.read, now);
    for (const bit of EDITABLE_BITS) {
      if (old === null || flags === null || (old ^ now) & bit) this.journal.add(userId, bit, now & bit ? 1 : 0, id);
    }
  }

  /** A deleted message leaves the user's lists (no journal line: replaying skips deleted messages). */
  forget(id: number, userId: number): void {
    this.unreadByUser[userId]?.remove(id);
    this.starredByUser[userId]?.remove(id);
    this.collapsedByUser[userId]?.remove(id);
  }

  /**
   * Opening, once the records are indexed (their own flags counted above the snapshot's `upTo`):
   * the snapshot's lists, then the journal's lines in order. `exists` skips deleted messages.
   */
  load(snapshot: FlagSnapshot | null, lines: FlagLine[], exists: (id: number) => boolean): void {
    for (const [key, lists] of Object.entries(snapshot?.users ?? {})) {
      const userId = Number(key);
      if (!Number.isSafeInteger(userId) || userId < 1) continue;
      this.merge(this.unreadByUser, userId, lists.unread, exists);
      this.merge(this.starredByUser, userId, lists.starred, exists);
      this.merge(this.collapsedByUser, userId, lists.collapsed, exists);
    }
    for (const line of lines) {
      for (const id of line.ids) {
        if (!exists(id)) continue;
        const old = this.of(id, line.u);
        this.update(id, line.u, old, line.v ? old | line.f : old & ~line.f);
      }
    }
  }

  /** Snapshot IDs (at most its `upTo`, so below every ID the records added) first, then those. */
  private merge(arr: (IdList | undefined)[], userId: number, encoded: number[] | undefined, exists: (id: number) => boolean): void {
    if (!encoded?.length) return;
    const above = arr[userId];
    const l = new IdList(encoded.length + (above?.length ?? 0));
    let id = 0;
    for (const d of encoded) {
      id += d;
      if (exists(id)) l.insert(id);
    }
    if (above) for (const x of above) l.insert(x);
    arr[userId] = l;
  }

  /** Makes every change so far durable (a journal append), then compacts in the background when due. */
  save(): Promise<void> {
    return this.journal.flush().then(() => this.compactLater());
  }

  /** Whether the journal should be folded into a new snapshot (`first`: there is none yet, and `messages` are held). */
  compactionDue(first: boolean, messages: number): boolean {
    if (first) return messages > 0 || this.journal.journalBytes > 0;
    return this.journal.journalBytes > Math.max(COMPACT_MIN_BYTES, this.journal.snapshotBytes) || this.maxId() - this.journal.upTo > COMPACT_EVERY_MESSAGES;
  }

  private compactLater(): void {
    if (this.compacting || !this.compactionDue(false, 0)) return;
    // Refused (a full disk): the snapshot and journal before it still hold everything; tried again later.
    this.compacting = this.compact()
      .catch(() => undefined)
      .finally(() => (this.compacting = null));
  }

  /** Writes a new snapshot as of now and starts the next journal. */
  compact(): Promise<void> {
    return this.journal.compact(() => this.snapshot());
  }

  /** Every user's lists as of now, covering every message (a snapshot's body). */
  snapshot(): Omit<FlagSnapshot, 'log'> {
    const users: Record<string, UserFlagLists> = {};
    const n = Math.max(this.unreadByUser.length, this.starredByUser.length, this.collapsedByUser.length);
    for (let u = 1; u < n; u++) {
      const lists: UserFlagLists = {};
      const unread = this.unreadByUser[u];
      const starred = this.starredByUser[u];
      const collapsed = this.collapsedByUser[u];
      if (unread?.length) lists.unread = deltaEncode(unread.toArray());
      if (starred?.length) lists.starred = deltaEncode(starred.toArray());
      if (collapsed?.length) lists.collapsed = deltaEncode(collapsed.toArray());
      if (lists.unread || lists.starred || lists.collapsed) users[u] = lists;
    }
    return { upTo: this.maxId(), users };
  }

  settled(): Promise<void> {
    return this.journal.settled();
  }
}
