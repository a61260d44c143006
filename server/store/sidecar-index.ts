/**
 * Opening's indexing of a segment read from its sidecar (./message-sidecar.ts): what
 * MessageStore.index does for each message, with the lookups a segment's messages share (their
 * channel's, topic's and conversation's lists, their rows' numbers) made once for the
 * segment rather than once a message. Messages whose rows' flags still count (above the flags
 * snapshot) go through `one`, the store's own indexing.
 */
import { conversationKey } from './message-records.js';
import type { IdBitmap } from './id-bitmap.js';
import type { IdList } from './message-ids.js';
import type { DecodedSidecar, IndexedMessage } from './message-sidecar.js';
import type { PlaceIndex } from './place-index.js';
import type { RowColumn } from './row-column.js';
import type { RowLists } from './row-lists.js';
import type { SenderColumn } from './sender-column.js';

export interface IndexSinks {
  allIds: IdBitmap;
  places: PlaceIndex;
  column: RowColumn;
  rows: RowLists;
  senders: SenderColumn;
  /** Messages above this ID are indexed by `one`. */
  recordsAbove: number;
  one(m: IndexedMessage): void;
  /** Messages someone may have unread (their place is noted with `noteUnread`). */
  unread: Set<number> | null;
  noteUnread(m: IndexedMessage): void;
}

export function indexDecoded(d: DecodedSidecar, s: IndexSinks): void {
  const { count: n, col } = d;
  const rowNumbers = d.rows.map((r) => s.rows.idOf(r));
  const nTopics = d.topics.length;
  // Per segment: place (channel ID, or -1 - conversation) → its list; place and topic → the topic's.
  const placeLists = new Map<number, IdList>();
  const topicLists = new Map<number, IdList>();
  const m: IndexedMessage = { id: 0, sender_id: 0, stream_id: null, topic: '', dm: undefined, um: [] };
  const fill = (i: number): IndexedMessage => {
    const place = col[2 * n + i]!;
    m.id = col[i]!;
    m.sender_id = col[n + i]!;
    m.stream_id = place < 0 ? null : place;
    m.dm = place < 0 ? d.dms[-1 - place] : undefined;
    m.topic = d.topics[col[3 * n + i]!]!;
    m.um = d.rows[col[4 * n + i]!]!;
    return m;
  };
  for (let i = 0; i < n; i++) {
    const id = col[i]!;
    if (id > s.recordsAbove) {
      s.one(fill(i));
      continue;
    }
    s.allIds.insert(id);
    const place = col[2 * n + i]!;
    let pl = placeLists.get(place);
    if (!pl) placeLists.set(place, (pl = place < 0 ? s.places.conversationList(conversationKey(d.dms[-1 - place]!)) : s.places.channelList(place)));
    pl.insert(id);
    if (place >= 0) {
      const ti = col[3 * n + i]!;
      const key = place * nTopics + ti;
      let tl = topicLists.get(key);
      if (!tl) topicLists.set(key, (tl = s.places.topicList(place, d.topics[ti]!)));
      tl.insert(id);
    }
    s.column.setNumber(id, rowNumbers[col[4 * n + i]!]!);
    s.senders.set(id, col[n + i]!);
    if (s.unread?.has(id)) s.noteUnread(fill(i));
  }
}
