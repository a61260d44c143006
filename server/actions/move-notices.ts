/**
 * The Notification Bot's notices after a topic change or a move, as Zulip's
 * do_update_message posts them:
 * - resolving or unresolving a topic (nothing else changed): "@_**Name|id** has
 *   marked this topic as resolved." in the topic, unread only for subscribers
 *   whose `resolved_topic_notice_auto_read_policy` asks for it; undoing within
 *   a minute deletes the previous notice instead of posting another;
 * - a move: "This topic was moved to …" in the old place
 *   (`send_notification_to_old_thread`, default off) and "This topic was moved
 *   here from …" in the new one (`send_notification_to_new_thread`, default on;
 *   not for a plain resolve), or the one-message / N-messages wording when the
 *   move took only part of what the mover can see.
 */
import type { App } from '../context.js';
import { canReadMessage } from '../lib/messages/access.js';
import { isResolveChange, RESOLVED_PREFIX } from '../lib/messages/edit-permissions.js';
import { topicPolicy, VISIBILITY } from '../lib/topics/visibility.js';
import { userSetting } from '../lib/people/settings.js';
import { subscriberIds } from '../lib/channels/access.js';
import { silentMention } from '../lib/messages/markdown-syntax.js';
import { topicNarrow } from '../markdown/urls.js';
import type { ChannelRecord } from '../store/channel-records.js';
import { MSG_BIT, type MessageRecord } from '../store/message-records.js';
import type { UserRecord } from '../store/records.js';
import { doDeleteMessages } from './message-delete.js';
import { doSendNotice } from './notification-bot.js';

/** Zulip's RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS. */
export const RESOLVE_UNDO_GRACE_SECONDS = 60;

export interface MoveNoticeInput {
  editor: UserRecord;
  target: MessageRecord;
  from: { channel: ChannelRecord; topic: string };
  to: { channel: ChannelRecord; topic: string };
  /** The messages moved (the target included). */
  moved: MessageRecord[];
  contentEdited: boolean;
  notifyOld: boolean;
  notifyNew: boolean;
}


/** Zulip's get_stream_topic_link_syntax, with its Markdown-link fallback for names the syntax cannot carry. */
function topicLink(channel: ChannelRecord, topic: string): string {
  const breaks = (s: string) => /\*\*|`|\$\$|[>\][]/.test(s);
  if (!breaks(channel.name) && !breaks(topic)) return `#**${channel.name}>${topic}**`;
  const label = `#${channel.name} > ${topic}`.replace(/[[\]\\*_`$]/g, (c) => `\\${c}`);
  return `[${label}](${topicNarrow(channel.id, channel.name, topic)})`;
}

function readableIn(app: App, user: UserRecord, streamId: number, topic: string, except: Set<number>): number[] {
  const store = app.store.messages;
  const ids = store.topic(streamId, topic);
  const out: number[] = [];
  const cache = new Map<number, boolean>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids.at(i);
    if (except.has(id)) continue;
    const m = store.get(id);
    if (m && canReadMessage(app, user, m, cache)) out.push(id);
  }
  return out;
}

/** Zulip's get_unread_user_ids_for_resolved_topic_notifications. */
function resolveNoticeUnreadFor(app: App, channel: ChannelRecord, topic: string): Set<number> {
  const out = new Set<number>();
  for (const id of subscriberIds(app, channel.id)) {
    const u = app.store.users.get(id);
    if (!u || u.is_bot) continue;
    const policy = userSetting(app, u, 'resolved_topic_notice_auto_read_policy');
    if (policy === 'never') out.add(id);
    else if (policy === 'except_followed' && topicPolicy(u, channel.id, topic) === VISIBILITY.FOLLOWED) out.add(id);
  }
  return out;
}

/** Deletes the topic's last message if it is a resolve notice under a minute old (an undo). */
async function undoRecentResolveNotice(app: App, editor: UserRecord, channel: ChannelRecord, topic: string): Promise<boolean> {
  const store = app.store.messages;
  const ids = store.topic(channel.id, topic);
  const last = ids.length ? store.get(ids.at(ids.length - 1)) : undefined;
  if (!last || ((last.bits ?? 0) & MSG_BIT.resolve_notice) === 0) return false;
  if (Math.floor(app.clock.now() / 1000) - last.timestamp > RESOLVE_UNDO_GRACE_SECONDS) return false;
  await doDeleteMessages(app, [last], editor);
  return true;
}

export async function doSendMoveNotices(app: App, input: MoveNoticeInput): Promise<void> {
  const { editor, from, to, moved } = input;
  const streamEdited = from.channel.id !== to.channel.id;
  const topicEdited = from.topic !== to.topic;
  const resolving = topicEdited && isResolveChange(from.topic, to.topic);
  const movedIds = new Set(moved.map((m) => m.id));
  // Decided on the state after the move, with the mover's own access, as Zulip does.
  const movedAllVisible = readableIn(app, editor, from.channel.id, from.topic, movedIds).length === 0;

  let resolveNoticeId: number | null = null;
  if (resolving && !input.contentEdited && !streamEdited) {
    if (!(await undoRecentResolveNotice(app, editor, to.channel, to.topic))) {
      const resolved = to.topic.startsWith(RESOLVED_PREFIX);
      resolveNoticeId = await doSendNotice(app, {
        channel: to.channel,
        topic: to.topic,
        content: `${silentMention(editor)} has marked this topic as ${resolved ? 'resolved' : 'unresolved'}.`,
        actingUser: editor,
        unreadOnlyFor: resolveNoticeUnreadFor(app, to.channel, to.topic),
        bits: MSG_BIT.resolve_notice,
      });
    }
  }
  if (!streamEdited && !topicEdited) return;

  const count = moved.length;
  if (input.notifyNew && (streamEdited || (topicEdited && !resolving))) {
    const except = new Set(movedIds);
    if (resolveNoticeId !== null) except.add(resolveNoticeId);
    const preexisting = readableIn(app, editor, to.channel.id, to.topic, except).length > 0;
    const old = topicLink(from.channel, from.topic);
    const link = `${topicNarrow(to.channel.id, to.channel.name, to.topic)}/near/${input.target.id}`;
    const content =
      !preexisting && movedAllVisible
        ? `This topic was moved here from ${old} by ${silentMention(editor)}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${old} by ${silentMention(editor)}.`
          : `${count} messages were moved here from ${old} by ${silentMention(editor)}.`;
    await doSendNotice(app, { channel: to.channel, topic: to.topic, content, actingUser: editor });
  }
  if (input.notifyOld) {
    const target = topicLink(to.channel, to.topic);
    const content = movedAllVisible
      ? `This topic was moved to ${target} by ${silentMention(editor)}.`
      : count === 1
        ? `A message was moved from this topic to ${target} by ${silentMention(editor)}.`
        : `${count} messages were moved from this topic to ${target} by ${silentMention(editor)}.`;
    await doSendNotice(app, { channel: from.channel, topic: from.topic, content, actingUser: editor });
  }
}
