/**
 * API shapes of messages (Zulip's MessageDict): what GET /messages returns and
 * what `message` events carry, per viewer options (`apply_markdown`,
 * `client_gravatar`, the empty-topic capability).
 */
import type { App } from '../../context.js';
import { flagNames, MSG_BIT, renderedOf, type MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { channelById } from '../channels/access.js';
import { apiEmail, avatarUrl } from '../people/people.js';
import { escapeHtml } from '../../protocol/html.js';
import type { Message } from '../../protocol/message.js';
import { userOrSystemBot } from '../people/system-bots.js';
import { compiledLinkifiers, topicLinks } from '../realm/linkifiers.js';

/** Zulip's default `realm_empty_topic_display_name`. */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';
/** The legacy spelling of the empty topic, accepted on input. */
export const LEGACY_EMPTY_TOPIC = '(no topic)';
export const DEFAULT_CLIENT = 'Hearth';

export interface FormatOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** The client understands the empty topic (`empty_topic_name` / `allow_empty_topic_name`). */
  allowEmptyTopicName: boolean;
}

/** How a topic name reads for a client (the empty topic is renamed for clients that do not know it). */
export const displayTopic = (topic: string, allowEmpty: boolean) =>
  topic === '' && !allowEmpty ? EMPTY_TOPIC_DISPLAY_NAME : topic;

/** A message's `subject`: always "" for direct messages (they have no topic to rename), else `displayTopic`. */
export const messageTopic = (m: MessageRecord, allowEmpty: boolean) =>
  m.stream_id === null ? '' : displayTopic(m.topic, allowEmpty);

/** Zulip's recipient IDs, synthesised: channels, personal recipients and group conversations get disjoint ranges. */
export function recipientId(m: MessageRecord): number {
  if (m.stream_id !== null) return m.stream_id;
  // One value per conversation, whoever sent the message (Zulip 12, feature level 482: 1:1
  // conversations are direct-message groups too): derived from the sorted participants.
  const dm = [...new Set(m.dm ?? [m.sender_id])].sort((a, b) => a - b);
  let h = 0;
  for (const id of dm) h = (h * 31 + id) % 900_000_000;
  return 2_000_000_000 + h;
}

function displayRecipient(app: App, viewer: UserRecord | null, m: MessageRecord): Message['display_recipient'] {
  if (m.stream_id !== null) return channelById(app, m.stream_id)?.name ?? '';
  return (m.dm ?? [m.sender_id]).map((id) => {
    const u = userOrSystemBot(app, id);
    return {
      id,
      email: u ? apiEmail(app, viewer, u) : '',
      full_name: u?.full_name ?? '',
      is_mirror_dummy: false,
    };
  });
}

/** A message as sent in a `message` event: without the per-user `flags`, which travel beside it. */
export type MessageDict = Omit<Message, 'flags'>;

/** The message dict without per-user `flags`. */
export function formatMessage(
  app: App,
  viewer: UserRecord | null,
  m: MessageRecord,
  o: FormatOptions,
): MessageDict {
  const sender = userOrSystemBot(app, m.sender_id);
  const out: MessageDict = {
    id: m.id,
    sender_id: m.sender_id,
    content: o.applyMarkdown ? renderedOf(m) : m.content,
    content_type: o.applyMarkdown ? 'text/html' : 'text/x-markdown',
    recipient_id: recipientId(m),
    timestamp: m.timestamp,
    client: m.client ?? DEFAULT_CLIENT,
    subject: messageTopic(m, o.allowEmptyTopicName),
    topic_links: m.stream_id === null ? [] : topicLinks(m.topic, compiledLinkifiers(app)),
    is_me_message: ((m.bits ?? 0) & MSG_BIT.is_me_message) !== 0,
    reactions: (m.reactions ?? []).map((r) => ({
      emoji_name: r.emoji_name,
      emoji_code: r.emoji_code,
      reaction_type: r.reaction_type,
      user_id: r.user_id,
    })),
    submessages: (m.submessages ?? []).map((s) => ({
      msg_type: s.msg_type,
      content: s.content,
      message_id: m.id,
      sender_id: s.sender_id,
      id: s.id,
    })),
    sender_full_name: sender?.full_name ?? '',
    sender_email: sender ? apiEmail(app, viewer, sender) : '',
    sender_realm_str: '',
    display_recipient: displayRecipient(app, viewer, m),
    type: m.stream_id !== null ? 'stream' : 'private',
    avatar_url: sender ? avatarUrl(sender) : null,
  };
  if (m.stream_id !== null) out.stream_id = m.stream_id;
  if (m.last_edit_timestamp !== undefined) out.last_edit_timestamp = m.last_edit_timestamp;
  if (m.last_moved_timestamp !== undefined) out.last_moved_timestamp = m.last_moved_timestamp;
  return out;
}

/** A fetched message: the dict plus the viewer's flags (no row: `read` + `historical`; spectators: `read`). */
export function formatForViewer(
  app: App,
  viewer: UserRecord | null,
  m: MessageRecord,
  o: FormatOptions,
): Message {
  const flags = viewer ? app.store.messages.rowFlags(m, viewer.id) : null;
  return Object.assign(formatMessage(app, viewer, m, o), { flags: !viewer ? ['read'] : flags === null ? ['read', 'historical'] : flagNames(flags) });
}

/** The topic as HTML-escaped text (match_subject without highlights). */
export const escapedTopic = (m: MessageRecord, allowEmpty: boolean) => escapeHtml(messageTopic(m, allowEmpty));
