/**
 * Editing and moving messages (Zulip's do_update_message): a content edit of
 * one message (re-rendered, mention flags and attachment links recomputed), a
 * topic change and/or a move to another channel of a set of messages, recorded
 * in each message's edit history. Everyone who keeps the messages hears
 * `update_message` (with their own flags); those a move takes the messages
 * away from hear `delete_message`; subscribers of the destination who never had
 * them get them as read history. Then the Notification Bot posts its notices
 * (server/actions/move-notices.ts).
 */
import type { App } from '../context.js';
import type { UpdateMessageEvent } from '../events/types.js';
import { relinkAttachments } from './attachment-links.js';
import { containsAlertWord } from '../lib/people/alert-words.js';
import { emitStreamPropertyUpdate } from './channel-events.js';
import { channelById, hasContentAccess, subscriberIds } from '../lib/channels/access.js';
import { groupMemberIds } from '../lib/groups/groups.js';
import { emitMessagesDeleted } from './message-delete-events.js';
import { renderForStorage } from '../lib/messages/render.js';
import type { AttachmentRecord } from '../store/attachment-records.js';
import type { ChannelRecord } from '../store/channel-records.js';
import {
  FLAG,
  MSG_BIT,
  WILDCARD_MENTION_BITS,
  renderedOf,
  type EditRecord,
  type MessageRecord,
} from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { policyChangesForMove } from '../lib/messages/move-topic-policies.js';
import { compiledLinkifiers, topicLinks } from '../lib/realm/linkifiers.js';
import { commit } from './commit.js';
import { doSendMoveNotices } from './move-notices.js';
import { setTopicPolicyIn } from './user-topics.js';
import { emitUpdateByFlags } from './update-message-events.js';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface MessageEdit {
  target: MessageRecord;
  /** New Markdown content of the target (already normalised and checked). */
  content?: string;
  /** New topic for the moved messages (already normalised and checked). */
  topic?: string;
  /** Destination channel of a move. */
  channel?: ChannelRecord;
  propagateMode: PropagateMode;
  /** The messages a topic change or move applies to (the target included), ascending. */
  messages: MessageRecord[];
  /** The Notification Bot's notices (server/actions/move-notices.ts): Zulip's send_notification_to_old/new_thread. */
  notifyOld?: boolean;
  notifyNew?: boolean;
}

const MENTION_BITS = FLAG.mentioned | WILDCARD_MENTION_BITS;

/** Returns the editor's files whose last link the content edit removed (Zulip's detached_uploads). */
export async function doEditMessage(app: App, editor: UserRecord, edit: MessageEdit): Promise<AttachmentRecord[]> {
  const store = app.store.messages;
  const { target } = edit;
  const rendered = edit.content !== undefined ? renderForStorage(app, target.sender_id, edit.content) : null;
  const from = target.stream_id !== null ? { channel: channelById(app, target.stream_id)!, topic: target.topic } : null;
  let detached: AttachmentRecord[] = [];
  await commit(app, (tx) => {
    const now = Math.floor(app.clock.now() / 1000);
    const origTopic = target.topic;
    const origStream = target.stream_id;
    const moving = edit.topic !== undefined || edit.channel !== undefined;
    const moved = moving ? edit.messages : [];
    const origRendered = renderedOf(target);
    const origContent = target.content;

    // --- content
    if (rendered && edit.content !== undefined) {
      store.setContent(target, edit.content, rendered.html, rendered.bits);
      const mentioned = new Set(rendered.mentionedUserIds);
      for (const g of rendered.mentionedGroupIds) for (const id of groupMemberIds(app, g)) mentioned.add(id);
      const flags = new Map<number, number>();
      for (const userId of store.rowUserIds(target)) {
        let f = store.rowFlags(target, userId)! & ~(MENTION_BITS | FLAG.has_alert_word);
        if (mentioned.has(userId)) f |= FLAG.mentioned;
        if (userId !== target.sender_id && containsAlertWord(edit.content, app.store.users.get(userId)?.alert_words)) f |= FLAG.has_alert_word;
        if (target.stream_id !== null && rendered.channelWildcard) f |= FLAG.stream_wildcard_mentioned;
        if (target.stream_id !== null && rendered.topicWildcard) f |= FLAG.topic_wildcard_mentioned;
        flags.set(userId, f);
      }
      store.setRows(target, flags);
      target.last_edit_timestamp = now;
      detached = relinkAttachments(app, tx, target.sender_id, target.id, rendered.uploadPaths);
    }

    // --- topic and channel
    const prevTopic = new Map(moved.map((m) => [m.id, m.topic]));
    const firstBefore = new Map<number, number | null>();
    const destination = edit.channel?.id ?? origStream;
    for (const s of new Set([origStream, destination])) if (s !== null) firstBefore.set(s, store.channel(s).first ?? null);
    // Topic policies follow a whole-topic move (decided on the pre-move state, applied after).
    const policyChanges =
      moving && origStream !== null
        ? policyChangesForMove(app, {
            editor,
            target,
            moved,
            propagateMode: edit.propagateMode,
            from: { streamId: origStream, topic: origTopic },
            to: { channel: edit.channel ?? channelById(app, origStream)!, topic: edit.topic ?? origTopic },
            keepsAccess: (u) => !edit.channel || (u.is_active && hasContentAccess(app, u, edit.channel)),
          })
        : [];
    const losing = new Map<number, MessageRecord[]>();
    for (const m of moved) {
      store.relocate(m, { stream_id: destination!, topic: edit.topic ?? m.topic });
      m.last_moved_timestamp = now;
      if (!edit.channel) continue;
      // Who cannot read the destination loses the message; its subscribers get it as read history.
      const rows = new Map<number, number | null>();
      for (const userId of store.rowUserIds(m)) {
        const u = app.store.users.get(userId);
        if (u?.is_active && hasContentAccess(app, u, edit.channel)) continue;
        rows.set(userId, null);
        (losing.get(userId) ?? losing.set(userId, []).get(userId)!).push(m);
      }
      for (const userId of subscriberIds(app, edit.channel.id)) {
        if (rows.has(userId) || store.rowFlags(m, userId) === null) rows.set(userId, FLAG.read | FLAG.historical);
      }
      store.setRows(m, rows);
    }

    for (const c of policyChanges) setTopicPolicyIn(app, tx, c.user, c.streamId, c.topic, c.policy);

    // --- history (one entry per message for the whole edit, as Zulip)
    for (const m of new Set([target, ...moved])) {
      const record: EditRecord = { user_id: editor.id, timestamp: now };
      if (m === target && rendered) {
        record.prev_content = origContent;
        record.prev_rendered_content = origRendered;
      }
      const was = prevTopic.get(m.id);
      if (was !== undefined && was !== m.topic) {
        record.prev_topic = was;
        record.topic = m.topic;
      }
      if (edit.channel && origStream !== null && prevTopic.has(m.id)) {
        record.prev_stream = origStream;
        record.stream = edit.channel.id;
      }
      (m.edits ??= []).push(record);
    }
    const ids = [...new Set([target.id, ...moved.map((m) => m.id)])].sort((a, b) => a - b);
    tx.touch(() => store.save(...ids));

    // --- events
    const base: Omit<UpdateMessageEvent, 'flags'> = {
      type: 'update_message',
      user_id: editor.id,
      edit_timestamp: now,
      message_id: target.id,
      message_ids: ids,
      rendering_only: false,
    };
    if (rendered) {
      Object.assign(base, {
        orig_content: origContent,
        orig_rendered_content: origRendered,
        content: target.content,
        rendered_content: renderedOf(target),
        is_me_message: ((target.bits ?? 0) & MSG_BIT.is_me_message) !== 0,
      });
    }
    if (origStream !== null) {
      base.stream_id = origStream;
      base.stream_name = channelById(app, origStream)?.name;
    }
    if (moving) {
      base.propagate_mode = edit.propagateMode;
      if (edit.topic !== undefined) {
        base.orig_subject = origTopic;
        base.subject = edit.topic;
        base.topic_links = topicLinks(edit.topic, compiledLinkifiers(app));
      }
      if (edit.channel) base.new_stream_id = edit.channel.id;
    }
    emitUpdateByFlags(app, tx, target, base);
    for (const [userId, messages] of losing) {
      if (!app.store.users.get(userId)?.is_active) continue;
      // The deletion events name where the messages were.
      const ghosts = messages.map((m) => ({ ...m, stream_id: origStream, topic: prevTopic.get(m.id) ?? origTopic }));
      emitMessagesDeleted(tx, ghosts, [userId]);
    }
    for (const [s, first] of firstBefore) {
      const channel = channelById(app, s);
      const now2 = store.channel(s).first ?? null;
      if (!channel || now2 === first) continue;
      channel.first_message_id = now2;
      tx.touch(app.store.channels);
      emitStreamPropertyUpdate(tx, app, channel, 'first_message_id', now2);
    }
  });
  const moving = edit.topic !== undefined || edit.channel !== undefined;
  if (from && moving) {
    await doSendMoveNotices(app, {
      editor,
      target,
      from,
      to: { channel: edit.channel ?? from.channel, topic: edit.topic ?? from.topic },
      moved: edit.messages,
      contentEdited: rendered !== null,
      notifyOld: edit.notifyOld ?? false,
      notifyNew: edit.notifyNew ?? true,
    });
  }
  return detached;
}
