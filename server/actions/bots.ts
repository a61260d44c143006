/**
 * Creating and administering bots (Zulip's add_bot_backend, zerver/actions/bots.py
 * and the bot parts of do_regenerate_api_key). Bots are users: the account itself is
 * made by doCreateUser (users area), which announces the `realm_user` add.
 */
import { newApiKey } from '../auth/secrets.js';
import type { App } from '../context.js';
import { botAdminIds, botServices, formatBot, settingsOf } from '../lib/people/bots.js';
import { channelById } from '../lib/channels/access.js';
import type { BotSettings, Role, UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { emitBotUpdate } from './bot-events.js';
import { changeFullName, changeRole } from './users-update.js';
import { doCreateUser, emitUserUpdate } from './users.js';

export interface NewBot {
  email: string;
  fullName: string;
  botType: number;
  owner: UserRecord;
  settings: BotSettings;
}

/** `realm_bot` add for a bot, to the users who administer it. */
const emitBotAdd = (app: App, tx: Transaction, bot: UserRecord, to: number[]) =>
  tx.emit({ type: 'realm_bot', op: 'add', bot: formatBot(app, bot) }, to);

/**
 * Creates a bot: the user account (`realm_user` add to everyone, role-group
 * `add_members`), then its settings and the `realm_bot` add for its
 * administrators (Zulip's notify_created_bot).
 */
export async function doCreateBot(app: App, b: NewBot): Promise<UserRecord> {
  const bot = await doCreateUser(app, {
    email: b.email,
    fullName: b.fullName,
    password: null,
    role: 400,
    bot: { type: b.botType, ownerId: b.owner.id },
  });
  await commit(app, (tx) => {
    bot.bot_settings = b.settings;
    tx.touch(app.store.users.collection);
    emitBotAdd(app, tx, bot, botAdminIds(app, bot));
  });
  return bot;
}

export interface BotChanges {
  fullName?: string;
  role?: Role;
  owner?: UserRecord;
  defaultSendingStreamId?: number | null;
  defaultEventsRegisterStreamId?: number | null;
  defaultAllPublicStreams?: boolean;
  outgoing?: { base_url: string; interface: number };
  /** Merged into the bot's configuration, key by key (Zulip's set_bot_config). */
  configData?: Record<string, string>;
}

const streamName = (app: App, id: number | null) => (id === null ? null : (channelById(app, id)?.name ?? null));

/**
 * Zulip's do_change_bot_owner: the previous owner (unless an administrator) hears
 * `realm_bot` delete, the new owner (unless an administrator) `realm_bot` add, the
 * other administrators `realm_bot` update `owner_id`; everyone `realm_user` update
 * `bot_owner_id`. Then a new API key (below).
 */
export function changeOwner(app: App, tx: Transaction, bot: UserRecord, owner: UserRecord): void {
  if (bot.bot_owner_id === owner.id) return;
  const admins = new Set(botAdminIds(app, { ...bot, bot_owner_id: null }));
  const previous = bot.bot_owner_id === null ? undefined : app.store.users.get(bot.bot_owner_id);
  bot.bot_owner_id = owner.id;
  tx.touch(app.store.users.collection);
  const audience = new Set(botAdminIds(app, bot));
  if (previous?.is_active && !admins.has(previous.id)) {
    tx.emit({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [previous.id]);
  }
  if (!admins.has(owner.id)) {
    emitBotAdd(app, tx, bot, [owner.id]);
    audience.delete(owner.id);
  }
  tx.emit({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } }, [...audience]);
  emitUserUpdate(app, tx, bot, { bot_owner_id: owner.id });
  // Hearth, beyond Zulip: the bot gets a new API key, so the previous owner cannot keep using it
  // (a member deactivated after giving their bot away would otherwise keep the server's API).
  // The new owner and the administrators hear it (`realm_bot` update `api_key`).
  bot.api_key = newApiKey();
  emitBotUpdate(app, tx, bot, { api_key: bot.api_key });
}

/** PATCH /bots/{id}: every validated change in one commit, each announced as Zulip does. */
export async function doUpdateBot(app: App, bot: UserRecord, ch: BotChanges): Promise<void> {
  await commit(app, (tx) => {
    const s = (bot.bot_settings = settingsOf(bot));
    const touch = () => tx.touch(app.store.users.collection);
    if (ch.fullName !== undefined && ch.fullName !== bot.full_name) {
      changeFullName(app, tx, bot, ch.fullName);
    }
    if (ch.role !== undefined) changeRole(app, tx, bot, ch.role);
    if (ch.owner) changeOwner(app, tx, bot, ch.owner);
    if (ch.defaultSendingStreamId !== undefined && ch.defaultSendingStreamId !== s.default_sending_stream_id) {
      s.default_sending_stream_id = ch.defaultSendingStreamId;
      touch();
      emitBotUpdate(app, tx, bot, { default_sending_stream: streamName(app, ch.defaultSendingStreamId) });
    }
    if (
      ch.defaultEventsRegisterStreamId !== undefined &&
      ch.defaultEventsRegisterStreamId !== s.default_events_register_stream_id
    ) {
      s.default_events_register_stream_id = ch.defaultEventsRegisterStreamId;
      touch();
      emitBotUpdate(app, tx, bot, { default_events_register_stream: streamName(app, ch.defaultEventsRegisterStreamId) });
    }
    if (ch.defaultAllPublicStreams !== undefined && ch.defaultAllPublicStreams !== s.default_all_public_streams) {
      s.default_all_public_streams = ch.defaultAllPublicStreams;
      touch();
      emitBotUpdate(app, tx, bot, { default_all_public_streams: ch.defaultAllPublicStreams });
    }
    if (ch.outgoing && s.outgoing) {
      s.outgoing = { ...s.outgoing, ...ch.outgoing };
      touch();
      emitBotUpdate(app, tx, bot, { services: botServices(bot) });
    }
    if (ch.configData) {
      s.config_data = { ...(s.config_data ?? {}), ...ch.configData };
      touch();
      emitBotUpdate(app, tx, bot, { services: botServices(bot) });
    }
  });
}

/** A new API key for a bot; the old one stops working at once (`realm_bot` update `api_key`). */
export async function doRegenerateBotApiKey(app: App, bot: UserRecord): Promise<string> {
  return commit(app, (tx) => {
    bot.api_key = newApiKey();
    tx.touch(app.store.users.collection);
    emitBotUpdate(app, tx, bot, { api_key: bot.api_key });
    return bot.api_key;
  });
}
