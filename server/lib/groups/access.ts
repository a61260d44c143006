/**
 * Who may do what with named user groups (Zulip's access_user_group_* and
 * require_member_or_admin), name rules, the per-setting configuration of a
 * group's own permission settings, and the deactivation objections.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { GroupSettingValue, UserGroupRecord } from '../../store/channel-records.js';
import { ROLE, type UserRecord } from '../../store/records.js';
import { LIMITS } from '../../version.js';
import {
  groupById,
  groupSettingUsesGroup,
  isUserInGroupSetting,
  realmGroupSetting,
  systemGroupId,
  USER_GROUP_SETTING_NAMES,
  type UserGroupSettingName,
} from './groups.js';
import type { GroupSettingOptions } from './setting-values.js';

interface GroupSettingConfig {
  options: GroupSettingOptions;
  /** Zulip's allow_everyone_group: whether guests can hold it. */
  allowGuests: boolean;
  /** Default for a new named group: a system group, or an anonymous group of the creator. */
  defaultGroup: 'group_creator' | 'role:nobody' | 'role:everyone';
}

/** Zulip's NamedUserGroup.GROUP_PERMISSION_SETTINGS (system groups default every one to role:nobody). */
export const GROUP_SETTING_CONFIG: Record<UserGroupSettingName, GroupSettingConfig> = {
  can_add_members_group: {
    options: { allowInternet: false, allowNobody: true, allowEveryone: false },
    allowGuests: false,
    defaultGroup: 'group_creator',
  },
  can_join_group: {
    options: { allowInternet: false, allowNobody: true, allowEveryone: false },
    allowGuests: false,
    defaultGroup: 'role:nobody',
  },
  can_leave_group: {
    options: { allowInternet: false, allowNobody: true, allowEveryone: true },
    allowGuests: true,
    defaultGroup: 'role:everyone',
  },
  can_manage_group: {
    options: { allowInternet: false, allowNobody: true, allowEveryone: false },
    allowGuests: false,
    defaultGroup: 'group_creator',
  },
  can_mention_group: {
    options: { allowInternet: false, allowNobody: true, allowEveryone: true },
    allowGuests: true,
    defaultGroup: 'role:everyone',
  },
  can_remove_members_group: {
    options: { allowInternet: false, allowNobody: true, allowEveryone: false },
    allowGuests: false,
    defaultGroup: 'role:nobody',
  },
};

/** The settings of a new named group, for those the request did not give. */
export function defaultGroupSettings(app: App, creatorId: number): Record<UserGroupSettingName, GroupSettingValue> {
  const out = {} as Record<UserGroupSettingName, GroupSettingValue>;
  for (const name of USER_GROUP_SETTING_NAMES) {
    const d = GROUP_SETTING_CONFIG[name].defaultGroup;
    out[name] = d === 'group_creator' ? { direct_members: [creatorId], direct_subgroups: [] } : systemGroupId(app, d);
  }
  return out;
}

/** Zulip's require_member_or_admin: no guests, no bots. */
export function requireMemberOrAdmin(user: UserRecord): void {
  if (user.role === ROLE.GUEST) throw errors.badRequest('Not allowed for guest users');
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
}

const holdsRealmSetting = (app: App, user: UserRecord, name: 'can_create_groups' | 'can_manage_all_groups') =>
  user.role !== ROLE.GUEST && isUserInGroupSetting(app, realmGroupSetting(app, name), user.id);

export const canCreateGroups = (app: App, user: UserRecord) => holdsRealmSetting(app, user, 'can_create_groups');
export const canManageAllGroups = (app: App, user: UserRecord) => holdsRealmSetting(app, user, 'can_manage_all_groups');

/** Whether the user holds one of a group's own permission settings (guests only where allowed). */
export function holdsGroupSetting(app: App, user: UserRecord, group: UserGroupRecord, name: UserGroupSettingName): boolean {
  const value = group.settings[name];
  if (value === undefined) return false;
  return isUserInGroupSetting(app, value, user.id, { allowGuests: GROUP_SETTING_CONFIG[name].allowGuests });
}

/** A group by ID for reading its membership: "Invalid user group"; deactivated ones refused unless allowed. */
export function accessGroup(app: App, groupId: number, allowDeactivated = false): UserGroupRecord {
  const group = groupById(app, groupId);
  if (!group) throw errors.badRequest('Invalid user group');
  if (group.deactivated && !allowDeactivated) throw errors.badRequest('User group is deactivated.');
  return group;
}

/**
 * Zulip's access_user_group_for_update: system groups are never edited;
 * can_manage_all_groups and the group's can_manage_group allow everything;
 * otherwise the named permission decides. "Insufficient permission" otherwise.
 */
export function accessGroupForUpdate(
  app: App,
  user: UserRecord,
  groupId: number,
  permission: UserGroupSettingName,
  allowDeactivated = false,
): UserGroupRecord {
  const group = accessGroup(app, groupId, allowDeactivated);
  if (group.is_system_group) throw errors.badRequest('Insufficient permission');
  if (canManageAllGroups(app, user) || holdsGroupSetting(app, user, group, 'can_manage_group')) return group;
  if (permission !== 'can_manage_group' && holdsGroupSetting(app, user, group, permission)) return group;
  throw errors.badRequest('Insufficient permission');
}

/** Joining or leaving oneself: the join/leave permission, else the add/remove-members one. */
export function accessGroupForSelf(
  app: App,
  user: UserRecord,
  groupId: number,
  own: UserGroupSettingName,
  fallback: UserGroupSettingName,
): UserGroupRecord {
  try {
    return accessGroupForUpdate(app, user, groupId, own, true);
  } catch {
    return accessGroupForUpdate(app, user, groupId, fallback, true);
  }
}

const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** Zulip's check_user_group_name. */
export function checkGroupName(name: string): string {
  if (name.trim() === '') throw errors.badRequest("User group name can't be empty!");
  if ([...name].length > LIMITS.max_user_group_name_length) {
    throw errors.badRequest(`User group name cannot exceed ${LIMITS.max_user_group_name_length} characters.`);
  }
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) throw errors.badRequest(`User group name cannot start with '${prefix}'.`);
  return name;
}

/** Names are unique among all of the organization's groups, deactivated ones included (Zulip's constraint). */
export function checkGroupNameFree(app: App, name: string, exceptId?: number): void {
  if (app.store.groups.data.groups.some((g) => g.name === name && g.id !== exceptId)) {
    throw errors.badRequest(`User group '${name}' already exists.`);
  }
}

export type Objection =
  | { type: 'subgroup'; supergroup_ids: number[] }
  | { type: 'channel'; channel_id: number; settings: string[] }
  | { type: 'user_group'; group_id: number; settings: string[] }
  | { type: 'realm'; settings: string[] };

const isSettingValue = (x: unknown): x is GroupSettingValue =>
  typeof x === 'number' || (typeof x === 'object' && x !== null && 'direct_subgroups' in x);

function settingsUsing(settings: Record<string, unknown>, groupId: number): string[] {
  return Object.entries(settings)
    .filter(([name, value]) => name.endsWith('_group') && isSettingValue(value) && groupSettingUsesGroup(value, groupId))
    .map(([name]) => name);
}

/**
 * Why a group cannot be deactivated (Zulip's CANNOT_DEACTIVATE_GROUP_IN_USE):
 * it is a subgroup of an active group, or a setting of an active channel, an
 * active group or the organization uses it (directly or inside an anonymous group).
 */
export function deactivationObjections(app: App, group: UserGroupRecord): Objection[] {
  const out: Objection[] = [];
  const supergroups = app.store.groups.data.groups
    .filter((g) => !g.deactivated && g.subgroups.includes(group.id))
    .map((g) => g.id)
    .sort((a, b) => a - b);
  if (supergroups.length) out.push({ type: 'subgroup', supergroup_ids: supergroups });
  for (const c of app.store.channels.data.channels) {
    const settings = c.is_archived ? [] : settingsUsing(c.settings, group.id);
    if (settings.length) out.push({ type: 'channel', channel_id: c.id, settings });
  }
  for (const g of app.store.groups.data.groups) {
    const settings = g.deactivated ? [] : settingsUsing(g.settings, group.id);
    if (settings.length) out.push({ type: 'user_group', group_id: g.id, settings });
  }
  const realmSettings = settingsUsing({ ...app.store.realm.data.realm?.settings }, group.id);
  if (realmSettings.length) out.push({ type: 'realm', settings: realmSettings });
  return out;
}
