/**
 * The message store: messages in a SegmentedCollection (`<dataDir>/messages/`)
 * plus in-memory indexes rebuilt at open. Everything else reaches messages
 * through this class; only actions mutate, inside `commit`.
 *
 * API for other areas (flags, edits, moves, deletes, reactions):
 * - reading: `get(id)`, `maxId`, `size`; `rowFlags(m, userId)` (the user's
 *   UserMessage flags, null when the user has no row); index lists (IdList,
 *   ascending): `userMessages(u)`, `unread(u)`, `starred(u)`, `directOf(u)`,
 *   `channel(s)`, `topic(s, name)`, `topicsOf(s)`, `conversation(key)`, `sender(u)`.
 * - writing (in memory; then `tx.touch(() => store.messages.save(...ids))`):
 *   `add(fields)` assigns the ID and indexes; `setRowFlags(m, u, flags)` adds
 *   or updates a row (use FLAG.historical for rows created on demand);
 *   `removeRow(m, u)`; `setRows(m, changes)` for many users' rows of one message at
 *   once (one copy of its shared list); `relocate(m, {stream_id, topic})` for moves and topic
 *   edits (keeps the indexes); `setContent(m, content, rendered, bits)` for
 *   edits (record them in `m.edits` yourself); `remove(id)` for deletion
 *   (IDs are never reused); `nextSubmessageId()` for a message's `submessages`.
 * Flags are FLAG bits from message-records.ts; `flagNames` gives the API list.
 */
import { SegmentedCollection } from './segmented.js';
import { IdList } from './message-ids.js';
import { SearchIndex } from './search-index.js';
import { RowLists } from './row-lists.js';
import { FLAG, ROW_SPAN, assignContent, conversationKey, packRow, packedRows, rowFlagsOf, rowUser, type MessageRecord } from './message-records.js';

export interface TopicEntry {
  ids: IdList;
}

const list = <K>(map: Map<K, IdList>, key: K): IdList => {
  let l = map.get(key);
  if (!l) map.set(key, (l = new IdList()));
  return l;
};

/** Per-user lists in an array indexed by user ID (user IDs are small integers; faster than a Map at load). */
const userList = (arr: (IdList | undefined)[], userId: number): IdList => (arr[userId] ??= new IdList());

const EMPTY = new IdList(0);
export const topicKey = (topic: string) => topic.toLowerCase();

export class MessageStore {
  /** Every message ID, ascending. */
  readonly allIds = new IdList(1024);
  private readonly byChannel = new Map<number, IdList>();
  private readonly byTopic = new Map<number, Map<string, TopicEntry>>();
  /** Lower-cased topic names, by topic name (topics repeat: one key string each). */
  private readonly topicKeys = new Map<string, string>();
  private readonly byConversation = new Map<string, IdList>();
  private readonly bySender = new Map<number, IdList>();
  /**
   * A user's messages and direct messages: built on the user's first use (one
   * scan, tens of ms at 1M) rather than at open, where 10M rows would cost
   * seconds; kept current once built.
   */
  private readonly byUser: (IdList | undefined)[] = [];
  private readonly unreadByUser: (IdList | undefined)[] = [];
  private readonly starredByUser: (IdList | undefined)[] = [];
  private readonly directByUser: (IdList | undefined)[] = [];
  /**
   * The highest submessage ID in the store (found at open). IDs of the newest message's submessages may
   * be used again after it is deleted and the server restarts: they only ever order one message's.
   */
  private lastSubmessageId = 0;
  /** Words → message IDs for the `search` operator (built in the background after open). */
  readonly search = new SearchIndex();
  private constructor(
    readonly items: SegmentedCollection<MessageRecord>,
    /** Row lists shared between messages with the same rows (a change makes a new list). */
    private readonly rows: RowLists,
  ) {}

  static async open(dir: string): Promise<MessageStore> {
    const topics = new Map<string, string>(); // interning: one string per distinct topic
    const rows = new RowLists();
    // A message's rows are most often the previous ones of its channel (or conversation).
    const lastRows = new Map<number | string, readonly number[]>();
    const loaded: MessageRecord[][] = [];
    const items = await SegmentedCollection.open<MessageRecord>(dir, 1000, (segment) => {
      // Shared (rows) and interned (topics) as each segment is parsed, so the duplicates die young.
      for (const m of segment) {
        try {
          const place = m.stream_id ?? conversationKey(m.dm ?? []);
          m.um = rows.hold(packedRows(m.um), lastRows.get(place));
          lastRows.set(place, m.um);
        } catch (err) {
          throw new Error(`message ${m.id} in ${dir}: its recipients' rows cannot be read (${(err as Error).message})`);
        }
        let t = topics.get(m.topic);
        if (t === undefined) topics.set(m.topic, (t = m.topic));
        m.topic = t;
      }
      loaded.push(segment);
    });
    const store = new MessageStore(items, rows);
    store.allIds.reserve(items.size);
    for (const segment of loaded) for (const m of segment) store.index(m);
    // The word index builds between requests; search scans until it is ready.
    const ids = store.allIds.toArray();
    void store.search.build(
      (function* () {
        for (const id of ids) {
          const m = store.items.get(id);
          if (m) yield m;
        }
      })(),
    );
    return store;
  }

  get maxId(): number {
    return this.items.maxId;
  }

  get size(): number {
    return this.items.size;
  }

  get(id: number): MessageRecord | undefined {
    return this.items.get(id);
  }

  all(): IterableIterator<MessageRecord> {
    return this.items.all();
  }

  /** Adds a message in memory (the ID is assigned here) and indexes it; `save(id)` makes it durable. */
  add(fields: Omit<MessageRecord, 'id'>): MessageRecord {
    if (fields.rendered !== undefined) assignContent(fields, fields.content, fields.rendered);
    if (fields.bits === 0) delete fields.bits;
    fields.um = this.rows.hold(fields.um);
    const m = this.items.append(fields);
    this.index(m);
    this.search.add(m);
    return m;
  }

  /** A new submessage ID (Zulip's are global and ascending). */
  nextSubmessageId(): number {
    return ++this.lastSubmessageId;
  }

  save(...ids: number[]): Promise<void> {
    return this.items.save(...ids);
  }

  settled(): Promise<void> {
    return this.items.settled();
  }

  /** Removes a message and its rows from memory and the indexes; `save(id)` makes it durable. */
  remove(id: number): MessageRecord | undefined {
    const m = this.items.get(id);
    if (!m) return undefined;
    this.unindex(m);
    this.items.remove(id);
    this.rows.release(m.um);
    return m;
  }

  // ------------------------------------------------------------ user rows

  /** Where the user's row is in `m.um` (rows ascend by user, so by number), or -1. */
  private rowIndex(m: MessageRecord, userId: number): number {
    // Not a user ID (NaN, 1.5): no row, rather than whichever row its range would hit.
    if (!Number.isInteger(userId)) return -1;
    const um = m.um;
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

  /** The user's flags on the message, or null when the user has no row (never received it). */
  rowFlags(m: MessageRecord, userId: number): number | null {
    const i = this.rowIndex(m, userId);
    return i < 0 ? null : rowFlagsOf(m.um[i]!);
  }

  /** User IDs with a row, ascending. */
  rowUserIds(m: MessageRecord): number[] {
    return m.um.map(rowUser);
  }

  /** Sets (or creates) the user's row on the message. */
  setRowFlags(m: MessageRecord, userId: number, flags: number): void {
    if (this.rowFlags(m, userId) !== flags) this.setRows(m, new Map([[userId, flags]]));
  }

  removeRow(m: MessageRecord, userId: number): void {
    this.setRows(m, new Map([[userId, null]]));
  }

  /**
   * Users' rows of one message, changed in one new list (the list is shared, so each change
   * copies it; one change per user was seconds for an edit seen by 10,000). `changes`: user ID →
   * their row's flags (made if missing), or null to remove it. What is not a user ID or flags is
   * refused (RangeError) before anything changes.
   */
  setRows(m: MessageRecord, changes: ReadonlyMap<number, number | null>): void {
    const users = [...changes.keys()].filter((u) => changes.get(u) !== null || Number.isInteger(u)).sort((a, b) => a - b);
    const um = m.um;
    const rows: number[] = [];
    const changed: { userId: number; old: number | null; flags: number | null }[] = [];
    let i = 0;
    for (const userId of users) {
      while (i < um.length && rowUser(um[i]!) < userId) rows.push(um[i++]!);
      const flags = changes.get(userId)!;
      const old = i < um.length && rowUser(um[i]!) === userId ? rowFlagsOf(um[i++]!) : null;
      if (flags !== null) rows.push(packRow(userId, flags));
      if (old !== flags) changed.push({ userId, old, flags });
    }
    if (!changed.length) return;
    while (i < um.length) rows.push(um[i++]!);
    m.um = this.rows.replace(um, rows);
    for (const { userId, old, flags } of changed) {
      if (flags === null) this.unindexRow(m, userId);
      else if (old === null) this.indexRow(m, userId, flags);
      else this.updateFlagIndexes(m.id, userId, old, flags);
    }
  }

  private updateFlagIndexes(id: number, userId: number, old: number, flags: number): void {
    if ((old ^ flags) & FLAG.read) {
      if (flags & FLAG.read) this.unreadByUser[userId]?.remove(id);
      else userList(this.unreadByUser, userId).insert(id);
    }
    if ((old ^ flags) & FLAG.starred) {
      if (flags & FLAG.starred) userList(this.starredByUser, userId).insert(id);
      else this.starredByUser[userId]?.remove(id);
    }
  }

  private indexRow(m: MessageRecord, userId: number, flags: number): void {
    this.byUser[userId]?.insert(m.id);
    if (m.dm) this.directByUser[userId]?.insert(m.id);
    this.updateFlagIndexes(m.id, userId, FLAG.read, flags);
  }

  private unindexRow(m: MessageRecord, userId: number): void {
    this.byUser[userId]?.remove(m.id);
    this.directByUser[userId]?.remove(m.id);
    this.unreadByUser[userId]?.remove(m.id);
    this.starredByUser[userId]?.remove(m.id);
  }

  // ------------------------------------------------------------ content and place

  setContent(m: MessageRecord, content: string, rendered: string, bits: number): void {
    assignContent(m, content, rendered);
    if (bits) m.bits = bits;
    else delete m.bits;
    this.search.add(m);
  }

  /** Moves a channel message to another channel and/or topic, keeping the indexes. */
  relocate(m: MessageRecord, to: { stream_id: number; topic: string }): void {
    this.unindexPlace(m);
    m.stream_id = to.stream_id;
    m.topic = to.topic;
    this.indexPlace(m);
    this.search.add(m);
  }

  private keyOf(topic: string): string {
    let key = this.topicKeys.get(topic);
    if (key === undefined) {
      key = topicKey(topic);
      if (this.topicKeys.size < 1_000_000) this.topicKeys.set(topic, key);
    }
    return key;
  }

  private indexPlace(m: MessageRecord): void {
    if (m.stream_id === null) {
      list(this.byConversation, conversationKey(m.dm ?? [])).insert(m.id);
      return;
    }
    list(this.byChannel, m.stream_id).insert(m.id);
    let topics = this.byTopic.get(m.stream_id);
    if (!topics) this.byTopic.set(m.stream_id, (topics = new Map()));
    const key = this.keyOf(m.topic);
    let entry = topics.get(key);
    if (!entry) topics.set(key, (entry = { ids: new IdList(4) }));
    entry.ids.insert(m.id);
  }

  private unindexPlace(m: MessageRecord): void {
    if (m.stream_id === null) {
      this.byConversation.get(conversationKey(m.dm ?? []))?.remove(m.id);
      return;
    }
    this.byChannel.get(m.stream_id)?.remove(m.id);
    const topics = this.byTopic.get(m.stream_id);
    const key = this.keyOf(m.topic);
    const entry = topics?.get(key);
    if (entry) {
      entry.ids.remove(m.id);
      if (entry.ids.length === 0) topics!.delete(key);
    }
  }

  private index(m: MessageRecord): void {
    const subs = m.submessages;
    if (subs?.length) this.lastSubmessageId = Math.max(this.lastSubmessageId, subs[subs.length - 1]!.id);
    this.allIds.insert(m.id);
    this.indexPlace(m);
    list(this.bySender, m.sender_id).insert(m.id);
    for (const r of m.um) this.indexRow(m, rowUser(r), rowFlagsOf(r));
  }

  private unindex(m: MessageRecord): void {
    this.allIds.remove(m.id);
    this.unindexPlace(m);
    this.bySender.get(m.sender_id)?.remove(m.id);
    for (const r of m.um) this.unindexRow(m, rowUser(r));
  }

  // ------------------------------------------------------------ index reads (ascending IdLists; do not mutate)

  userMessages = (userId: number): IdList => this.byUser[userId] ?? this.buildUserLists(userId).all;
  unread = (userId: number): IdList => this.unreadByUser[userId] ?? EMPTY;
  starred = (userId: number): IdList => this.starredByUser[userId] ?? EMPTY;
  directOf = (userId: number): IdList => this.directByUser[userId] ?? this.buildUserLists(userId).direct;

  /** The newest message the user has a row for (0 when none), without building the user's lists. */
  maxMessageIdOf(userId: number): number {
    const built = this.byUser[userId];
    if (built) return built.last ?? 0;
    for (const id of this.allIds.descending()) {
      const m = this.items.get(id);
      if (m && this.rowIndex(m, userId) >= 0) return id;
    }
    return 0;
  }

  /** The direct conversations the user takes part in, each with its messages (ascending). */
  *conversationsOf(userId: number): IterableIterator<{ userIds: number[]; ids: IdList }> {
    for (const [key, ids] of this.byConversation) {
      if (ids.length === 0) continue;
      const userIds = key.split(',').map(Number);
      if (userIds.includes(userId)) yield { userIds, ids };
    }
  }

  private buildUserLists(userId: number): { all: IdList; direct: IdList } {
    const all = new IdList(64);
    const direct = new IdList(16);
    for (const m of this.items.all()) {
      if (this.rowIndex(m, userId) < 0) continue;
      all.insert(m.id);
      if (m.dm) direct.insert(m.id);
    }
    this.byUser[userId] = all;
    this.directByUser[userId] = direct;
    return { all, direct };
  }
  channel = (streamId: number): IdList => this.byChannel.get(streamId) ?? EMPTY;
  conversation = (key: string): IdList => this.byConversation.get(key) ?? EMPTY;
  /** Every direct conversation's IDs (the retention pass reads them: direct messages follow the organization's policy). */
  directConversations = (): IterableIterator<IdList> => this.byConversation.values();
  sender = (userId: number): IdList => this.bySender.get(userId) ?? EMPTY;

  topic(streamId: number, name: string): IdList {
    return this.byTopic.get(streamId)?.get(topicKey(name))?.ids ?? EMPTY;
  }

  /** Whether any message of the channel is in a named (non-empty) topic. */
  hasNamedTopics(streamId: number): boolean {
    for (const [key, e] of this.byTopic.get(streamId) ?? []) if (key !== '' && e.ids.length) return true;
    return false;
  }

  /** The channel's topics: for each, the newest message ID (its topic spelling is the topic's name). */
  *topicsOf(streamId: number): IterableIterator<{ maxId: number }> {
    for (const e of this.byTopic.get(streamId)?.values() ?? []) if (e.ids.length) yield { maxId: e.ids.last! };
  }
}
