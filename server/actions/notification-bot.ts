/**
 * Posting as the Notification Bot (Zulip's internal_send_stream_message with
 * the NOTIFICATION_BOT sender): the bot gets its user ID the first time it
 * posts (server/lib/system-bots.ts), then the message goes through the normal
 * send action with no permission checks and the read rules of the notice.
 */
import type { App } from '../context.js';
import { notificationBotId, systemBot, welcomeBotId, type SystemBotKind } from '../lib/system-bots.js';
import type { ChannelRecord } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { doSendMessage } from './messages.js';

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

export const allocateNotificationBot = (app: App, tx: Transaction): number => allocateSystemBot(app, tx, 'notification');

/**
 * At start: an organization made before a bot existed gets it now, so clients see it in
 * `cross_realm_bots` from their first register (Zulip announces no change of that list).
 */
export async function doEnsureNotificationBot(app: App): Promise<void> {
  if (app.store.realm.data.realm === null || (notificationBotId(app) !== undefined && welcomeBotId(app) !== undefined)) return;
  await commit(app, (tx) => allocateSystemBots(app, tx));
}

async function ensureNotificationBot(app: App): Promise<UserRecord> {
  const id = notificationBotId(app) ?? (await commit(app, (tx) => allocateNotificationBot(app, tx)));
  return systemBot(app, id)!;
}

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
export async function doSendDirectNotice(app: App, to: UserRecord, content: string, inSameCommit?: (tx: Transaction) => void): Promise<number> {
  const bot = await ensureNotificationBot(app);
  const { id } = await doSendMessage(app, bot, {
    addressee: { kind: 'direct', userIds: [bot.id, to.id].sort((a, b) => a - b) },
    content,
    readBySender: false,
    queueId: null,
    localId: null,
    client: 'Internal',
    internal: { renderAs: to.id, readFor: [] },
    ...(inSameCommit ? { inSameCommit } : {}),
  });
  return id;
}

export async function doSendNotice(app: App, notice: Notice): Promise<number> {
  const bot = await ensureNotificationBot(app);
  const { id } = await doSendMessage(app, bot, {
    addressee: { kind: 'stream', channel: notice.channel, topic: notice.topic },
    content: notice.content,
    readBySender: false,
    queueId: null,
    localId: null,
    client: 'Internal',
    internal: {
      renderAs: notice.actingUser.id,
      readFor: [notice.actingUser.id],
      ...(notice.unreadOnlyFor ? { unreadOnlyFor: notice.unreadOnlyFor } : {}),
      ...(notice.bits ? { bits: notice.bits } : {}),
    },
  });
  return id;
}
