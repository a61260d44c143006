/**
 * Who may delete, edit and move messages (Zulip's validate_can_delete_message,
 * check_user_can_edit_message and the move permissions): organization group
 * settings, the channel's own settings, and the organization's time limits.
 */
import type { App } from '../../context.js';
import { errors, HearthError } from '../../errors.js';
import type { ChannelRecord } from '../../store/channel-records.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { RealmSettings, UserRecord } from '../../store/records.js';
import { channelById, inChannelSetting } from '../channels/access.js';
import { isUserInGroupSetting, realmGroupSetting, type RealmGroupSetting } from '../groups/groups.js';
import { REALM_SETTINGS, readSetting } from '../realm/settings.js';

/** An organization setting's current value (stored, or Zulip's default). */
export function realmValue<K extends keyof RealmSettings>(app: App, name: K): RealmSettings[K] {
  const s = REALM_SETTINGS.find((x) => x.name === name);
  return (s ? readSetting(app.store.realm.data.realm!, s) : app.store.realm.data.realm!.settings[name]) as RealmSettings[K];
}

export const inRealmSetting = (app: App, user: UserRecord, name: RealmGroupSetting) =>
  isUserInGroupSetting(app, realmGroupSetting(app, name), user.id);

/** In the organization's setting, or (channel messages) the channel's setting of the same name. */
function holds(app: App, user: UserRecord, m: MessageRecord, name: RealmGroupSetting): boolean {
  if (inRealmSetting(app, user, name)) return true;
  const channel = m.stream_id === null ? undefined : channelById(app, m.stream_id);
  return channel !== undefined && inChannelSetting(app, user, channel, name);
}

/** Whether the message was sent by the user or by a bot the user owns. */
const ownMessage = (app: App, user: UserRecord, m: MessageRecord) =>
  m.sender_id === user.id || app.store.users.get(m.sender_id)?.bot_owner_id === user.id;

/** Seconds since the message was sent. */
export const ageSeconds = (app: App, m: MessageRecord) => Math.floor(app.clock.now() / 1000) - m.timestamp;

export function checkCanDelete(app: App, user: UserRecord, m: MessageRecord): void {
  if (holds(app, user, m, 'can_delete_any_message_group')) return;
  const denied = () => errors.badRequest("You don't have permission to delete this message");
  if (!ownMessage(app, user, m)) throw denied();
  if (!holds(app, user, m, 'can_delete_own_message_group')) throw denied();
  const limit = realmValue(app, 'message_content_delete_limit_seconds');
  if (limit != null && ageSeconds(app, m) > limit) {
    throw errors.badRequest('The time limit for deleting this message has passed');
  }
}

/** Zulip's grace period on edit and move limits (the clock of the editing client may lag). */
const GRACE_SECONDS = 20;

const withinLimit = (app: App, m: MessageRecord, limit: number | null | undefined) =>
  limit == null || ageSeconds(app, m) <= limit + GRACE_SECONDS;

/** Moderators and above are not bound by the move time limits (Zulip). */
const isModeratorOrAbove = (u: UserRecord) => u.role <= 300;

export function checkCanEditContent(app: App, user: UserRecord, m: MessageRecord): void {
  if (!realmValue(app, 'allow_message_editing')) throw errors.badRequest('Your organization has turned off message editing');
  if (m.sender_id !== user.id) throw errors.badRequest("You don't have permission to edit this message");
  if (!withinLimit(app, m, realmValue(app, 'message_content_edit_limit_seconds'))) {
    throw errors.badRequest("The time limit for editing this message's content has passed");
  }
}

/**
 * Zulip's validate_user_can_edit_message with its buffer (0 for the typing
 * notifications of an edit): editing on, the user's own message, within the
 * content edit limit.
 */
export function checkCanEditMessage(app: App, user: UserRecord, m: MessageRecord, bufferSeconds: number): void {
  if (!realmValue(app, 'allow_message_editing')) throw errors.badRequest('Your organization has turned off message editing');
  if (m.sender_id !== user.id) throw errors.badRequest("You don't have permission to edit this message");
  const limit = realmValue(app, 'message_content_edit_limit_seconds');
  if (limit != null && ageSeconds(app, m) > limit + bufferSeconds) {
    throw errors.badRequest('The time limit for editing this message has passed');
  }
}

/** The "✔ " prefix Zulip's resolve-topic feature adds. */
export const RESOLVED_PREFIX = '✔ ';

/** Whether renaming `from` to `to` only resolves or unresolves the topic. */
export function isResolveChange(from: string, to: string): boolean {
  const strip = (t: string) => (t.startsWith(RESOLVED_PREFIX) ? t.slice(RESOLVED_PREFIX.length) : t);
  return from !== to && strip(from) === strip(to) && (from.startsWith(RESOLVED_PREFIX) !== to.startsWith(RESOLVED_PREFIX));
}

/**
 * Zulip's can_resolve_topics: the organization's can_resolve_topics_group, or
 * that setting of the message's channel or of the channel it moves to.
 */
function canResolveTopics(app: App, user: UserRecord, channel: ChannelRecord | undefined, destination?: ChannelRecord): boolean {
  if (inRealmSetting(app, user, 'can_resolve_topics_group')) return true;
  if (channel && inChannelSetting(app, user, channel, 'can_resolve_topics_group')) return true;
  return destination !== undefined && destination.id !== channel?.id && inChannelSetting(app, user, destination, 'can_resolve_topics_group');
}

/** `destination`: the channel the messages move to, when the edit also moves them. */
export function checkCanChangeTopic(app: App, user: UserRecord, m: MessageRecord, newTopic: string, destination?: ChannelRecord): void {
  const channel = m.stream_id === null ? undefined : channelById(app, m.stream_id);
  if (isResolveChange(m.topic, newTopic)) {
    if (!canResolveTopics(app, user, channel, destination)) {
      throw errors.badRequest("You don't have permission to resolve topics in this channel.");
    }
    return;
  }
  const allowed =
    inRealmSetting(app, user, 'can_move_messages_between_topics_group') ||
    (channel !== undefined && inChannelSetting(app, user, channel, 'can_move_messages_within_channel_group'));
  if (!allowed) throw errors.badRequest("You don't have permission to edit this message");
  if (!isModeratorOrAbove(user) && !withinLimit(app, m, realmValue(app, 'move_messages_within_stream_limit_seconds'))) {
    throw errors.badRequest("The time limit for editing this message's topic has passed.");
  }
}

export function checkCanChangeChannel(app: App, user: UserRecord, m: MessageRecord): void {
  const channel = m.stream_id === null ? undefined : channelById(app, m.stream_id);
  const allowed =
    inRealmSetting(app, user, 'can_move_messages_between_channels_group') ||
    (channel !== undefined && inChannelSetting(app, user, channel, 'can_move_messages_out_of_channel_group'));
  if (!allowed) throw errors.badRequest("You don't have permission to move this message");
  if (!isModeratorOrAbove(user) && !withinLimit(app, m, realmValue(app, 'move_messages_between_streams_limit_seconds'))) {
    throw errors.badRequest("The time limit for editing this message's channel has passed");
  }
}

/**
 * Zulip's check_time_limit_for_change_all_propagate_mode: a `change_all` move
 * by someone below moderator must not take along messages past the time limit
 * for what changes (the topic, the channel, or the stricter of both). The
 * topic's messages are those the editor can read (with protected history:
 * only those they received). Otherwise MOVE_MESSAGES_TIME_LIMIT_EXCEEDED says
 * how much of the topic, from which message on, they may move.
 */
export function checkChangeAllTimeLimit(
  app: App,
  user: UserRecord,
  topicMessages: MessageRecord[],
  change: { topic: boolean; channel: boolean },
): void {
  if (isModeratorOrAbove(user)) return;
  const limits: number[] = [];
  const withinStream = realmValue(app, 'move_messages_within_stream_limit_seconds');
  const betweenStreams = realmValue(app, 'move_messages_between_streams_limit_seconds');
  if (change.topic && withinStream != null) limits.push(withinStream);
  if (change.channel && betweenStreams != null) limits.push(betweenStreams);
  if (!limits.length) return;
  const limit = Math.min(...limits);
  const allowed = topicMessages.filter((m) => withinLimit(app, m, limit));
  if (allowed.length === topicMessages.length) return;
  throw new HearthError(
    `You only have permission to move the ${allowed.length}/${topicMessages.length} most recent messages in this topic.`,
    {
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      extra: {
        first_message_id_allowed_to_move: allowed[0]?.id ?? null,
        total_messages_in_topic: topicMessages.length,
        total_messages_allowed_to_move: allowed.length,
      },
    },
  );
}
