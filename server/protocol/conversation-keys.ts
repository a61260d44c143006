/**
 * Keys that name a topic or a conversation in maps and sets: topics compare case-insensitively
 * (Zulip's topic names do), so a topic's key is its channel ID and its lower-cased name.
 */

/** `7:lunch plans`: a channel's topic, whatever its case. */
export const topicKey = (streamId: number, topic: string): string => `${streamId}:${topic.toLowerCase()}`;

/** The fields of a message that place it in a conversation. */
export interface ConversationOf {
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: unknown;
}

/** A message's conversation: its channel topic (`topicKey`), or `dm:` and its recipients. */
export const conversationKey = (m: ConversationOf): string =>
  m.type === 'stream' ? topicKey(m.stream_id!, m.subject) : `dm:${JSON.stringify(m.display_recipient)}`;
