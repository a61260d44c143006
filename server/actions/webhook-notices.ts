/**
 * Zulip's send_rate_limited_pm_notification_to_bot_owner: when a bot posts somewhere nobody will
 * read it (a channel that does not exist, or one without subscribers), the Notification Bot tells
 * the bot's owner in a direct message, at most once a minute per bot (`last_reminder`, kept on
 * the bot's record in the same write as the notice).
 */
import type { App } from '../context.js';
import type { UserRecord } from '../store/records.js';
import { doSendDirectNotice } from './notification-bot.js';

/** Zulip's BOT_OWNER_STREAM_ALERT_WAITPERIOD: one minute. */
const WAIT_MS = 60_000;

/** A notice from the Notification Bot to the bot's owner (an integration's own wording). */
export async function doNotifyBotOwner(app: App, bot: UserRecord, content: string): Promise<void> {
  if (!bot.is_bot || bot.bot_owner_id === null) return;
  const owner = app.store.users.get(bot.bot_owner_id);
  if (!owner?.is_active) return;
  const now = app.clock.now();
  if (bot.last_reminder !== undefined && now - bot.last_reminder <= WAIT_MS) return;
  await doSendDirectNotice(app, owner, content, (tx) => {
    bot.last_reminder = now;
    tx.touch(app.store.users.collection);
  });
}

const botMention = (bot: UserRecord) => `@_**${bot.full_name}|${bot.id}**`;

/** Zulip's send_pm_if_empty_stream for a channel named by name that does not exist. */
export const doNotifyMissingChannel = (app: App, bot: UserRecord, name: string) =>
  doNotifyBotOwner(
    app,
    bot,
    `Your bot ${botMention(bot)} tried to send a message to channel #**${name}**, but that channel does not exist. Click [here](#channels/new) to create it.`,
  );

/** The same for a channel named by ID. */
export const doNotifyMissingChannelId = (app: App, bot: UserRecord, id: number) =>
  doNotifyBotOwner(app, bot, `Your bot ${botMention(bot)} tried to send a message to channel ID ${id}, but there is no channel with that ID.`);

/** The same for a channel nobody is subscribed to. */
export const doNotifyEmptyChannel = (app: App, bot: UserRecord, name: string) =>
  doNotifyBotOwner(
    app,
    bot,
    `Your bot ${botMention(bot)} tried to send a message to channel #**${name}**. The channel exists but does not have any subscribers.`,
  );

/**
 * Zulip's MISSING_EVENT_HEADER_MESSAGE: the request named no event type. Zulip ends by pointing at
 * its support address; a Hearth server has none, so the owner is pointed at the administrators.
 */
export const doNotifyMissingHeader = (app: App, bot: UserRecord, path: string, header: string, integration: string) =>
  doNotifyBotOwner(
    app,
    bot,
    `Hi there!  Your bot ${bot.full_name} just sent an HTTP request to ${path} that
is missing the HTTP ${header} header.  Because this header is how
${integration} indicates the event type, this usually indicates a configuration
issue, where you either entered the URL for a different integration, or are running
an older version of the third-party service that doesn't provide that header.
Contact your server's administrators if you need help debugging!`,
  );

/**
 * Zulip's INVALID_JSON_MESSAGE (notify_bot_owner_about_invalid_json): the integration's payload
 * was not JSON, so the sender is likely set up to send another format. `integration` is the
 * name webhook_view gives it (its clientName).
 */
export const doNotifyInvalidJson = (app: App, bot: UserRecord, integration: string) =>
  doNotifyBotOwner(
    app,
    bot,
    `Hi there! It looks like you tried to set up the Zulip ${integration} integration,
but didn't correctly configure the webhook to send data in the JSON format
that this integration expects!`,
  );
