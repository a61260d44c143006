/**
 * Zulip's send_messages_for_new_subscribers (the part Hearth does): people
 * someone else subscribed hear it from the Notification Bot in a direct
 * message, unless the request said `send_new_subscription_messages=false` or
 * subscribed more than `max_bulk_new_subscription_messages` people. Channels
 * the request created are left out, as in Zulip. Bots are never told.
 */
import type { App } from '../context.js';
import { silentMention } from '../lib/messages/markdown-syntax.js';
import { settingChannel } from '../lib/realm/settings.js';
import type { ChannelRecord } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { doSendDirectNotice, doSendNotice } from './notification-bot.js';
import type { Pair } from './subscriptions.js';

/** Zulip's MAX_BULK_NEW_SUBSCRIPTION_MESSAGES (announced in register as max_bulk_new_subscription_messages). */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

/** Zulip's you_were_just_subscribed_message. */
export function youWereSubscribed(actor: UserRecord, channelNames: string[]): string {
  const names = [...channelNames].sort();
  if (names.length === 1) return `${silentMention(actor)} subscribed you to #**${names[0]}**.`;
  return `${silentMention(actor)} subscribed you to the following channels:\n\n${names.map((n) => `* #**${n}**\n`).join('')}`;
}

/** Sends the notices; returns whether they were sent (false when over the bulk limit). */
export async function doSendSubscriptionNotices(app: App, actor: UserRecord, subscribed: Pair[], created: ChannelRecord[]): Promise<boolean> {
  const newlySubscribed = new Set(subscribed.map((p) => p.user.id));
  if (newlySubscribed.size > MAX_BULK_NEW_SUBSCRIPTION_MESSAGES) return false;
  const createdIds = new Set(created.map((c) => c.id));
  const perUser = new Map<number, { user: UserRecord; names: string[] }>();
  for (const { user, channel } of subscribed) {
    if (user.id === actor.id || user.is_bot || createdIds.has(channel.id)) continue;
    const entry = perUser.get(user.id) ?? perUser.set(user.id, { user, names: [] }).get(user.id)!;
    entry.names.push(channel.name);
  }
  for (const { user, names } of perUser.values()) await doSendDirectNotice(app, user, youWereSubscribed(actor, names));
  return true;
}

/**
 * Zulip's new-channel announcement (`announce=true`): in the organization's
 * new channels channel, topic "new channels". Hearth announces public channels
 * only: a private channel's name is not for everyone.
 */
export async function doAnnounceNewChannels(app: App, actor: UserRecord, created: ChannelRecord[]): Promise<void> {
  const target = settingChannel(app, 'new_stream_announcements_stream_id');
  const announced = created.filter((c) => !c.invite_only);
  if (!target || !announced.length) return;
  const links = announced.map((c) => `#**${c.name}**`).join(', ');
  const content =
    announced.length > 1
      ? `${silentMention(actor)} created the following channels: ${links}.`
      : `${silentMention(actor)} created a new channel ${links}.`;
  await doSendNotice(app, { channel: target, topic: 'new channels', content, actingUser: actor });
}
