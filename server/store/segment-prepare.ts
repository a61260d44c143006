/**
 * What a message segment's records go through whenever they are read from disk: rows shared
 * (RowLists: a message's rows are most often the previous ones of its channel or conversation)
 * and topics interned, so that the duplicates a parse makes die young.
 */
import { conversationKey, packedRows, type MessageRecord } from './message-records.js';
import type { RowLists } from './row-lists.js';

/** One string per distinct topic (at most 100,000 kept). */
export function topicInterner(): (topic: string) => string {
  const topics = new Map<string, string>();
  return (topic) => {
    const t = topics.get(topic);
    if (t !== undefined) return t;
    if (topics.size < 100_000) topics.set(topic, topic);
    return topic;
  };
}

export function prepareSegment(segment: MessageRecord[], rows: RowLists, intern: (topic: string) => string, dir: string): void {
  const lastRows = new Map<number | string, readonly number[]>();
  for (const m of segment) {
    try {
      const place = m.stream_id ?? conversationKey(m.dm ?? []);
      m.um = rows.hold(packedRows(m.um), lastRows.get(place));
      lastRows.set(place, m.um);
    } catch (err) {
      throw new Error(`message ${m.id} in ${dir}: its recipients' rows cannot be read (${(err as Error).message})`);
    }
    m.topic = intern(m.topic);
  }
}
