/**
 * Each user's messages and direct messages (IdList, ascending): built on the user's first use by a
 * scan of the row column (no record is read; each distinct row list is looked at once), rather
 * than at open, where every recipient of every message would cost memory in proportion to history;
 * kept current once built. MessageStore owns one.
 */
import { IdList, type SortedIds } from './message-ids.js';
import type { MessageRecord } from './message-records.js';
import type { PlaceIndex } from './place-index.js';
import type { RowColumn } from './row-column.js';

export class UserLists {
  private readonly byUser: (IdList | undefined)[] = [];
  private readonly directByUser: (IdList | undefined)[] = [];

  constructor(
    private readonly allIds: SortedIds,
    private readonly column: RowColumn,
    private readonly places: PlaceIndex,
  ) {}

  userMessages = (userId: number): IdList => this.byUser[userId] ?? this.build(userId).all;
  directOf = (userId: number): IdList => this.directByUser[userId] ?? this.build(userId).direct;

  /** The user got a row on the message (kept in the lists once built). */
  add(m: Pick<MessageRecord, 'id' | 'dm'>, userId: number): void {
    this.byUser[userId]?.insert(m.id);
    if (m.dm) this.directByUser[userId]?.insert(m.id);
  }

  remove(m: MessageRecord, userId: number): void {
    this.byUser[userId]?.remove(m.id);
    this.directByUser[userId]?.remove(m.id);
  }

  /** The newest message the user has a row for (0 when none), without building the user's lists. */
  maxMessageIdOf(userId: number): number {
    const built = this.byUser[userId];
    if (built) return built.last ?? 0;
    const has = this.column.tester(userId);
    for (const id of this.allIds.descending()) if (has(id)) return id;
    return 0;
  }

  private build(userId: number): { all: IdList; direct: IdList } {
    const all = new IdList(64);
    const direct = new IdList(16);
    const has = this.column.tester(userId);
    for (const id of this.allIds) if (has(id)) all.insert(id);
    for (const { ids } of this.places.conversationsOf(userId)) for (const id of ids) if (has(id)) direct.insert(id);
    this.byUser[userId] = all;
    this.directByUser[userId] = direct;
    return { all, direct };
  }
}
