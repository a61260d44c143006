import { doUpdateChannel, type ChannelChanges } from '../actions/channels.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t, type ParamType } from '../params/params.js';
import { v } from '../params/validate.js';
import {
  CHANNEL_SETTING_NAMES,
  SETTINGS_REQUIRING_CONTENT_ACCESS,
  canSetTopicsPolicy,
  hasRealmPermission,
  webPublicChannelsEnabled,
} from '../lib/channels/settings.js';
import { canAdminister, channelById, hasContentAccess, subscriberIds } from '../lib/channels/access.js';
import {
  channelSettingValue,
  checkChannelDescription,
  checkChannelName,
  checkChannelNameAvailable,
  checkProtectedHistoryTopics,
  parseRetentionDays,
  rawOrJson,
  topicsPolicyParam,
} from '../lib/channels/validate.js';
import { sameGroupSetting } from '../lib/groups/setting-values.js';
import { isAdmin, isOwner } from '../lib/people/people.js';
import type { ChannelRecord, GroupSettingValue } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { LIMITS } from '../version.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';

const anyJson = t.json((x: unknown) => x);

/** A string parameter with Zulip's StringConstraints(max_length) wording. */
const limited = (max: number): ParamType<string> => ({
  read(raw, name) {
    if ([...raw].length > max) throw errors.badRequest(`${name} is too long (limit: ${max} characters)`);
    return raw;
  },
});

/**
 * Zulip's access_stream_for_delete_or_update_requiring_metadata_access: who may
 * administer (change or archive) the channel. Those who may not know it get
 * "Invalid channel ID", those who may read it a permission error.
 */
export function channelToAdminister(req: ApiRequest, user: UserRecord): ChannelRecord {
  const channel = channelById(req.app, pathInt(req, 'stream_id'));
  if (!channel) throw errors.badRequest('Invalid channel ID');
  if (canAdminister(req.app, user, channel)) return channel;
  if (hasContentAccess(req.app, user, channel)) {
    throw errors.badRequest('You do not have permission to administer this channel.');
  }
  throw errors.badRequest('Invalid channel ID');
}

/**
 * PATCH /streams/{stream_id}: every parameter is checked before anything
 * changes, then the changes land in one write (Zulip's update_stream_backend
 * applies them one by one). stream_post_policy and is_announcement_only were
 * removed at feature level 333: they are not read, so they are reported in
 * ignored_parameters_unsupported.
 */
export async function updateChannel(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const description = params.get('description', limited(LIMITS.max_stream_description_length));
  const newName = params.get('new_name', t.string);
  const isPrivate = params.get('is_private', t.bool);
  const isWebPublic = params.get('is_web_public', t.bool);
  const history = params.get('history_public_to_subscribers', t.bool);
  const isDefault = params.get('is_default_stream', t.bool);
  const retentionRaw = params.get('message_retention_days', rawOrJson);
  const isArchived = params.get('is_archived', t.bool);
  const topicsPolicy = params.get('topics_policy', topicsPolicyParam);
  const folderId = params.get('folder_id', t.json(v.nullable(v.int)));
  const rawSettings = new Map<string, unknown>();
  for (const name of CHANNEL_SETTING_NAMES) {
    const raw = params.get(name, anyJson);
    if (raw !== undefined) rawSettings.set(name, raw);
  }

  const channel = channelToAdminister(req, user);
  const contentAccess = () => hasContentAccess(app, user, channel);
  const changes: ChannelChanges = {};

  // Settings first: the privacy checks below need the final can_create_topic_group.
  const settings: Record<string, GroupSettingValue> = {};
  for (const [name, raw] of rawSettings) {
    const current = channel.settings[name]!;
    const next = channelSettingValue(app, user, name, raw, current);
    if (sameGroupSetting(app, next, current)) continue;
    if (SETTINGS_REQUIRING_CONTENT_ACCESS.has(name) && !contentAccess()) {
      throw errors.badRequest('Channel content access is required.');
    }
    settings[name] = next;
  }
  const canCreateTopic = settings.can_create_topic_group ?? channel.settings.can_create_topic_group!;

  const proposedPrivate = isPrivate ?? channel.invite_only;
  const proposedWebPublic = isWebPublic ?? channel.is_web_public;
  const proposedDefault = isDefault ?? channel.is_default_stream;
  // Private channels protect their history by default; public ones share it.
  const proposedHistory = history ?? (isPrivate !== undefined ? !isPrivate : channel.history_public_to_subscribers);
  if (proposedWebPublic && (!proposedHistory || proposedPrivate)) throw errors.badRequest('Invalid parameters');
  if (!proposedPrivate && !proposedHistory) throw errors.badRequest('Invalid parameters');
  if (proposedPrivate && proposedDefault) throw errors.badRequest('A default channel cannot be private.');
  if (isPrivate !== undefined) {
    if (!contentAccess()) throw errors.badRequest('Channel content access is required.');
    const setting = isPrivate ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
    if (!hasRealmPermission(app, user, setting)) throw errors.badRequest('Insufficient permission');
  }
  if (isWebPublic === true) {
    if (!webPublicChannelsEnabled(app)) {
      throw errors.badRequest(
        'Web-public channels are not enabled. They need the server setting and spectator access in this organization.',
      );
    }
    if (!hasRealmPermission(app, user, 'can_create_web_public_channel_group')) {
      throw errors.badRequest('Insufficient permission');
    }
  }
  if (isPrivate !== undefined || isWebPublic !== undefined || history !== undefined) {
    if (history !== undefined || isPrivate !== undefined) checkProtectedHistoryTopics(app, proposedHistory, canCreateTopic);
    changes.permission = {
      invite_only: proposedPrivate,
      history_public_to_subscribers: proposedHistory,
      is_web_public: proposedWebPublic,
    };
  } else if (settings.can_create_topic_group !== undefined) {
    checkProtectedHistoryTopics(app, channel.history_public_to_subscribers, canCreateTopic);
  }

  if (isDefault !== undefined) {
    if (!isAdmin(user)) throw errors.badRequest('You do not have permission to change default channels.');
    changes.is_default_stream = isDefault;
  }
  if (retentionRaw !== undefined) {
    if (!isOwner(user)) throw errors.ownerRequired();
    changes.message_retention_days = parseRetentionDays(retentionRaw);
  }
  if (isArchived === true) {
    throw errors.badRequest('Only unarchiving is allowed here; archive a channel with DELETE /streams/{stream_id}.');
  }
  if (isArchived === false) {
    if (!channel.is_archived) throw errors.badRequest('Channel is not currently deactivated');
    if (channel.invite_only && subscriberIds(app, channel.id).length === 0) {
      throw errors.badRequest('Channel is private and have no subscribers');
    }
    changes.unarchive = true;
  }
  if (topicsPolicy !== undefined) {
    if (!canSetTopicsPolicy(app, user)) throw errors.badRequest('Insufficient permission');
    if (topicsPolicy === 'empty_topic_only' && app.channelMessages.hasNamedTopics(channel.id)) {
      throw errors.badRequest(
        'To enable this configuration, all messages in this channel must be in the "general chat" topic. ' +
          'Consider renaming or deleting other topics.',
      );
    }
    changes.topics_policy = topicsPolicy;
  }
  if (description !== undefined) changes.description = checkChannelDescription(description);
  if (newName !== undefined) {
    const name = newName.trim();
    if (name === channel.name) throw errors.badRequest('Channel already has that name.');
    // Changing only the case of the name keeps it available.
    changes.name =
      name.toLowerCase() === channel.name.toLowerCase() ? checkChannelName(name) : checkChannelNameAvailable(app, name);
  }
  if (folderId !== undefined) {
    if (folderId !== null && !app.store.channelFolders.data.folders.some((f) => f.id === folderId)) {
      throw errors.badRequest('Invalid channel folder ID');
    }
    changes.folder_id = folderId;
  }
  if (Object.keys(settings).length > 0) changes.settings = settings;

  await doUpdateChannel(app, channel, changes, user.id);
  return {};
}
