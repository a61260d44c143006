/**
 * User groups and group-setting values: the system groups (membership derived
 * from roles), named groups with nested subgroups, and the values of group
 * settings (a group ID, or an anonymous group of direct members and
 * subgroups). The channels area and the user-group views both use this.
 *
 * Membership rules (Zulip's):
 * - role:owners = owners; role:administrators = administrators + owners;
 *   role:moderators = moderators + the above; role:fullmembers = members +
 *   the above (Hearth has no waiting period, so every member is a full
 *   member); role:members = the same users; role:everyone = those plus
 *   guests; role:internet = everyone, and spectators (see
 *   isSpectatorInGroupSetting); role:nobody = no one.
 * - A named group holds its direct members and, recursively, its subgroups'
 *   members. Deactivated groups are still evaluated (a deactivated subgroup
 *   keeps counting), as Zulip does. Deactivated users are never members.
 * - Cycles cannot be created through the API, but every walk is cycle-safe.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import type { GroupSettingValue, UserGroupRecord } from '../../store/channel-records.js';
import { ROLE, type Role, type UserRecord } from '../../store/records.js';

/** In Zulip's creation order, which is also their stable IDs in a fresh store (1..8). */
export const SYSTEM_GROUP_NAMES = [
  'role:nobody',
  'role:owners',
  'role:administrators',
  'role:moderators',
  'role:fullmembers',
  'role:members',
  'role:everyone',
  'role:internet',
] as const;
export type SystemGroupName = (typeof SYSTEM_GROUP_NAMES)[number];

/** The six settings of a named user group, in Zulip's order. */
export const USER_GROUP_SETTING_NAMES = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type UserGroupSettingName = (typeof USER_GROUP_SETTING_NAMES)[number];

export interface SystemGroupInfo {
  description: string;
  /** Roles whose users are direct members. */
  roles: Role[];
  /** The system group that is this one's direct subgroup. */
  subgroup: SystemGroupName | null;
}

export const SYSTEM_GROUP_INFO: Readonly<Record<SystemGroupName, SystemGroupInfo>> = {
  'role:nobody': { description: 'Nobody', roles: [], subgroup: null },
  'role:owners': { description: 'Owners of this organization', roles: [ROLE.OWNER], subgroup: null },
  'role:administrators': {
    description: 'Administrators of this organization, including owners',
    roles: [ROLE.ADMIN],
    subgroup: 'role:owners',
  },
  'role:moderators': {
    description: 'Moderators of this organization, including administrators',
    roles: [ROLE.MODERATOR],
    subgroup: 'role:administrators',
  },
  'role:fullmembers': {
    description: 'Members of this organization, not including new accounts and guests',
    roles: [ROLE.MEMBER],
    subgroup: 'role:moderators',
  },
  'role:members': {
    description: 'Members of this organization, not including guests',
    roles: [ROLE.MEMBER],
    subgroup: 'role:fullmembers',
  },
  'role:everyone': {
    description: 'Everyone in this organization, including guests',
    roles: [ROLE.GUEST],
    subgroup: 'role:members',
  },
  'role:internet': { description: 'Everyone on the Internet', roles: [], subgroup: 'role:everyone' },
};

const isSystemName = (name: string): name is SystemGroupName => Object.hasOwn(SYSTEM_GROUP_INFO, name);

export const groupById = (app: App, id: number): UserGroupRecord | undefined =>
  app.store.groups.data.groups.find((g) => g.id === id);

/**
 * The ID of a system group, e.g. `systemGroupId(app, 'role:everyone')`. They
 * always exist once there is an organization (doCreateRealm makes them,
 * startup repairs older stores); should the groups file have lost one while
 * the server runs, the request answers a clear 503, never a 500.
 */
export function systemGroupId(app: App, name: SystemGroupName): number {
  const g = app.store.groups.data.groups.find((x) => x.is_system_group && x.name === name);
  if (!g) throw app.store.realm.data.realm === null ? errors.noOrganization() : errors.systemGroupMissing(name);
  return g.id;
}

/**
 * The system groups a user with this role is a direct member of: the role's
 * group, plus role:fullmembers for members (what user creation announces as
 * `add_members`; a role change would remove/add the same way).
 */
export function roleGroupIds(app: App, role: Role): number[] {
  return SYSTEM_GROUP_NAMES.filter((n) => SYSTEM_GROUP_INFO[n].roles.includes(role)).map((n) => systemGroupId(app, n));
}

/** Organization-level user-group permissions (stored in RealmSettings; absent = the default system group). */
export const REALM_GROUP_SETTING_DEFAULTS = {
  can_create_groups: 'role:members',
  /** Zulip's default (Realm.REALM_PERMISSION_GROUP_SETTINGS): owners only; others through a group's can_manage_group. */
  can_manage_all_groups: 'role:owners',
  /** Who sees every user (Zulip: role:everyone, or role:members to limit guests). */
  can_access_all_users_group: 'role:everyone',
  /** Who may authorize a direct message conversation / start one (Zulip 9.0 defaults: everyone). */
  direct_message_permission_group: 'role:everyone',
  direct_message_initiator_group: 'role:everyone',
  /** Who may use wildcard mentions in large channels and topics (Zulip 10 default: administrators). */
  can_mention_many_users_group: 'role:administrators',
  /** Deleting and moving messages (Zulip 10 defaults). */
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_move_messages_between_topics_group: 'role:everyone',
  can_move_messages_between_channels_group: 'role:members',
  can_resolve_topics_group: 'role:everyone',
  /** Who may add custom emoji (Zulip's default: members, not guests). */
  can_add_custom_emoji_group: 'role:members',
  /** Who may create reusable invite links (Zulip's default: administrators). */
  create_multiuse_invite_group: 'role:administrators',
} as const;
export type RealmGroupSetting = keyof typeof REALM_GROUP_SETTING_DEFAULTS;

export function realmGroupSetting(app: App, name: RealmGroupSetting): GroupSettingValue {
  return app.store.realm.data.realm?.settings[name] ?? systemGroupId(app, REALM_GROUP_SETTING_DEFAULTS[name]);
}

export const activeUser = (app: App, id: number): UserRecord | undefined => {
  const u = app.store.users.get(id);
  return u?.is_active ? u : undefined;
};

/** A group's direct members who are active users, ascending (system groups: by role). */
export function directMemberIds(app: App, group: UserGroupRecord): number[] {
  if (group.is_system_group) {
    const roles = isSystemName(group.name) ? SYSTEM_GROUP_INFO[group.name].roles : [];
    return app.store.users
      .all()
      .filter((u) => u.is_active && roles.includes(u.role))
      .map((u) => u.id)
      .sort((a, b) => a - b);
  }
  return [...new Set(group.members)].filter((id) => activeUser(app, id)).sort((a, b) => a - b);
}

function isDirectMember(group: UserGroupRecord, user: UserRecord): boolean {
  if (group.is_system_group) return isSystemName(group.name) && SYSTEM_GROUP_INFO[group.name].roles.includes(user.role);
  return group.members.includes(user.id);
}

/** The group itself and every group below it (cycle-safe), as records. */
function withSubgroups(app: App, groupIds: number[]): UserGroupRecord[] {
  const seen = new Set<number>();
  const out: UserGroupRecord[] = [];
  const stack = [...groupIds];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const g = groupById(app, id);
    if (!g) continue;
    out.push(g);
    stack.push(...g.subgroups);
  }
  return out;
}

/** Every subgroup below a group, recursively, excluding the group itself unless a cycle leads back (ascending). */
export function recursiveSubgroupIds(app: App, groupId: number): number[] {
  const g = groupById(app, groupId);
  if (!g) return [];
  return withSubgroups(app, g.subgroups)
    .map((x) => x.id)
    .sort((a, b) => a - b);
}

/** Whether an (active) user is in a group, directly or through subgroups. */
export function isUserInGroup(app: App, groupId: number, userId: number): boolean {
  const user = activeUser(app, userId);
  if (!user) return false;
  return withSubgroups(app, [groupId]).some((g) => isDirectMember(g, user));
}

/** The active users in a group, directly or through subgroups (ascending). */
export function groupMemberIds(app: App, groupId: number): number[] {
  const ids = new Set<number>();
  for (const g of withSubgroups(app, [groupId])) for (const id of directMemberIds(app, g)) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

export interface SettingCheckOptions {
  /**
   * Whether guests can hold the permission (Zulip's allow_everyone_group): when
   * false a guest never passes, whatever the value (default true).
   */
  allowGuests?: boolean;
}

/** Whether a user holds a group-setting value. */
export function isUserInGroupSetting(
  app: App,
  value: GroupSettingValue,
  userId: number,
  opts: SettingCheckOptions = {},
): boolean {
  const user = activeUser(app, userId);
  if (!user) return false;
  if (opts.allowGuests === false && user.role === ROLE.GUEST) return false;
  if (typeof value === 'number') return isUserInGroup(app, value, userId);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((id) => isUserInGroup(app, id, userId));
}

/** The active users holding a group-setting value (ascending). */
export function groupSettingMemberIds(app: App, value: GroupSettingValue): number[] {
  if (typeof value === 'number') return groupMemberIds(app, value);
  const ids = new Set(value.direct_members.filter((id) => activeUser(app, id)));
  for (const g of value.direct_subgroups) for (const id of groupMemberIds(app, g)) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/** Whether spectators (logged-out visitors) hold the value: it reaches role:internet. */
export function isSpectatorInGroupSetting(app: App, value: GroupSettingValue): boolean {
  const roots = typeof value === 'number' ? [value] : value.direct_subgroups;
  return withSubgroups(app, roots).some((g) => g.is_system_group && g.name === 'role:internet');
}

/** Whether the value names this group, directly or as a subgroup of its anonymous group. */
export const groupSettingUsesGroup = (value: GroupSettingValue, groupId: number): boolean =>
  typeof value === 'number' ? value === groupId : value.direct_subgroups.includes(groupId);

/** How a setting is sent to clients: anonymous groups list active members only (feature level 303), sorted. */
export function groupSettingForApi(value: GroupSettingValue, app: App): GroupSettingValue {
  if (typeof value === 'number') return value;
  return {
    direct_members: [...new Set(value.direct_members)].filter((id) => activeUser(app, id)).sort((a, b) => a - b),
    direct_subgroups: [...new Set(value.direct_subgroups)].sort((a, b) => a - b),
  };
}
