/** `/bots` endpoints (Zulip's add_bot_backend, get_bots_backend, patch_bot_backend, ...). */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { avatarDir, doSetAvatar } from '../actions/users-avatar.js';
import { MAX_AVATAR_BYTES } from '../lib/people/avatar.js';
import { checkImage, type UploadedImage } from './image-upload.js';
import { placeFile } from '../actions/files.js';
import { doDeactivateUser } from '../actions/users-activation.js';
import { doCreateBot, doRegenerateBotApiKey, doUpdateBot, type BotChanges } from '../actions/bots.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { decodeJson, t, type ParamType } from '../params/params.js';
import { v } from '../params/validate.js';
import {
  accessBotById,
  BOT_TYPE,
  BOT_TYPES,
  botDomain,
  checkBotNameAvailable,
  checkShortName,
  checkUrl,
  defaultChannelId,
  EMBEDDED_BOT_NAMES,
  INTERFACE_TYPES,
  lastCallField,
  requireMemberOrAdmin,
  settingsOf,
} from '../lib/people/bots.js';
import { channelById } from '../lib/channels/access.js';
import { avatarUrl, isAdmin, isOwner, ROLES } from '../lib/people/people.js';
import { checkFullName } from '../lib/people/display-name.js';
import { newApiKey } from '../auth/secrets.js';
import type { BotSettings, Role, UserRecord } from '../store/records.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';
import { requestFiles } from '../http/body.js';

/** A URL parameter: JSON-encoded as Zulip's check_url expects, or (leniently) the bare URL. */
const urlParam: ParamType<string> = {
  read(raw, name) {
    let value: unknown = raw;
    if (raw.startsWith('"')) value = decodeJson(raw, name);
    return checkUrl(v.str(value, name), name);
  },
};

const configParam = t.json(v.record(v.str));

/**
 * The request's avatar file for the bot (Zulip: at most one file), checked before
 * anything changes: null when none was sent.
 */
async function avatarUpload(req: ApiRequest): Promise<UploadedImage | null> {
  const list = requestFiles(req.koa);
  if (list.length === 0) return null;
  if (list.length > 1) throw errors.badRequest('You may only upload one file at a time');
  return checkImage(list[0]!, MAX_AVATAR_BYTES);
}

/** Moves a checked upload into the avatars folder (durably) and makes it the bot's avatar. */
async function setBotAvatar(req: ApiRequest, bot: UserRecord, upload: UploadedImage) {
  const name = `${bot.id}-${randomBytes(8).toString('hex')}.${upload.ext}`;
  await placeFile(req.app, upload.filepath, join(avatarDir(req.app), name));
  await doSetAvatar(req.app, bot, { file: name, content_type: upload.type });
}

function checkInterface(value: number): number {
  if (!INTERFACE_TYPES.includes(value)) throw errors.badRequest('Invalid interface type');
  return value;
}

const channelName = (req: ApiRequest, id: number | null) => (id === null ? null : (channelById(req.app, id)?.name ?? null));

/** The default-channel fields of the bot responses. */
function defaultsOf(req: ApiRequest, bot: UserRecord): ViewResult {
  const s = settingsOf(bot);
  return {
    default_sending_stream: channelName(req, s.default_sending_stream_id),
    default_events_register_stream: channelName(req, s.default_events_register_stream_id),
    default_all_public_streams: s.default_all_public_streams,
  };
}

/** POST /bots: creates a bot owned by the requester (members and up; not guests, not bots). */
export async function createBot(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  requireMemberOrAdmin(user);
  const { app, params } = req;
  const fullNameRaw = params.require('full_name', t.string);
  const shortNameRaw = params.require('short_name', t.string);
  const botType = params.get('bot_type', t.int, BOT_TYPE.GENERIC);
  const payloadUrl = params.get('payload_url', urlParam, '');
  let serviceName = params.get('service_name', t.string);
  const configData = params.get('config_data', configParam, {});
  const interfaceType = params.get('interface_type', t.int) ?? params.get('interface', t.int, 1);
  const sendingName = params.get('default_sending_stream', t.string);
  const eventsName = params.get('default_events_register_stream', t.string);
  const allPublic = params.get('default_all_public_streams', t.bool);

  const domain = botDomain(app);
  const shortName = checkShortName(shortNameRaw, domain);
  if (botType !== BOT_TYPE.INCOMING_WEBHOOK) serviceName = serviceName || shortName;
  const fullName = checkFullName(fullNameRaw);
  const email = `${shortName}-bot@${domain}`;
  if (botType === BOT_TYPE.EMBEDDED && !EMBEDDED_BOT_NAMES.includes(serviceName ?? '')) {
    throw errors.badRequest('Invalid embedded bot name.');
  }
  if (app.store.users.byEmailAddress(email)) throw errors.badRequest('Username already in use');
  checkBotNameAvailable(app, fullName);
  if (!BOT_TYPES.includes(botType)) throw errors.badRequest('Invalid bot type');
  checkInterface(interfaceType);
  const settings: BotSettings = {
    default_sending_stream_id: sendingName === undefined ? null : defaultChannelId(app, user, sendingName),
    default_events_register_stream_id: eventsName === undefined ? null : defaultChannelId(app, user, eventsName),
    default_all_public_streams: allPublic ?? false,
  };
  if (botType === BOT_TYPE.OUTGOING_WEBHOOK) {
    settings.outgoing = { service_name: serviceName!, base_url: payloadUrl, interface: interfaceType, token: newApiKey() };
  }
  if (botType === BOT_TYPE.EMBEDDED) settings.service_name = serviceName;
  // An incoming webhook names its integration (Zulip's integration_id); Hearth has no integration catalog to check.
  if (botType === BOT_TYPE.INCOMING_WEBHOOK && serviceName) settings.service_name = serviceName;
  if (botType === BOT_TYPE.INCOMING_WEBHOOK || botType === BOT_TYPE.EMBEDDED) settings.config_data = { ...configData };
  const avatar = await avatarUpload(req);

  const bot = await doCreateBot(app, { email, fullName, botType, owner: user, settings });
  if (avatar) await setBotAvatar(req, bot, avatar);
  return { user_id: bot.id, api_key: bot.api_key, avatar_url: avatarUrl(bot), ...defaultsOf(req, bot) };
}

/** GET /bots: the requester's own active bots, oldest first, with their API keys. */
export function listBots(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  requireMemberOrAdmin(user);
  const bots = req.app.store.users
    .all()
    .filter((u) => u.is_bot && u.is_active && u.bot_owner_id === user.id)
    .sort((a, b) => Date.parse(a.date_joined) - Date.parse(b.date_joined) || a.id - b.id)
    .map((bot) => ({
      username: bot.email,
      user_id: bot.id,
      full_name: bot.full_name,
      api_key: bot.api_key,
      avatar_url: avatarUrl(bot),
      ...defaultsOf(req, bot),
      ...lastCallField(req.app, bot),
    }));
  return { bots };
}

/** The new owner of PATCH /bots/{id} `bot_owner_id`, with Zulip's three refusals. */
function newOwner(req: ApiRequest, id: number): UserRecord {
  const owner = req.app.store.users.get(id);
  if (!owner) throw errors.badRequest('Failed to change owner, no such user');
  if (!owner.is_active) throw errors.badRequest('Failed to change owner, user is deactivated');
  if (owner.is_bot) throw errors.badRequest("Failed to change owner, bots can't own other bots");
  return owner;
}

/** PATCH /bots/{bot_id}: the bot's owner or an administrator. */
export async function updateBot(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  requireMemberOrAdmin(user);
  const { app, params } = req;
  const bot = accessBotById(app, user, pathInt(req, 'bot_id'));
  const ch: BotChanges = {};
  const fullNameRaw = params.get('full_name', t.string);
  const role = params.get('role', t.int);
  const ownerId = params.get('bot_owner_id', t.int);
  const configData = params.get('config_data', configParam);
  const payloadUrl = params.get('service_payload_url', urlParam);
  const serviceInterface = params.get('service_interface', t.int, 1);
  const sendingName = params.get('default_sending_stream', t.string);
  const eventsName = params.get('default_events_register_stream', t.string);
  const allPublic = params.get('default_all_public_streams', t.bool);

  if (fullNameRaw !== undefined) {
    const name = checkFullName(fullNameRaw);
    // Zulip's web app sends the unchanged name back: silently ignored.
    if (name !== bot.full_name) {
      checkBotNameAvailable(app, name, bot.id);
      ch.fullName = name;
    }
  }
  if (role !== undefined) {
    if (!ROLES.includes(role)) throw errors.invalidVar('role', 'Invalid role');
    if (role !== bot.role) {
      if ((role === 100 || bot.role === 100) && !isOwner(user)) throw errors.ownerRequired();
      if (!isAdmin(user)) throw errors.adminRequired();
      ch.role = role as Role;
    }
  }
  if (ownerId !== undefined) {
    const owner = newOwner(req, ownerId);
    if (owner.id !== bot.bot_owner_id) ch.owner = owner;
  }
  if (sendingName !== undefined) ch.defaultSendingStreamId = defaultChannelId(app, user, sendingName);
  if (eventsName !== undefined) ch.defaultEventsRegisterStreamId = defaultChannelId(app, user, eventsName);
  if (allPublic !== undefined) ch.defaultAllPublicStreams = allPublic;
  if (payloadUrl !== undefined) {
    checkInterface(serviceInterface);
    if (bot.bot_type !== BOT_TYPE.OUTGOING_WEBHOOK) throw errors.badRequest('This bot has no outgoing webhook service');
    ch.outgoing = { base_url: payloadUrl, interface: serviceInterface };
  }
  if (configData !== undefined) {
    if (bot.bot_type !== BOT_TYPE.INCOMING_WEBHOOK && bot.bot_type !== BOT_TYPE.EMBEDDED) {
      throw errors.badRequest('This bot has no configuration data');
    }
    ch.configData = configData;
  }
  const avatar = await avatarUpload(req);
  await doUpdateBot(app, bot, ch);
  if (avatar) await setBotAvatar(req, bot, avatar);

  const out: ViewResult = {
    full_name: bot.full_name,
    avatar_url: avatarUrl(bot),
    service_interface: serviceInterface,
    service_payload_url: payloadUrl ?? null,
    config_data: configData ?? null,
    ...defaultsOf(req, bot),
  };
  const owner = bot.bot_owner_id === null ? undefined : app.store.users.get(bot.bot_owner_id);
  if (owner) out.bot_owner = owner.email;
  return out;
}

/** DELETE /bots/{bot_id}: deactivates the bot (its owner or an administrator). */
export async function deactivateBot(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const bot = accessBotById(req.app, user, pathInt(req, 'bot_id'));
  await doDeactivateUser(req.app, bot);
  return {};
}

/** POST /bots/{bot_id}/api_key/regenerate: a new key for the bot's owner or an administrator. */
/** GET /bots/{bot_id}/api_key (Zulip 12, feature level 463): for whoever may administer the bot. */
export function getBotApiKey(req: ApiRequest): ViewResult {
  const user = requireUser(req);
  requireMemberOrAdmin(user);
  return { api_key: accessBotById(req.app, user, pathInt(req, 'bot_id')).api_key };
}

export async function regenerateBotApiKey(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  requireMemberOrAdmin(user);
  const bot = accessBotById(req.app, user, pathInt(req, 'bot_id'));
  return { api_key: await doRegenerateBotApiKey(req.app, bot) };
}
