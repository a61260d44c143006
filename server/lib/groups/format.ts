/**
 * User groups as clients see them (the OpenAPI UserGroup object), the
 * `realm_user_groups` list, and who hears about group changes (the per-queue
 * shaping of `user_group` events: server/register/user-groups.ts).
 */
import type { App } from '../../context.js';
import type { UserGroupRecord } from '../../store/channel-records.js';
import type { GroupSettingValue, UserGroup } from '../../protocol/user-group.js';
import { directMemberIds, groupSettingForApi, systemGroupId, USER_GROUP_SETTING_NAMES, type UserGroupSettingName } from './groups.js';

export function formatUserGroup(app: App, g: UserGroupRecord): UserGroup {
  const settings = Object.fromEntries(
    USER_GROUP_SETTING_NAMES.map((name) => [name, groupSettingForApi(g.settings[name] ?? systemGroupId(app, 'role:nobody'), app)]),
  ) as Record<UserGroupSettingName, GroupSettingValue>;
  return {
    id: g.id,
    name: g.name,
    creator_id: g.creator_id,
    date_created: g.date_created,
    description: g.description,
    members: directMemberIds(app, g),
    direct_subgroup_ids: [...new Set(g.subgroups)].sort((a, b) => a - b),
    is_system_group: g.is_system_group,
    ...settings,
    deactivated: g.deactivated,
  };
}

/** Every group (system groups included), by ID; deactivated ones only when asked for. */
export function realmUserGroups(app: App, includeDeactivated: boolean): UserGroup[] {
  return app.store.groups.data.groups
    .filter((g) => includeDeactivated || !g.deactivated)
    .sort((a, b) => a.id - b.id)
    .map((g) => formatUserGroup(app, g));
}

/** Who hears about group changes: every active user (Zulip's active_user_ids). */
export const groupEventRecipients = (app: App): number[] =>
  app.store.users
    .all()
    .filter((u) => u.is_active)
    .map((u) => u.id);
