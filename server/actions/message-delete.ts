/**
 * Deleting messages (Zulip's do_delete_messages): the records go (IDs are never
 * reused), files no other message links go with them, the channel's
 * `first_message_id` follows, and everyone who had the message hears
 * `delete_message`.
 */
import type { App } from '../context.js';
import { releaseAttachments } from '../lib/attachment-links.js';
import { emitStreamPropertyUpdate } from '../lib/channel-events.js';
import { channelById, subscriberIds } from '../lib/channels.js';
import { emitMessagesDeleted } from '../lib/messages/delete-events.js';
import type { MessageRecord } from '../store/message-records.js';
import { commit } from './commit.js';

export async function doDeleteMessages(app: App, messages: MessageRecord[]): Promise<void> {
  if (!messages.length) return;
  const store = app.store.messages;
  await commit(app, (tx) => {
    const audience = new Set<number>();
    for (const m of messages) {
      for (const id of store.rowUserIds(m)) audience.add(id);
      // Subscribers may have it through shared history without a row.
      if (m.stream_id !== null) for (const id of subscriberIds(app, m.stream_id)) audience.add(id);
    }
    const channels = new Set(messages.map((m) => m.stream_id).filter((s): s is number => s !== null));
    const firstBefore = new Map([...channels].map((s) => [s, store.channel(s).first ?? null]));
    const ids = messages.map((m) => m.id);
    for (const id of ids) store.remove(id);
    tx.touch(() => store.save(...ids));
    releaseAttachments(app, tx, ids);
    const active = [...audience].filter((id) => app.store.users.get(id)?.is_active);
    // One event per conversation (Zulip groups deletions by topic / conversation).
    const groups = new Map<string, MessageRecord[]>();
    for (const m of messages) {
      const key = m.stream_id === null ? `dm:${(m.dm ?? []).join(',')}` : `${m.stream_id}:${m.topic}`;
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(m);
    }
    for (const group of groups.values()) emitMessagesDeleted(tx, group, active);
    // Zulip keeps first_message_id pointing at the oldest remaining message.
    for (const s of channels) {
      const channel = channelById(app, s);
      const now = store.channel(s).first ?? null;
      if (!channel || now === firstBefore.get(s)) continue;
      channel.first_message_id = now;
      tx.touch(app.store.channels);
      emitStreamPropertyUpdate(tx, app, channel, 'first_message_id', now);
    }
  });
}
