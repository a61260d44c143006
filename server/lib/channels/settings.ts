/**
 * The channel permission settings (Zulip's Stream.stream_permission_group_settings)
 * and the organization-level settings the channels area consults, with Zulip's
 * defaults. Values are group-setting values resolved through server/lib/groups/groups.ts.
 */
import type { App } from '../../context.js';
import type { GroupSettingValue } from '../../store/channel-records.js';
import type { RealmSettings, UserRecord } from '../../store/records.js';
import { isUserInGroupSetting, systemGroupId, type SystemGroupName } from '../groups/groups.js';
import { isAdmin, isGuest } from '../people/people.js';

export interface ChannelSettingSpec {
  /** System group name of the default; `channel_creator` is an anonymous group of the creator. */
  defaultGroup: SystemGroupName | 'channel_creator';
  /** Whether `role:everyone` (which includes guests) is an allowed value. */
  allowEveryone: boolean;
}

/** The eleven channel permission settings, in Zulip's order. */
export const CHANNEL_SETTINGS: Record<string, ChannelSettingSpec> = {
  can_add_subscribers_group: { defaultGroup: 'role:nobody', allowEveryone: false },
  can_administer_channel_group: { defaultGroup: 'channel_creator', allowEveryone: false },
  can_create_topic_group: { defaultGroup: 'role:everyone', allowEveryone: true },
  can_delete_any_message_group: { defaultGroup: 'role:nobody', allowEveryone: true },
  can_delete_own_message_group: { defaultGroup: 'role:nobody', allowEveryone: true },
  can_move_messages_out_of_channel_group: { defaultGroup: 'role:nobody', allowEveryone: true },
  can_move_messages_within_channel_group: { defaultGroup: 'role:nobody', allowEveryone: true },
  can_remove_subscribers_group: { defaultGroup: 'role:administrators', allowEveryone: true },
  can_send_message_group: { defaultGroup: 'role:everyone', allowEveryone: true },
  can_subscribe_group: { defaultGroup: 'role:nobody', allowEveryone: false },
  can_resolve_topics_group: { defaultGroup: 'role:nobody', allowEveryone: true },
};

export const CHANNEL_SETTING_NAMES = Object.keys(CHANNEL_SETTINGS);

/** Changing these needs content access to the channel (not just metadata access). */
export const SETTINGS_REQUIRING_CONTENT_ACCESS: ReadonlySet<string> = new Set(['can_add_subscribers_group', 'can_subscribe_group']);

/** Membership in these gives metadata access to a private channel (never to guests). */
export const SETTINGS_GRANTING_METADATA_ACCESS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_subscribe_group',
] as const;

/** Changing these to anything but `role:nobody` needs the organization's delete-policy permission. */
export const DELETE_POLICY_SETTINGS: ReadonlySet<string> = new Set(['can_delete_any_message_group', 'can_delete_own_message_group']);

/** A new channel's settings: Zulip's defaults, with the creator administering it. */
export function defaultChannelSettings(app: App, creatorId: number | null): Record<string, GroupSettingValue> {
  const out: Record<string, GroupSettingValue> = {};
  for (const [name, spec] of Object.entries(CHANNEL_SETTINGS)) {
    if (spec.defaultGroup === 'channel_creator') {
      out[name] =
        creatorId === null ? systemGroupId(app, 'role:nobody') : { direct_members: [creatorId], direct_subgroups: [] };
    } else {
      out[name] = systemGroupId(app, spec.defaultGroup);
    }
  }
  return out;
}

/** Organization-level settings used by the channels area, with Zulip's defaults. */
export const REALM_CHANNEL_SETTING_DEFAULTS = {
  can_create_public_channel_group: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:owners',
  can_add_subscribers_group: 'role:members',
  can_set_topics_policy_group: 'role:members',
  can_set_delete_message_policy_group: 'role:moderators',
} as const;

export type RealmChannelSetting = keyof typeof REALM_CHANNEL_SETTING_DEFAULTS;

const realmSettings = (app: App): RealmSettings => app.store.realm.data.realm!.settings;

export function realmGroupSetting(app: App, name: RealmChannelSetting): GroupSettingValue {
  return realmSettings(app)[name] ?? systemGroupId(app, REALM_CHANNEL_SETTING_DEFAULTS[name]);
}

/** Whether the user holds an organization-level channel permission. */
export function hasRealmPermission(app: App, user: UserRecord, name: RealmChannelSetting): boolean {
  // These settings never include guests (Zulip: allow_everyone_group=False), except topics policy.
  if (isGuest(user) && name !== 'can_set_topics_policy_group') return false;
  return isUserInGroupSetting(app, realmGroupSetting(app, name), user.id);
}

/** Zulip's can_set_topics_policy: organization administrators always may. */
export const canSetTopicsPolicy = (app: App, user: UserRecord) =>
  isAdmin(user) || hasRealmPermission(app, user, 'can_set_topics_policy_group');

export const realmTopicsPolicy = (app: App) => realmSettings(app).topics_policy ?? 'allow_empty_topic';
export const realmMessageRetentionDays = (app: App) => realmSettings(app).message_retention_days ?? -1;

/**
 * Web-public channels need the server setting (Zulip's WEB_PUBLIC_STREAMS_ENABLED,
 * `webPublicStreamsEnabled` in the server config) and the organization's spectator access.
 */
export const webPublicChannelsEnabled = (app: App) =>
  app.config.webPublicStreamsEnabled && realmSettings(app).enable_spectator_access;
