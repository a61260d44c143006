/**
 * Bots as Zulip administers them: the bot object of `realm_bots` / `realm_bot`
 * events, who may administer a bot, the bot email domain and the checks of
 * `POST /bots` and `PATCH /bots/{id}` (zerver/lib/users.py).
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { OutgoingWebhookLastCall } from '../../store/outgoing-webhook-records.js';
import type { BotSettings, UserRecord } from '../../store/records.js';
import { channelById, channelByName, hasContentAccess } from '../channels/access.js';
import { activeUsers, avatarUrl, fakeDomain, isAdmin } from './people.js';

export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
export const BOT_TYPES: readonly number[] = Object.values(BOT_TYPE);

/** Outgoing-webhook formats (Zulip's Service.GENERIC and Service.SLACK). */
export const INTERFACE_TYPES: readonly number[] = [1, 2];

/** The embedded bots Zulip ships (zerver/lib/integrations.py EMBEDDED_BOTS); Hearth stores them, never runs them. */
export const EMBEDDED_BOT_NAMES: readonly string[] = ['converter', 'encrypt', 'helloworld', 'virtual_fs', 'giphy', 'followup'];

/**
 * Zulip's realm.get_bot_domain(): get_fake_email_domain(realm.host). Hearth's organization has
 * no fixed host (it is reached by loopback or any LAN address), so, as Zulip does for a host
 * that cannot form an email address, it is the fake email domain, the one of `user{id}@` too.
 */
export const botDomain = (app: App): string => fakeDomain(app);

export const settingsOf = (bot: UserRecord): BotSettings =>
  bot.bot_settings ?? { default_sending_stream_id: null, default_events_register_stream_id: null, default_all_public_streams: false };

const channelName = (app: App, id: number | null): string | null => (id === null ? null : (channelById(app, id)?.name ?? null));

/** Zulip's get_service_dicts_for_bot: outgoing webhooks and embedded bots have one service. */
export function botServices(bot: UserRecord): Record<string, unknown>[] {
  const s = settingsOf(bot);
  if (bot.bot_type === BOT_TYPE.OUTGOING_WEBHOOK && s.outgoing) {
    return [{ base_url: s.outgoing.base_url, interface: s.outgoing.interface, token: s.outgoing.token }];
  }
  if (bot.bot_type === BOT_TYPE.EMBEDDED) {
    return [{ config_data: { ...(s.config_data ?? {}) }, service_name: s.service_name ?? '' }];
  }
  return [];
}

/**
 * An outgoing-webhook bot's latest call (a Hearth extension: `{timestamp, ok, text}`, null before
 * its first call); absent for other bots.
 */
export function lastCallField(app: App, bot: UserRecord): { hearth_last_call?: OutgoingWebhookLastCall | null } {
  if (bot.bot_type !== BOT_TYPE.OUTGOING_WEBHOOK) return {};
  const last = app.store.outgoingWebhooks.data.last_calls?.[String(bot.id)];
  return { hearth_last_call: last ? { ...last } : null };
}

/** The bot object of `realm_bots` and `realm_bot` add events (Zulip's created_bot_event / get_owned_bot_dicts). */
export function formatBot(app: App, bot: UserRecord): Record<string, unknown> {
  const s = settingsOf(bot);
  return {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: bot.is_active,
    api_key: bot.api_key,
    default_sending_stream: channelName(app, s.default_sending_stream_id),
    default_events_register_stream: channelName(app, s.default_events_register_stream_id),
    default_all_public_streams: s.default_all_public_streams,
    avatar_url: avatarUrl(bot),
    owner_id: bot.bot_owner_id,
    services: botServices(bot),
    ...lastCallField(app, bot),
  };
}

/** Zulip's can_admin_user for a bot: administrators, and the bot's owner. */
export const canAdministerBot = (user: UserRecord, bot: UserRecord): boolean =>
  isAdmin(user) || (bot.bot_owner_id !== null && bot.bot_owner_id === user.id);

/** The bots a user administers (`realm_bots`): every bot for administrators, otherwise their own. */
export function botsAdministeredBy(app: App, user: UserRecord): UserRecord[] {
  return app.store.users.all().filter((u) => u.is_bot && canAdministerBot(user, u));
}

/** Zulip's bot_owner_user_ids: who hears `realm_bot` events about a bot (active human administrators and its owner). */
export function botAdminIds(app: App, bot: UserRecord): number[] {
  const ids = new Set(activeUsers(app).filter((u) => !u.is_bot && isAdmin(u)).map((u) => u.id));
  if (bot.bot_owner_id !== null && app.store.users.get(bot.bot_owner_id)?.is_active) ids.add(bot.bot_owner_id);
  return [...ids];
}

/** Zulip's access_bot_by_id: `No such bot` for anything that is not a bot, then the administration check. */
export function accessBotById(app: App, user: UserRecord, id: number): UserRecord {
  const bot = app.store.users.get(id);
  if (!bot || !bot.is_bot) throw errors.badRequest('No such bot');
  if (!canAdministerBot(user, bot)) throw errors.badRequest('Insufficient permission');
  return bot;
}

/** Zulip's require_member_or_admin: the bots endpoints refuse guests and bots. */
export function requireMemberOrAdmin(user: UserRecord): void {
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
  if (user.role === 600) throw errors.badRequest('Not allowed for guest users');
}

/** Zulip's check_short_name: trimmed, not empty; the email's local part must be a valid address. */
export function checkShortName(raw: string, domain: string): string {
  const short = raw.trim();
  if (!short) throw errors.badRequest('Bad name or username');
  const local = `${short}-bot`;
  // Zulip builds an email Address and validates it as Django does (dot-atom local part, at most 64 octets).
  const atom = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
  if (!atom.test(local) || Buffer.byteLength(local) > 64 || `${local}@${domain}`.length > 254) {
    throw errors.badRequest('Bad name or username');
  }
  return short;
}

/** Zulip's check_bot_name_available: no active account may have the same full name. */
export function checkBotNameAvailable(app: App, fullName: string, except?: number): void {
  const name = fullName.trim();
  if (app.store.users.all().some((u) => u.is_active && u.id !== except && u.full_name === name)) {
    throw errors.badRequest('Name is already in use.');
  }
}

/** Zulip's check_url for `payload_url`: an absolute http(s) URL. */
export function checkUrl(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.badRequest(`${name} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.badRequest(`${name} is not a URL`);
  return raw;
}

/**
 * Zulip's access_stream_by_name for a bot's default channel: a channel the requester may
 * post to (public, or one they have content access to). `''` clears it (null).
 */
export function defaultChannelId(app: App, user: UserRecord, name: string): number | null {
  if (name === '') return null;
  const channel = channelByName(app, name);
  if (!channel || channel.is_archived || !hasContentAccess(app, user, channel)) {
    throw errors.badRequest(`Invalid channel name '${name}'`);
  }
  return channel.id;
}
