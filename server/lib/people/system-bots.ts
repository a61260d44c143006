/**
 * Zulip's cross-realm system bots, as clients see them. Hearth has two: the Notification
 * Bot, which posts the notices about moved and resolved topics
 * (server/actions/notification-bot.ts), and the Welcome Bot, which greets new people and
 * starts the first conversations of a new organization (server/actions/onboarding.ts).
 * They are not accounts: they cannot log in, are not in `realm_users`, and exist only as
 * user IDs taken from the users' ID sequence. Clients learn of them from
 * `cross_realm_bots`, messages name them as their sender, and `GET /users/{id}` and
 * `/avatar/{id}` answer for them, as in Zulip. Their IDs are taken with the organization
 * (or, for older data, at the first start).
 */
import type { App } from '../../context.js';
import type { UserRecord } from '../../store/records.js';

export const SYSTEM_BOTS = {
  notification: { email: 'notification-bot@zulip.com', name: 'Notification Bot' },
  welcome: { email: 'welcome-bot@zulip.com', name: 'Welcome Bot' },
} as const;
export type SystemBotKind = keyof typeof SYSTEM_BOTS;
const KINDS = Object.keys(SYSTEM_BOTS) as SystemBotKind[];

export const NOTIFICATION_BOT_EMAIL = SYSTEM_BOTS.notification.email;
export const NOTIFICATION_BOT_NAME = SYSTEM_BOTS.notification.name;
/** Zulip's DEFAULT_BOT type. */
const DEFAULT_BOT = 1;

export const systemBotId = (app: App, kind: SystemBotKind): number | undefined => app.store.users.collection.data.system_bots?.[kind];
export const notificationBotId = (app: App): number | undefined => systemBotId(app, 'notification');
export const welcomeBotId = (app: App): number | undefined => systemBotId(app, 'welcome');

/** The bot as a user record (built on demand; never stored among the users). */
function botRecord(app: App, kind: SystemBotKind, id: number): UserRecord {
  const created = app.store.realm.data.realm?.date_created ?? 0;
  return {
    id,
    email: SYSTEM_BOTS[kind].email,
    full_name: SYSTEM_BOTS[kind].name,
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

const kindOf = (app: App, id: number): SystemBotKind | undefined => KINDS.find((k) => systemBotId(app, k) === id);

/** The system bot with this ID, if it is one. */
export function systemBot(app: App, id: number): UserRecord | undefined {
  const kind = kindOf(app, id);
  return kind ? botRecord(app, kind, id) : undefined;
}

/** The system bot of this kind, once it has an ID. */
export function systemBotOf(app: App, kind: SystemBotKind): UserRecord | undefined {
  const id = systemBotId(app, kind);
  return id === undefined ? undefined : botRecord(app, kind, id);
}

/** The system bot with this email address (case-insensitive), if it has an ID. */
export function systemBotByEmail(app: App, email: string): UserRecord | undefined {
  const kind = KINDS.find((k) => SYSTEM_BOTS[k].email === email.toLowerCase());
  return kind ? systemBotOf(app, kind) : undefined;
}

/** Every system bot allocated so far (for `cross_realm_bots`). */
export function systemBots(app: App): UserRecord[] {
  return KINDS.map((k) => systemBotOf(app, k)).filter((b): b is UserRecord => b !== undefined);
}

/** A user or a system bot: for naming a message's sender. */
export const userOrSystemBot = (app: App, id: number): UserRecord | undefined => app.store.users.get(id) ?? systemBot(app, id);
