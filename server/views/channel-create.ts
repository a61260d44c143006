import { doAddSubscriptions, type NewChannel } from '../actions/subscriptions.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { v } from '../params/validate.js';
import {
  CHANNEL_SETTING_NAMES,
  canSetTopicsPolicy,
  defaultChannelSettings,
  hasRealmPermission,
  webPublicChannelsEnabled,
} from '../lib/channels/settings.js';
import { channelByName } from '../lib/channels/access.js';
import {
  channelSettingValue,
  checkChannelDescription,
  checkChannelName,
  checkProtectedHistoryTopics,
  parseRetentionDays,
  rawOrJson,
  topicsPolicyParam,
} from '../lib/channels/validate.js';
import { isAdmin, isGuest, isOwner } from '../lib/people/people.js';
import type { TopicsPolicy } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { requireUser } from '../lib/people/require.js';
import { resolvePrincipals } from '../lib/people/principals.js';

const anyJson = t.json((x: unknown) => x);

/** topics_policy at creation is JSON (`"inherit"`, or null for the default). */
const creationTopicsPolicy: ParamType<TopicsPolicy> = {
  read: (raw, name) => (raw === 'null' ? 'inherit' : topicsPolicyParam.read(raw, name)),
};

/**
 * The creation parameters of POST /users/me/subscriptions, applied to the
 * channels that do not exist yet, with Zulip's checks (list_to_streams,
 * check_channel_creation_permissions). Parameters are read (and type-checked)
 * even when nothing is created; as in Zulip, they are then ignored.
 */
export function newChannelSpecs(
  req: ApiRequest,
  user: UserRecord,
  missing: { name: string; description: string }[],
): NewChannel[] {
  const { app, params } = req;
  const inviteOnly = params.get('invite_only', t.bool, false);
  const isWebPublic = params.get('is_web_public', t.bool, false);
  const isDefault = params.get('is_default_stream', t.bool, false);
  const historyParam = params.get('history_public_to_subscribers', t.json(v.nullable(v.bool)), null);
  const retention = parseRetentionDays(params.get('message_retention_days', rawOrJson, 'realm_default'));
  const topicsPolicy = params.get('topics_policy', creationTopicsPolicy, 'inherit');
  const folderId = params.get('folder_id', t.json(v.nullable(v.int)), null);
  const rawSettings = new Map<string, unknown>();
  for (const name of CHANNEL_SETTING_NAMES) {
    const raw = params.get(name, anyJson);
    if (raw !== undefined && raw !== null) rawSettings.set(name, raw);
  }

  if (folderId !== null && !app.store.channelFolders.data.folders.some((f) => f.id === folderId)) {
    throw errors.badRequest('Invalid channel folder ID');
  }
  if (topicsPolicy !== 'inherit' && !canSetTopicsPolicy(app, user)) throw errors.badRequest('Insufficient permission');
  if (missing.length === 0) return [];

  const settings = defaultChannelSettings(app, user.id);
  for (const [name, raw] of rawSettings) settings[name] = channelSettingValue(app, user, name, raw);
  // Public channels always share their history with subscribers.
  const history = inviteOnly ? (historyParam ?? false) : true;
  if (isWebPublic && inviteOnly) throw errors.badRequest('Invalid parameters');
  checkProtectedHistoryTopics(app, history, settings.can_create_topic_group!);

  const createSetting = inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
  if (!hasRealmPermission(app, user, createSetting)) throw errors.badRequest('Insufficient permission');
  if (isDefault && !isAdmin(user)) throw errors.badRequest('Insufficient permission');
  if (inviteOnly && isDefault) throw errors.badRequest('A default channel cannot be private.');
  if (isWebPublic) {
    if (!webPublicChannelsEnabled(app)) throw errors.badRequest('Web-public channels are not enabled.');
    if (!hasRealmPermission(app, user, 'can_create_web_public_channel_group')) {
      throw errors.badRequest('Insufficient permission');
    }
  }
  if (retention !== null && !isOwner(user)) throw errors.ownerRequired();

  return missing.map(({ name, description }) => ({
    name,
    description,
    invite_only: inviteOnly,
    is_web_public: isWebPublic,
    history_public_to_subscribers: history,
    message_retention_days: retention,
    topics_policy: topicsPolicy,
    folder_id: folderId,
    is_default_stream: isDefault,
    settings: { ...settings },
  }));
}

/**
 * POST /channels/create (Zulip 11, feature level 417): one new channel with
 * the creation parameters of POST /users/me/subscriptions, `subscribers` (user
 * IDs, possibly without the creator) subscribed to it. A taken name answers
 * 409 CHANNEL_ALREADY_EXISTS, as Zulip documents. Answers the new `id`.
 */
export async function createChannelView(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  if (isGuest(user)) throw errors.badRequest('Not allowed for guest users');
  const rawName = params.require('name', t.string);
  const description = checkChannelDescription(params.get('description', t.string, ''));
  const subscriberIds = params.require('subscribers', t.json(v.list(v.int)));
  params.get('announce', t.bool, false); // Hearth has no notification bot to announce with.
  params.get('send_new_subscription_messages', t.bool);
  const name = checkChannelName(rawName);
  if (channelByName(app, name)) throw errors.channelExists(name, 409);
  const [spec] = newChannelSpecs(req, user, [{ name, description }]);
  const users = resolvePrincipals(req, subscriberIds);
  const result = await doAddSubscriptions(app, user, { create: [spec!], existing: [], users, colors: new Map() });
  const created = result.subscribed[0]?.channel ?? channelByName(app, name)!;
  return { id: created.id };
}
