/**
 * Where messages are: each channel's, each topic's (by lower-cased name) and each direct
 * conversation's message IDs (IdList, ascending), kept current as messages arrive, move and go.
 * MessageStore owns one and answers its index reads from it.
 */
import { IdList } from './message-ids.js';
import { conversationKey, type MessageRecord } from './message-records.js';

export interface TopicEntry {
  ids: IdList;
}

export const topicKey = (topic: string) => topic.toLowerCase();
const EMPTY = new IdList(0);

const list = <K>(map: Map<K, IdList>, key: K): IdList => {
  let l = map.get(key);
  if (!l) map.set(key, (l = new IdList()));
  return l;
};

export class PlaceIndex {
  private readonly byChannel = new Map<number, IdList>();
  private readonly byTopic = new Map<number, Map<string, TopicEntry>>();
  /** Lower-cased topic names, by topic name (topics repeat: one key string each). */
  private readonly topicKeys = new Map<string, string>();
  private readonly byConversation = new Map<string, IdList>();

  private keyOf(topic: string): string {
    let key = this.topicKeys.get(topic);
    if (key === undefined) {
      key = topicKey(topic);
      if (this.topicKeys.size < 1_000_000) this.topicKeys.set(topic, key);
    }
    return key;
  }

  add(m: Pick<MessageRecord, 'id' | 'stream_id' | 'topic' | 'dm'>): void {
    if (m.stream_id === null) {
      this.conversationList(conversationKey(m.dm ?? [])).insert(m.id);
      return;
    }
    this.channelList(m.stream_id).insert(m.id);
    this.topicList(m.stream_id, m.topic).insert(m.id);
  }

  /** The lists messages are added to (made when missing): opening fills them a segment at a time. */
  channelList = (streamId: number): IdList => list(this.byChannel, streamId);
  conversationList = (key: string): IdList => list(this.byConversation, key);
  topicList(streamId: number, topic: string): IdList {
    let topics = this.byTopic.get(streamId);
    if (!topics) this.byTopic.set(streamId, (topics = new Map()));
    const key = this.keyOf(topic);
    let entry = topics.get(key);
    if (!entry) topics.set(key, (entry = { ids: new IdList(4) }));
    return entry.ids;
  }

  remove(m: MessageRecord): void {
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

  channel = (streamId: number): IdList => this.byChannel.get(streamId) ?? EMPTY;
  conversation = (key: string): IdList => this.byConversation.get(key) ?? EMPTY;
  directConversations = (): IterableIterator<IdList> => this.byConversation.values();

  topic(streamId: number, name: string): IdList {
    return this.byTopic.get(streamId)?.get(topicKey(name))?.ids ?? EMPTY;
  }

  /** The direct conversations the user takes part in, each with its messages (ascending). */
  *conversationsOf(userId: number): IterableIterator<{ userIds: number[]; ids: IdList }> {
    for (const [key, ids] of this.byConversation) {
      if (ids.length === 0) continue;
      const userIds = key.split(',').map(Number);
      if (userIds.includes(userId)) yield { userIds, ids };
    }
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
