/**
 * Typing notifications (Zulip's typing.py): nothing stored; `typing` events to
 * the conversation. Channel typing reaches only clients that declared the
 * `stream_typing_notifications` capability (the queue filter and the register
 * section with Zulip's timings: server/register/typing.ts). `typing_edit_message`
 * events (someone editing a message) go to whoever the edit would reach.
 */
import type { App } from '../../context.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { subscriberIds } from '../channels/access.js';
import { userSetting } from './settings.js';

/** Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: bigger channels get no typing events. */
export const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

/** Active and not opted out of typing notifications (receives_typing_notifications). */
export const receivesTyping = (app: App, id: number): boolean => {
  const u = app.store.users.get(id);
  return u !== undefined && u.is_active && userSetting(app, u, 'receives_typing_notifications') !== false;
};

/**
 * Who hears typing in a channel (Zulip's do_send_stream_typing_notification and
 * its edit variant): the active subscribers, the typist too, who receive typing
 * notifications; nobody when the channel has more than MAX_CHANNEL_SIZE_FOR_TYPING.
 */
export function channelTypingAudience(app: App, channelId: number): number[] {
  const subscribers = subscriberIds(app, channelId);
  if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return [];
  return subscribers.filter((id) => receivesTyping(app, id));
}

export type EditTypingRecipient = { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };

/**
 * Who hears that `editor` is editing message `m`, and the event's `recipient`
 * (Zulip's do_send_*_message_edit_typing_notification): for a channel message,
 * its active subscribers (the editor too) unless there are more than
 * MAX_CHANNEL_SIZE_FOR_TYPING; for a direct message, its participants (the
 * editor first in a one-to-one conversation), the event naming those notified.
 * Users who turned off receives_typing_notifications hear nothing.
 */
export function editTypingAudience(app: App, editor: UserRecord, m: MessageRecord): { recipient: EditTypingRecipient; userIds: number[] } {
  if (m.stream_id !== null) {
    return { recipient: { type: 'channel', channel_id: m.stream_id, topic: m.topic }, userIds: channelTypingAudience(app, m.stream_id) };
  }
  const members = m.dm ?? [m.sender_id];
  const participants = members.length <= 2 ? [editor.id, ...members.filter((id) => id !== editor.id)] : [...members];
  const userIds = participants.filter((id) => receivesTyping(app, id));
  return { recipient: { type: 'direct', user_ids: userIds }, userIds };
}
