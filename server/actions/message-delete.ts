/**
 * Deleting messages (Zulip's do_delete_messages): the records go (IDs are never
 * reused), files no other message links go with them, the channel's
 * `first_message_id` follows (stream update first, as Zulip sends it), and
 * everyone who could read the messages hears `delete_message`: one event per
 * conversation (channel messages grouped by channel and case-insensitive
 * topic, the topic lower-cased as in Zulip). The user who deleted them hears
 * it too, but (Zulip 12, feature level 457) only of the messages they can
 * read, and not at all when they can read none of them.
 */
import type { App } from '../context.js';
import { releaseAttachments } from './attachment-links.js';
import { emitStreamPropertyUpdate } from './channel-events.js';
import { channelById } from '../lib/channels/access.js';
import { canReadMessage } from '../lib/messages/access.js';
import { actionRecipients } from '../lib/messages/action-recipients.js';
import { emitMessagesDeleted } from './message-delete-events.js';
import type { MessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';

interface Group {
  messages: MessageRecord[];
  topic?: string;
}

function groupByConversation(messages: MessageRecord[]): Group[] {
  const groups = new Map<string, Group>();
  for (const m of messages) {
    const topic = m.stream_id === null ? undefined : m.topic.toLowerCase();
    const key = m.stream_id === null ? `dm:${(m.dm ?? []).join(',')}` : `${m.stream_id}:${topic}`;
    const g = groups.get(key);
    if (g) g.messages.push(m);
    else groups.set(key, { messages: [m], topic });
  }
  return [...groups.values()];
}

export async function doDeleteMessages(app: App, messages: MessageRecord[], actingUser: UserRecord | null = null): Promise<void> {
  if (!messages.length) return;
  const store = app.store.messages;
  await commit(app, (tx) => {
    const groups = groupByConversation(messages).map((g) => {
      const audience = actionRecipients(app, g.messages);
      let actorSees: MessageRecord[] = [];
      if (actingUser) {
        audience.delete(actingUser.id);
        actorSees = g.messages.filter((m) => canReadMessage(app, actingUser, m));
      }
      return { ...g, audience, actorSees };
    });
    const channels = new Set(messages.map((m) => m.stream_id).filter((s): s is number => s !== null));
    const firstBefore = new Map([...channels].map((s) => [s, store.channel(s).first ?? null]));
    const ids = messages.map((m) => m.id);
    for (const id of ids) store.remove(id);
    tx.touch(() => store.save(...ids));
    releaseAttachments(app, tx, ids);
    // Zulip keeps first_message_id pointing at the oldest remaining message.
    for (const s of channels) {
      const channel = channelById(app, s);
      const now = store.channel(s).first ?? null;
      if (!channel || now === firstBefore.get(s)) continue;
      channel.first_message_id = now;
      tx.touch(app.store.channels);
      emitStreamPropertyUpdate(tx, app, channel, 'first_message_id', now);
    }
    for (const g of groups) {
      // The deleting user hears of what they can read (all of it: with everyone else, in one event).
      if (actingUser && g.actorSees.length === g.messages.length) g.audience.add(actingUser.id);
      emitMessagesDeleted(tx, g.messages, g.audience, g.topic);
      if (actingUser && g.actorSees.length > 0 && g.actorSees.length < g.messages.length) {
        emitMessagesDeleted(tx, g.actorSees, [actingUser.id], g.topic);
      }
    }
  });
}
