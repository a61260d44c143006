/**
 * Posting as a system bot (Zulip's internal_send_* with the NOTIFICATION_BOT or
 * WELCOME_BOT sender): the bot gets its user ID if it has none yet
 * (server/lib/people/system-bots.ts), then the message goes through the normal send
 * action with no permission checks and the read rules of the notice.
 */
import type { App } from '../context.js';
import { notificationBotId, systemBotOf, welcomeBotId, type SystemBotKind } from '../lib/people/system-bots.js';
import type { ChannelRecord } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { doSendMessage, type InternalSend, type SendInput } from './messages.js';

/** Gives a system bot its user ID if it has none yet (inside a commit). */
export function allocateSystemBot(app: App, tx: Transaction, kind: SystemBotKind): number {
  const doc = app.store.users.collection.data;
  const existing = doc.system_bots?.[kind];
  if (existing !== undefined) return existing;
  const allocated = doc.nextId++;
  doc.system_bots = { ...doc.system_bots, [kind]: allocated };
  tx.touch(app.store.users.collection);
  return allocated;
}

/** Both system bots get their IDs (inside the commit that creates the organization). */
export function allocateSystemBots(app: App, tx: Transaction): void {
  allocateSystemBot(app, tx, 'notification');
  allocateSystemBot(app, tx, 'welcome');
}

/**
 * At start: an organization made before a bot existed gets it now, so clients see it in
 * `cross_realm_bots` from their first register (Zulip announces no change of that list).
 */
export async function doEnsureNotificationBot(app: App): Promise<void> {
  if (app.store.realm.data.realm === null || (notificationBotId(app) !== undefined && welcomeBotId(app) !== undefined)) return;
  await commit(app, (tx) => allocateSystemBots(app, tx));
}

/** A system bot as a sender, given its ID first if it has none yet. */
export async function ensureSystemBot(app: App, kind: SystemBotKind): Promise<UserRecord> {
  const bot = systemBotOf(app, kind);
  if (bot) return bot;
  await commit(app, (tx) => allocateSystemBot(app, tx, kind));
  return systemBotOf(app, kind)!;
}

/**
 * A system bot's message (Zulip's internal_send_*): through the normal send action, with no
 * permission checks and the read rules of `internal`.
 */
async function sendAs(app: App, kind: SystemBotKind, addressee: SendInput['addressee'] | UserRecord, content: string, internal: InternalSend, inSameCommit?: (tx: Transaction) => void): Promise<number> {
  const bot = await ensureSystemBot(app, kind);
  const { id } = await doSendMessage(app, bot, {
    addressee: 'kind' in addressee ? addressee : { kind: 'direct', userIds: [bot.id, addressee.id].sort((a, b) => a - b) },
    content,
    readBySender: false,
    queueId: null,
    localId: null,
    client: 'Internal',
    internal,
    ...(inSameCommit ? { inSameCommit } : {}),
  });
  return id;
}

/** A direct message from a system bot to one person (Zulip's internal_send_private_message), unread. */
export const doSendSystemDirect = (app: App, kind: SystemBotKind, to: UserRecord, content: string, inSameCommit?: (tx: Transaction) => void): Promise<number> =>
  sendAs(app, kind, to, content, { renderAs: to.id, readFor: [] }, inSameCommit);

/** A channel message from a system bot, unread for everyone, rendered as `renderAs` sees it. */
export const doSendSystemChannelMessage = (app: App, kind: SystemBotKind, channel: ChannelRecord, topic: string, content: string, renderAs: UserRecord): Promise<number> =>
  sendAs(app, kind, { kind: 'stream', channel, topic }, content, { renderAs: renderAs.id, readFor: [] });

export interface Notice {
  channel: ChannelRecord;
  topic: string;
  content: string;
  /** Who caused it: renders the notice with their access, and reads it. */
  actingUser: UserRecord;
  /** Only these users get it unread (Zulip's limit_unread_user_ids); absent: every recipient. */
  unreadOnlyFor?: Set<number>;
  bits?: number;
}

/** A direct message from the Notification Bot to one user (Zulip's internal_send_private_message), unread. */
export const doSendDirectNotice = (app: App, to: UserRecord, content: string, inSameCommit?: (tx: Transaction) => void): Promise<number> =>
  doSendSystemDirect(app, 'notification', to, content, inSameCommit);

export function doSendNotice(app: App, notice: Notice): Promise<number> {
  return sendAs(app, 'notification', { kind: 'stream', channel: notice.channel, topic: notice.topic }, notice.content, {
    renderAs: notice.actingUser.id,
    readFor: [notice.actingUser.id],
    ...(notice.unreadOnlyFor ? { unreadOnlyFor: notice.unreadOnlyFor } : {}),
    ...(notice.bits ? { bits: notice.bits } : {}),
  });
}
