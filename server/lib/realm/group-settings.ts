/**
 * The organization's group-setting permissions (who may create channels, groups, ...) as
 * entries of the PATCH /realm table: sent in Zulip's `{"new": ..., "old": ...}` form, checked
 * like every group setting, announced as `realm` `update_dict`. Their register fields come from
 * the channels and groups areas' sections, so the entries carry no register key.
 */
import { groupSettingForApi, realmGroupSetting as realmUserGroupSetting } from '../groups/groups.js';
import { parseGroupSettingUpdate, type GroupSettingOptions } from '../groups/setting-values.js';
import { REALM_CHANNEL_SETTING_DEFAULTS, realmGroupSetting as realmChannelSetting } from '../channels/settings.js';
import { REALM_GROUP_SETTING_DEFAULTS } from '../groups/groups.js';
import { decodeJson } from '../../params/params.js';
import type { RealmSettings } from '../../store/records.js';
import type { GroupSettingValue } from '../../store/channel-records.js';
import type { App } from '../../context.js';
import type { RealmSetting } from './setting-definition.js';

/** Settings only an owner may change (Zulip: the group-management permissions). */
const OWNER_ONLY: ReadonlySet<string> = new Set(['can_create_groups', 'can_manage_all_groups']);

/** Per-setting limits on the groups allowed (nobody may grant a permission to logged-out visitors). */
const OPTIONS: Record<string, GroupSettingOptions> = {
  can_create_web_public_channel_group: {
    allowedSystemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  },
  // Zulip: everyone, or members only (guests then see just the people they share channels or DMs with).
  can_access_all_users_group: {
    requireSystemGroup: true,
    allowedSystemGroups: ['role:everyone', 'role:members'],
  },
};

function entry(name: string, current: (app: App) => GroupSettingValue): RealmSetting {
  const setting: RealmSetting<GroupSettingValue> = {
    name,
    type: { read: (raw, param) => decodeJson(raw, param) as GroupSettingValue },
    who: OWNER_ONLY.has(name) ? 'owner' : 'admin',
    stored: { in: 'settings', key: name as keyof RealmSettings & string },
    fallback: 0,
    current,
    validate: (raw, app, now) =>
      parseGroupSettingUpdate(app, raw, now, name, { allowInternet: false, ...OPTIONS[name] }),
    forApi: (value, app) => groupSettingForApi(value, app),
    event: 'update_dict',
    registerKey: null,
  };
  return setting as unknown as RealmSetting;
}

export const REALM_GROUP_SETTINGS: RealmSetting[] = [
  ...(Object.keys(REALM_CHANNEL_SETTING_DEFAULTS) as (keyof typeof REALM_CHANNEL_SETTING_DEFAULTS)[]).map((name) =>
    entry(name, (app) => realmChannelSetting(app, name)),
  ),
  ...(Object.keys(REALM_GROUP_SETTING_DEFAULTS) as (keyof typeof REALM_GROUP_SETTING_DEFAULTS)[]).map((name) =>
    entry(name, (app) => realmUserGroupSetting(app, name)),
  ),
];
