import { doCreateUserGroup, doDeactivateUserGroup, doUpdateUserGroup, type UserGroupChanges } from '../actions/user-groups.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { groupById, systemGroupId, USER_GROUP_SETTING_NAMES, type UserGroupSettingName } from '../lib/groups/groups.js';
import { parseGroupSettingUpdate, sameGroupSetting, validateGroupSettingValue } from '../lib/groups/setting-values.js';
import {
  accessGroupForUpdate,
  canCreateGroups,
  checkGroupName,
  checkGroupNameFree,
  deactivationObjections,
  defaultGroupSettings,
  GROUP_SETTING_CONFIG,
  requireMemberOrAdmin,
} from '../lib/groups/access.js';
import { realmUserGroups } from '../lib/groups/format.js';
import type { GroupSettingValue } from '../store/channel-records.js';
import type { App } from '../context.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';

/** A JSON parameter passed on undecoded-but-parsed, for the group-setting parsers. */
export const anyJson = t.json((x: unknown) => x);
export const intList = t.json(v.list(v.int));

/** Active users only, in the order given: Zulip's user_ids_to_users(allow_deactivated=False). */
export function checkActiveUsers(app: App, ids: number[]): number[] {
  for (const id of ids) {
    if (!app.store.users.get(id)?.is_active) throw errors.badRequest(`Invalid user ID: ${id}`);
  }
  return [...new Set(ids)];
}

/** Groups that may become subgroups: existing ("Invalid user group ID: N") and active. */
export function checkSubgroups(app: App, ids: number[]): number[] {
  for (const id of ids) {
    if (!groupById(app, id)) throw errors.badRequest(`Invalid user group ID: ${id}`);
  }
  if (ids.some((id) => groupById(app, id)!.deactivated)) throw errors.badRequest('User group is deactivated.');
  return [...new Set(ids)];
}

/** GET /user_groups */
export function listUserGroups(req: ApiRequest): ViewResult {
  requireMemberOrAdmin(requireUser(req));
  const include = req.params.get('include_deactivated_groups', t.bool, false);
  return { user_groups: realmUserGroups(req.app, include) };
}

/** POST /user_groups/create */
export async function createUserGroup(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  requireMemberOrAdmin(user);
  if (!canCreateGroups(app, user)) throw errors.badRequest('Insufficient permission');
  const name = params.require('name', t.string);
  const rawMembers = params.require('members', intList);
  const description = params.require('description', t.string);
  const rawSubgroups = params.get('subgroups', intList, []);
  const rawSettings = USER_GROUP_SETTING_NAMES.map((n) => [n, params.get(n, anyJson)] as const);

  const members = checkActiveUsers(app, rawMembers);
  checkGroupName(name);
  const settings = defaultGroupSettings(app, user.id);
  for (const [n, raw] of rawSettings) {
    if (raw !== undefined && raw !== null) {
      settings[n] = validateGroupSettingValue(app, raw, n, GROUP_SETTING_CONFIG[n].options);
    }
  }
  checkGroupNameFree(app, name);
  const subgroups = checkSubgroups(app, rawSubgroups);
  const group = await doCreateUserGroup(app, { name, description, members, subgroups, settings, creatorId: user.id });
  return { group_id: group.id };
}

/** PATCH /user_groups/{user_group_id}: name, description, the six settings as {new, old}, reactivation. */
export async function updateUserGroup(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const groupId = pathInt(req, 'user_group_id');
  requireMemberOrAdmin(user);
  const name = params.get('name', t.string);
  const description = params.get('description', t.string);
  const deactivated = params.get('deactivated', t.bool);
  const rawSettings = USER_GROUP_SETTING_NAMES.map((n) => [n, params.get(n, anyJson)] as const);
  const given = rawSettings.filter(([, raw]) => raw !== undefined && raw !== null);
  if (name === undefined && description === undefined && deactivated === undefined && given.length === 0) {
    throw errors.badRequest('No new data supplied');
  }
  const group = accessGroupForUpdate(app, user, groupId, 'can_manage_group', true);

  const changes: UserGroupChanges = {};
  if (name !== undefined && name !== group.name) {
    checkGroupName(name);
    checkGroupNameFree(app, name, group.id);
    changes.name = name;
  }
  if (description !== undefined && description !== group.description) changes.description = description;
  if (deactivated === false && group.deactivated) changes.reactivate = true;
  const settings: Partial<Record<UserGroupSettingName, GroupSettingValue>> = {};
  for (const [n, raw] of given) {
    const current = group.settings[n] ?? systemGroupId(app, 'role:nobody');
    const next = parseGroupSettingUpdate(app, raw, current, n, GROUP_SETTING_CONFIG[n].options);
    if (!sameGroupSetting(app, next, current)) settings[n] = next;
  }
  if (Object.keys(settings).length) changes.settings = settings;
  if (Object.keys(changes).length) await doUpdateUserGroup(app, group, changes);
  return {};
}

/** POST /user_groups/{user_group_id}/deactivate */
export async function deactivateUserGroup(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const group = accessGroupForUpdate(req.app, user, pathInt(req, 'user_group_id'), 'can_manage_group');
  const objections = deactivationObjections(req.app, group);
  if (objections.length) {
    throw errors.groupInUse(objections);
  }
  await doDeactivateUserGroup(req.app, group);
  return {};
}
