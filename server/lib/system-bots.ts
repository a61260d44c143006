/**
 * Zulip's cross-realm system bots, as clients see them. Hearth has one, the
 * Notification Bot, which posts the notices about moved and resolved topics
 * (server/actions/notification-bot.ts). It is not an account: it cannot log
 * in, is not in `realm_users`, and exists only as a user ID taken from the
 * users' ID sequence. Clients learn of it from
 * `cross_realm_bots`, messages name it as their sender, and
 * `GET /users/{id}` and `/avatar/{id}` answer for it, as in Zulip. Its ID is
 * taken with the organization (or, for older data, at the first start).
 */
import type { App } from '../context.js';
import type { UserRecord } from '../store/records.js';

export const NOTIFICATION_BOT_EMAIL = 'notification-bot@zulip.com';
export const NOTIFICATION_BOT_NAME = 'Notification Bot';
/** Zulip's DEFAULT_BOT type. */
const DEFAULT_BOT = 1;

export const notificationBotId = (app: App): number | undefined => app.store.users.collection.data.system_bots?.notification;

/** The bot as a user record (built on demand; never stored among the users). */
function botRecord(app: App, id: number): UserRecord {
  const created = app.store.realm.data.realm?.date_created ?? 0;
  return {
    id,
    email: NOTIFICATION_BOT_EMAIL,
    full_name: NOTIFICATION_BOT_NAME,
    role: 400,
    is_active: true,
    is_bot: true,
    bot_type: DEFAULT_BOT,
    bot_owner_id: null,
    api_key: '',
    password_hash: null,
    date_joined: new Date(created * 1000).toISOString(),
    timezone: '',
    avatar_version: 1,
    is_imported_stub: false,
  };
}

/** The system bot with this ID, if it is one. */
export function systemBot(app: App, id: number): UserRecord | undefined {
  return id === notificationBotId(app) ? botRecord(app, id) : undefined;
}

/** The system bot with this email address (case-insensitive), if it has posted. */
export function systemBotByEmail(app: App, email: string): UserRecord | undefined {
  const id = notificationBotId(app);
  return id !== undefined && email.toLowerCase() === NOTIFICATION_BOT_EMAIL ? botRecord(app, id) : undefined;
}

/** Every system bot allocated so far (for `cross_realm_bots`). */
export function systemBots(app: App): UserRecord[] {
  const id = notificationBotId(app);
  return id === undefined ? [] : [botRecord(app, id)];
}

/** A user or a system bot: for naming a message's sender. */
export const userOrSystemBot = (app: App, id: number): UserRecord | undefined => app.store.users.get(id) ?? systemBot(app, id);
