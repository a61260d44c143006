/**
 * Sending messages (Zulip's do_send_messages): one record with a row per
 * recipient (flags from mentions and `read_by_sender`), attachments claimed,
 * the channel's first message and activity updated, a `message` event to the
 * recipients (shaped per queue by server/register/messages.ts).
 */
import type { App } from '../context.js';
import { claimAttachments } from './attachment-links.js';
import { emitStreamPropertyUpdate } from './channel-events.js';
import { subscriberIds } from '../lib/channels/access.js';
import { groupMemberIds } from '../lib/groups/groups.js';
import type { Addressee } from '../lib/messages/addressee.js';
import { messageEvent } from '../lib/messages/events.js';
import { checkGroupMentions, checkWildcardMentions } from '../lib/messages/mention-permissions.js';
import { containsAlertWord } from '../lib/people/alert-words.js';
import { renderForStorage } from '../lib/messages/render.js';
import { FLAG, packRow, type MessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { mentionFollowers, sendPolicy } from '../lib/topics/participation.js';
import { VISIBILITY } from '../lib/topics/visibility.js';
import { checkWidgetBounds, widgetFromContent, widgetSubmessageContent, type WidgetContent } from '../lib/messages/widgets.js';
import { commit, type Transaction } from './commit.js';
import { newSubmessage } from './submessages.js';
import { setTopicPolicyIn } from './user-topics.js';
import { emitUserAccessDiff, snapshotUserAccess } from './users-access.js';
import { systemBot } from '../lib/people/system-bots.js';
import { queueOutgoingWebhookCalls } from './outgoing-webhook-queue.js';

export interface SendInput {
  addressee: Addressee;
  content: string;
  readBySender: boolean;
  queueId: string | null;
  localId: string | null;
  client?: string;
  /** A system bot's notice (server/actions/notification-bot.ts); absent for users' messages. */
  internal?: InternalSend;
  /** The `widget_content` parameter (bots' zform), validated; it overrides a `/poll` or `/todo` in the content. */
  widget?: WidgetContent;
  /** More changes that must land with the message (a delivered scheduled message leaves the schedule). */
  inSameCommit?: (tx: Transaction) => void;
}

/**
 * Zulip's internal_send_stream_message options: rendered as `renderAs` would see
 * it (the acting user: their access resolves channel links); the sender (a
 * system bot, not subscribed) gets no row; the acting user gets it read
 * (mark_as_read_for_acting_user) and, with `unreadOnlyFor`, everyone else
 * outside that set too (limit_unread_user_ids).
 */
export interface InternalSend {
  renderAs: number;
  readFor: number[];
  unreadOnlyFor?: Set<number>;
  /** Extra MSG_BIT bits (the resolve-notice mark). */
  bits?: number;
}

/** Who received earlier messages in the topic (for `@**topic**`): its senders. */
function topicParticipants(app: App, streamId: number, topic: string): Set<number> {
  const out = new Set<number>();
  for (const id of app.store.messages.topic(streamId, topic)) {
    const m = app.store.messages.get(id);
    if (m) out.add(m.sender_id);
  }
  return out;
}

export interface SendResult {
  id: number;
  /** Zulip's automatic_new_visibility_policy: the sender's topic policy this send changed (followed or unmuted). */
  automaticPolicy: number | null;
}

export async function doSendMessage(app: App, sender: UserRecord, input: SendInput): Promise<SendResult> {
  const { addressee, internal } = input;
  // Zulip's do_widget_post_save_actions: the widget is a submessage made with the message.
  const widget = input.widget ?? widgetFromContent(input.content);
  if (widget) checkWidgetBounds(widget);
  const rendered = renderForStorage(app, internal?.renderAs ?? sender.id, input.content);
  if (!internal) checkGroupMentions(app, sender, rendered.mentionedGroupIds);
  if (!internal && addressee.kind === 'stream' && rendered.channelWildcard) {
    checkWildcardMentions(app, sender, 'channel', subscriberIds(app, addressee.channel.id).length);
  }
  if (!internal && addressee.kind === 'stream' && rendered.topicWildcard) {
    checkWildcardMentions(app, sender, 'topic', topicParticipants(app, addressee.channel.id, addressee.topic).size);
  }
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const g of rendered.mentionedGroupIds) for (const id of groupMemberIds(app, g)) mentioned.add(id);

  let webhookCalls = 0;
  const result = await commit(app, (tx) => {
    // A system bot in a direct message (sending it, or written to) is named in the conversation but gets no row.
    const recipients =
      addressee.kind === 'stream'
        ? new Set(subscriberIds(app, addressee.channel.id))
        : new Set(addressee.userIds.filter((id) => (internal ? id !== sender.id : !systemBot(app, id))));
    if (!internal) recipients.add(sender.id);
    const participants =
      addressee.kind === 'stream' && rendered.topicWildcard
        ? topicParticipants(app, addressee.channel.id, addressee.topic)
        : null;
    const flags = new Map<number, number>();
    for (const id of [...recipients].sort((a, b) => a - b)) {
      let f = addressee.kind === 'direct' ? FLAG.is_private : 0;
      if (id === sender.id && input.readBySender) f |= FLAG.read;
      if (id !== sender.id) {
        const r = app.store.users.get(id);
        // Zulip: a muted sender's messages arrive read; alert words flag the message for their owner.
        if (r?.muted_users?.some((m) => m.id === sender.id)) f |= FLAG.read;
        if (containsAlertWord(input.content, r?.alert_words)) f |= FLAG.has_alert_word;
      }
      if (internal && (internal.readFor.includes(id) || (internal.unreadOnlyFor && !internal.unreadOnlyFor.has(id)))) f |= FLAG.read;
      if (mentioned.has(id)) f |= FLAG.mentioned;
      if (rendered.channelWildcard) f |= FLAG.stream_wildcard_mentioned;
      if (participants?.has(id) || (participants && id === sender.id)) f |= FLAG.topic_wildcard_mentioned;
      flags.set(id, f);
    }
    const um: number[] = [];
    for (const [id, f] of flags) um.push(packRow(id, f));
    const fields: Omit<MessageRecord, 'id'> = {
      sender_id: sender.id,
      stream_id: addressee.kind === 'stream' ? addressee.channel.id : null,
      topic: addressee.kind === 'stream' ? addressee.topic : '',
      content: input.content,
      rendered: rendered.html,
      timestamp: Math.floor(app.clock.now() / 1000),
      bits: rendered.bits | (internal?.bits ?? 0),
      um,
    };
    if (addressee.kind === 'direct') fields.dm = addressee.userIds;
    if (input.client) fields.client = input.client;
    // A first direct message lets a restricted guest (and their correspondents) access each other.
    const people = addressee.kind === 'direct' ? snapshotUserAccess(app, recipients) : null;
    // Whether the sender starts the topic is decided before the message joins it.
    const automaticPolicy = addressee.kind === 'stream' ? sendPolicy(app, sender, addressee.channel, addressee.topic) : null;
    if (widget) fields.submessages = [newSubmessage(app, sender.id, 'widget', widgetSubmessageContent(widget))];
    const m = app.store.messages.add(fields);
    tx.touch(() => app.store.messages.save(m.id));
    if (people) emitUserAccessDiff(app, tx, people);

    if (addressee.kind === 'stream') {
      // Zulip's do_send_messages announces a channel's first message and its return to activity.
      const c = addressee.channel;
      if (c.first_message_id === null) {
        c.first_message_id = m.id;
        emitStreamPropertyUpdate(tx, app, c, 'first_message_id', m.id);
        tx.touch(app.store.channels);
      }
      if (!c.is_recently_active) {
        c.is_recently_active = true;
        emitStreamPropertyUpdate(tx, app, c, 'is_recently_active', true);
        tx.touch(app.store.channels);
      }
    }
    if (addressee.kind === 'stream') {
      // Zulip sets these before announcing the message, so clients file it under the new policy.
      const { channel, topic } = addressee;
      if (automaticPolicy !== null) setTopicPolicyIn(app, tx, sender, channel.id, topic, automaticPolicy);
      for (const u of mentionFollowers(app, rendered.mentionedUserIds, recipients, channel.id, topic)) {
        setTopicPolicyIn(app, tx, u, channel.id, topic, VISIBILITY.FOLLOWED);
      }
    }
    claimAttachments(app, tx, sender.id, m.id, rendered.uploadPaths);
    // Outgoing-webhook bots this message triggers: their calls are on disk with it.
    webhookCalls = queueOutgoingWebhookCalls(app, tx, sender, m, mentioned);
    input.inSameCommit?.(tx);
    const publicChannel = addressee.kind === 'stream' && !addressee.channel.invite_only;
    tx.emit(
      messageEvent({ message: m, flags, publicChannel, senderQueueId: input.queueId, localId: input.localId }),
      publicChannel ? null : recipients,
    );
    return { id: m.id, automaticPolicy };
  });
  if (webhookCalls) app.outgoingWebhooks.wake();
  return result;
}
