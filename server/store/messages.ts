/**
 * The message store: messages in a SegmentedCollection (`<dataDir>/messages/`)
 * plus in-memory indexes rebuilt at open. Everything else reaches messages
 * through this class; only actions mutate, inside `commit`.
 *
 * API for other areas (flags, edits, moves, deletes, reactions):
 * - reading: `get(id)`, `maxId`, `size`; `rowFlags(m, userId)` (the user's
 *   UserMessage flags, null when the user has no row); index lists (IdList,
 *   ascending): `userMessages(u)`, `unread(u)`, `starred(u)`, `directOf(u)`,
 *   `channel(s)`, `topic(s, name)`, `topicsOf(s)`, `conversation(key)`, `sender(u)` (built on first
 *   use from the sender column, ./sender-column.ts); `newestSentBy(u)`.
 * - writing (in memory; then `tx.touch(() => store.messages.save(...ids))`):
 *   `add(fields)` assigns the ID and indexes; `setRowFlags(m, u, flags)` adds
 *   or updates a row (use FLAG.historical for rows created on demand);
 *   `removeRow(m, u)`; `setRows(m, changes)` for many users' rows of one message at
 *   once (one copy of its shared list); `relocate(m, {stream_id, topic})` for moves and topic
 *   edits (keeps the indexes); `setContent(m, content, rendered, bits)` for
 *   edits (record them in `m.edits` yourself); `remove(id)` for deletion
 *   (IDs are never reused); `nextSubmessageId()` for a message's `submessages`.
 * Flags are FLAG bits from message-records.ts; `flagNames` gives the API list. Read, starred and
 * collapsed live apart from the records (`flags`: ./flag-lists.ts, journal ./flag-journal.ts): a
 * change of only those writes a journal line, not a segment (`setRowFlags` answers whether the
 * record changed; `saveFlags` makes flag changes durable, `save(...ids)` records and flags).
 */
import { SegmentedCollection } from './segmented.js';
import { defaultMessageCacheBytes, segmentFileName } from './segment-files.js';
import type { IdList } from './message-ids.js';
import { IdBitmap } from './id-bitmap.js';
import { MessageSearch } from './message-search.js';
import { RowLists } from './row-lists.js';
import { FLAG, assignContent, packRow, rowFlagsOf, rowUser, type MessageRecord } from './message-records.js';
import { EDITABLE_MASK, FLAGS_FILE, FlagJournal, unreadIn, type FlagSnapshot } from './flag-journal.js';
import { FlagLists } from './flag-lists.js';
import { PlaceIndex } from './place-index.js';
import { RowColumn, UnreadPlaces, rowIndexIn } from './row-column.js';
import { SenderColumn } from './sender-column.js';
import { UserLists } from './user-lists.js';
import { decodeMessageSidecar, encodeMessageSidecar, messageLayout, type IndexedMessage } from './message-sidecar.js';
import { indexDecoded, type IndexSinks } from './sidecar-index.js';
import { prepareSegment, topicInterner } from './segment-prepare.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export { topicKey, type TopicEntry } from './place-index.js';

export class MessageStore {
  /** Every message ID, ascending. */
  readonly allIds = new IdBitmap();
  /** Channels', topics' and direct conversations' messages. */
  private readonly places = new PlaceIndex();
  private readonly senders = new SenderColumn();
  /**
   * The highest submessage ID in the store (found at open). IDs of the newest message's submessages may
   * be used again after it is deleted and the server restarts: they only ever order one message's.
   */
  private lastSubmessageId = 0;
  /** Words → message IDs for the `search` operator (./message-search.ts: made ready in the background after open). */
  search!: MessageSearch;
  /** Each message's row list by number, and where recently unread messages are (no record needed). */
  private readonly column: RowColumn;
  /** Each user's messages and direct messages, built on first use. */
  private readonly users: UserLists;
  private readonly unreadPlaces = new UnreadPlaces();
  /** While opening: messages the flags snapshot or journal may have unread for someone. */
  private openingUnread: Set<number> | null = null;
  /** The records, in segment files read on demand (./segmented.ts). Set once, by `open`. */
  items!: SegmentedCollection<MessageRecord>;

  private constructor(
    /** Row lists shared between messages with the same rows (a change makes a new list). */
    private readonly rows: RowLists,
    journal: FlagJournal,
    /** Messages up to this ID take their editable flags from the flags snapshot, not from `um` (while opening). */
    private flagsFromRecordsAbove: number,
  ) {
    this.flags = new FlagLists(journal, () => this.items.maxId);
    this.column = new RowColumn(rows);
    this.users = new UserLists(this.allIds, this.column, this.places);
  }

  /** Read, starred and collapsed, kept apart from the records (./flag-lists.ts, ./flag-journal.ts), not in `um`. */
  readonly flags: FlagLists;

  /**
   * Opens the messages folder. `writable` false (a rollback's reopen): nothing on disk changes.
   * The first start of a data dir from before the flags journal writes its first snapshot here.
   */
  static async open(dir: string, opts: { writable?: boolean; cacheBytes?: number; searchRunSegments?: number } = {}): Promise<MessageStore> {
    const writable = opts.writable !== false;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const opened = await FlagJournal.open(dir, writable);
    const rows = new RowLists();
    const store = new MessageStore(rows, opened.journal, opened.snapshot?.upTo ?? 0);
    store.openingUnread = unreadIn(opened.snapshot, opened.lines);
    const intern = topicInterner();
    const prepare = (segment: MessageRecord[]) => prepareSegment(segment, rows, intern, dir);
    // Each segment is indexed from its sidecar (./message-sidecar.ts), or as it is read; only the
    // newest read stay in memory (the cache's budget).
    const sinks: IndexSinks = {
      allIds: store.allIds,
      places: store.places,
      column: store.column,
      rows,
      senders: store.senders,
      recordsAbove: store.flagsFromRecordsAbove,
      one: (m) => store.index(m),
      unread: store.openingUnread,
      noteUnread: (m) => store.unreadPlaces.note(m),
    };
    const sidecar = {
      write: writable,
      encode: encodeMessageSidecar,
      layout: messageLayout,
      apply: (body: Buffer, count: number) => {
        const d = decodeMessageSidecar(body, count, (l, n) => rows.hold(l, undefined, n), intern);
        store.lastSubmessageId = Math.max(store.lastSubmessageId, d.sub);
        indexDecoded(d, sinks);
      },
    };
    store.items = await SegmentedCollection.open<MessageRecord>(dir, 1000, (segment) => {
      for (const m of segment) store.index(m);
    }, { prepare, sidecar, cacheBytes: opts.cacheBytes ?? defaultMessageCacheBytes(), highest: (id) => {
      store.column.reserve(id);
      store.senders.reserve(id);
    } });
    const items = store.items;
    store.flags.load(opened.snapshot, opened.lines, (id) => store.allIds.has(id));
    store.flagsFromRecordsAbove = -1;
    store.openingUnread = null;
    // An ID the snapshot covered is never assigned again (a message refused by the disk had it).
    items.reserveThrough(opened.journal.upTo);
    if (writable && store.flags.compactionDue(opened.snapshot === null, items.size)) {
      // A full disk starts all the same; the snapshot waits for the next start or change.
      await store.flags.compact().catch(() => undefined);
    }
    // The word index (runs on disk, the rest in memory) gets ready between requests; search scans until then.
    store.search = new MessageSearch(join(dir, 'search'), {
      ids: store.allIds,
      get: (id) => store.items.get(id, true),
      get maxId() {
        return store.items.maxId;
      },
      segmentFile: (first) => join(dir, segmentFileName(first)),
      settled: () => store.items.settled(),
    }, writable, 1000, opts.searchRunSegments);
    void store.search.start();
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

  /** The message, to read and not change (from old history it is read alone and not kept: ./segment-points.ts). */
  peek(id: number): MessageRecord | undefined {
    return this.items.get(id, false, true);
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

  /** Makes these messages' records durable, and every flag change made so far (the journal). */
  save(...ids: number[]): Promise<void> {
    if (!ids.length) return this.saveFlags();
    return Promise.all([this.items.save(...ids), this.saveFlags()]).then(() => undefined);
  }

  /** Makes every flag change made so far durable: a line appended to the flags journal, no segment written. */
  saveFlags(): Promise<void> {
    return this.flags.save();
  }

  settled(): Promise<void> {
    return Promise.all([this.items.settled(), this.flags.settled()]).then(() => undefined);
  }

  // ------------------------------------------------------------ the flags snapshot and journal

  /** Writes a new flags snapshot as of now and starts the next journal (compaction; tests call it). */
  compactFlags(): Promise<void> {
    return this.flags.compact();
  }

  /**
   * Every file of the messages folder as of now, synchronously (for one-instant backups): the
   * segments (./segmented.ts files()) and a flags snapshot made from memory, which covers every
   * message, so no journal goes with it.
   */
  files(): { file: string; clean: boolean; data: unknown }[] {
    const out = this.items.files();
    const snapshot: FlagSnapshot = { ...this.flags.snapshot(), log: 1 };
    out.push({ file: join(this.items.dir, FLAGS_FILE), clean: false, data: snapshot });
    return out;
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
  private rowIndex(m: Pick<MessageRecord, 'um'>, userId: number): number {
    return rowIndexIn(m.um, userId);
  }

  /** The user's flags on the message, or null when the user has no row (never received it). */
  rowFlags(m: Pick<MessageRecord, 'id' | 'um'>, userId: number): number | null {
    const i = this.rowIndex(m, userId);
    return i < 0 ? null : (rowFlagsOf(m.um[i]!) & ~EDITABLE_MASK) | this.flags.of(m.id, userId);
  }

  /** User IDs with a row, ascending. */
  rowUserIds(m: MessageRecord): number[] {
    return m.um.map(rowUser);
  }

  /**
   * Sets (or creates) the user's row on the message. True when the record changed (a new row, or a
   * flag other than read, starred and collapsed): the message's segment must then be saved; a
   * change of those three alone goes to the flags journal (`save` or `saveFlags` makes it durable).
   */
  setRowFlags(m: MessageRecord, userId: number, flags: number): boolean {
    return this.rowFlags(m, userId) !== flags && this.setRows(m, new Map([[userId, flags]]));
  }

  removeRow(m: MessageRecord, userId: number): void {
    this.setRows(m, new Map([[userId, null]]));
  }

  /**
   * Users' rows of one message, changed in one new list (the list is shared, so each change
   * copies it; one change per user was seconds for an edit seen by 10,000). `changes`: user ID →
   * their row's flags (made if missing), or null to remove it. What is not a user ID or flags is
   * refused (RangeError) before anything changes. Read, starred and collapsed go to the flag lists
   * and the journal; the record changes only for a new or removed row or another flag. True when
   * the record changed.
   */
  setRows(m: MessageRecord, changes: ReadonlyMap<number, number | null>): boolean {
    const users = [...changes.keys()].filter((u) => changes.get(u) !== null || Number.isInteger(u)).sort((a, b) => a - b);
    const um = m.um;
    const rows: number[] = [];
    const changed: { userId: number; old: number | null; flags: number | null }[] = [];
    let recordChanged = false;
    let i = 0;
    for (const userId of users) {
      while (i < um.length && rowUser(um[i]!) < userId) rows.push(um[i++]!);
      const flags = changes.get(userId)!;
      const stored = i < um.length && rowUser(um[i]!) === userId ? um[i++]! : null;
      const old = stored === null ? null : (rowFlagsOf(stored) & ~EDITABLE_MASK) | this.flags.of(m.id, userId);
      if (flags !== null) {
        // The row as stored stays while only the journal's flags change (its own copy of them is older, which is allowed).
        if (stored !== null && (rowFlagsOf(stored) & ~EDITABLE_MASK) === (flags & ~EDITABLE_MASK)) rows.push(stored);
        else {
          rows.push(packRow(userId, flags));
          recordChanged = true;
        }
      } else if (stored !== null) recordChanged = true;
      if (old !== flags) changed.push({ userId, old, flags });
    }
    if (!changed.length) return false;
    while (i < um.length) rows.push(um[i++]!);
    if (recordChanged) {
      m.um = this.rows.replace(um, rows);
      this.column.set(m.id, m.um);
    }
    for (const { userId, old, flags } of changed) {
      if (flags !== null && !(flags & FLAG.read)) this.unreadPlaces.note(m);
      if (flags === null) this.users.remove(m, userId);
      else if (old === null) this.users.add(m, userId);
      this.flags.record(m.id, userId, old, flags);
    }
    return recordChanged;
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
    this.places.remove(m);
    m.stream_id = to.stream_id;
    m.topic = to.topic;
    this.places.add(m);
    this.unreadPlaces.moved(m);
    this.search.add(m);
  }

  private index(m: IndexedMessage & Pick<MessageRecord, 'submessages'>): void {
    const subs = m.submessages;
    if (subs?.length) this.lastSubmessageId = Math.max(this.lastSubmessageId, subs[subs.length - 1]!.id);
    this.allIds.insert(m.id);
    this.places.add(m);
    this.column.set(m.id, m.um);
    this.senders.set(m.id, m.sender_id);
    // Read, starred and collapsed in the record count only above the flags snapshot (while opening).
    const fromRecord = m.id > this.flagsFromRecordsAbove;
    let unread = this.openingUnread?.has(m.id) ?? false;
    // (Below the snapshot, while opening: no user's lists are built yet and the flags come from the snapshot.)
    if (fromRecord) {
      for (const r of m.um) {
        const userId = rowUser(r);
        const flags = rowFlagsOf(r);
        this.users.add(m, userId);
        this.flags.update(m.id, userId, FLAG.read, flags);
        if (!(flags & FLAG.read)) unread = true;
      }
    }
    if (unread) this.unreadPlaces.note(m);
  }

  private unindex(m: MessageRecord): void {
    this.allIds.remove(m.id);
    this.unreadPlaces.forget(m.id);
    this.column.set(m.id, []);
    this.places.remove(m);
    this.senders.remove(m.id, m.sender_id);
    for (const r of m.um) {
      this.users.remove(m, rowUser(r));
      this.flags.forget(m.id, rowUser(r));
    }
  }

  // ------------------------------------------------------------ index reads (ascending IdLists; do not mutate)

  userMessages = (userId: number): IdList => this.users.userMessages(userId);
  /** The newest message the user has a row for (0 when none), without building the user's lists or reading a record. */
  maxMessageIdOf = (userId: number): number => this.users.maxMessageIdOf(userId);
  unread = (userId: number): IdList => this.flags.unread(userId);
  starred = (userId: number): IdList => this.flags.starred(userId);
  directOf = (userId: number): IdList => this.users.directOf(userId);

  /**
   * What the unread counts need of a message (place and rows), without reading its segment when
   * it was unread recently (./row-column.ts UnreadPlaces); else the record.
   */
  unreadRecord(id: number): Pick<MessageRecord, 'id' | 'stream_id' | 'topic' | 'dm' | 'um'> | undefined {
    const place = this.unreadPlaces.get(id);
    if (place && this.allIds.has(id)) return { id, ...place, um: this.column.rowsOf(id) };
    return this.items.get(id);
  }
  channel = (streamId: number): IdList => this.places.channel(streamId);
  conversation = (key: string): IdList => this.places.conversation(key);
  /** Every direct conversation's IDs (the retention pass reads them: direct messages follow the organization's policy). */
  directConversations = (): IterableIterator<IdList> => this.places.directConversations();
  /** The direct conversations the user takes part in, each with its messages (ascending). */
  conversationsOf = (userId: number) => this.places.conversationsOf(userId);
  topic = (streamId: number, name: string): IdList => this.places.topic(streamId, name);
  /** Whether any message of the channel is in a named (non-empty) topic. */
  hasNamedTopics = (streamId: number): boolean => this.places.hasNamedTopics(streamId);
  /** The channel's topics: for each, the newest message ID (its topic spelling is the topic's name). */
  topicsOf = (streamId: number) => this.places.topicsOf(streamId);
  sender = (userId: number): IdList => this.senders.list(userId);
  /** The newest message the user sent, if any. */
  newestSentBy = (userId: number): number | undefined => this.senders.newestOf(userId);
}
