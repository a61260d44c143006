import { doUpdateGroupMembership, type MembershipChanges } from '../actions/user-groups.js';
import type { ApiRequest, App, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { directMemberIds, groupMemberIds, isUserInGroup, recursiveSubgroupIds } from '../lib/groups/groups.js';
import { accessGroup, accessGroupForSelf, accessGroupForUpdate, requireMemberOrAdmin } from '../lib/groups/access.js';
import type { UserGroupRecord } from '../store/channel-records.js';
import type { UserRecord } from '../store/records.js';
import { pathInt } from './common.js';
import { requireUser } from '../lib/people/require.js';
import { checkActiveUsers, checkSubgroups, intList } from './user-groups.js';

interface Plan {
  group: UserGroupRecord | null;
  changes: MembershipChanges;
}

const emptyPlan = (): Plan => ({
  group: null,
  changes: { addMembers: [], removeMembers: [], addSubgroups: [], removeSubgroups: [] },
});

const isSelf = (user: UserRecord, ids: number[]) => ids.length === 1 && ids[0] === user.id;

/** Zulip's add_members_to_group_backend: joining oneself needs can_join_group (or the add permission). */
function planAddMembers(app: App, user: UserRecord, groupId: number, ids: number[], plan: Plan): void {
  const group = isSelf(user, ids)
    ? accessGroupForSelf(app, user, groupId, 'can_join_group', 'can_add_members_group')
    : accessGroupForUpdate(app, user, groupId, 'can_add_members_group', true);
  const users = checkActiveUsers(app, ids);
  for (const id of users) {
    if (group.members.includes(id)) throw errors.badRequest(`User ${id} is already a member of this group`);
  }
  plan.group = group;
  plan.changes.addMembers = users;
}

/** Zulip's remove_members_from_group_backend: leaving oneself needs can_leave_group (or the remove permission). */
function planRemoveMembers(app: App, user: UserRecord, groupId: number, ids: number[], plan: Plan): void {
  const users = checkActiveUsers(app, ids);
  const group = isSelf(user, ids)
    ? accessGroupForSelf(app, user, groupId, 'can_leave_group', 'can_remove_members_group')
    : accessGroupForUpdate(app, user, groupId, 'can_remove_members_group', true);
  const current = new Set([...directMemberIds(app, group), ...plan.changes.addMembers]);
  for (const id of ids) {
    if (!current.has(id)) throw errors.badRequest(`There is no member '${id}' in this user group`);
  }
  plan.group = group;
  plan.changes.removeMembers = users;
}

/** Subgroups in: must exist and be active, not be subgroups yet, and not make a cycle. */
function planAddSubgroups(app: App, user: UserRecord, groupId: number, ids: number[], plan: Plan): void {
  const group = accessGroupForUpdate(app, user, groupId, 'can_add_members_group', true);
  const subgroups = checkSubgroups(app, ids);
  for (const id of subgroups) {
    if (group.subgroups.includes(id)) {
      throw errors.badRequest(`User group ${id} is already a subgroup of this group.`);
    }
  }
  const below = new Set([...subgroups, ...subgroups.flatMap((id) => recursiveSubgroupIds(app, id))]);
  if (below.has(group.id)) {
    throw errors.badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
  }
  plan.group = group;
  plan.changes.addSubgroups = subgroups;
}

/** Subgroups out: Zulip asks for can_manage_group here. */
function planRemoveSubgroups(app: App, user: UserRecord, groupId: number, ids: number[], plan: Plan): void {
  const group = accessGroupForUpdate(app, user, groupId, 'can_manage_group', true);
  const subgroups = checkSubgroups(app, ids);
  const current = new Set([...group.subgroups, ...plan.changes.addSubgroups]);
  for (const id of subgroups) {
    if (!current.has(id)) throw errors.badRequest(`User group ${id} is not a subgroup of this group.`);
  }
  plan.group = group;
  plan.changes.removeSubgroups = subgroups;
}

async function apply(app: App, plan: Plan): Promise<ViewResult> {
  if (plan.group) await doUpdateGroupMembership(app, plan.group, plan.changes);
  return {};
}

/** POST /user_groups/{user_group_id}/members: add, delete, add_subgroups, delete_subgroups, all or nothing. */
export async function updateGroupMembers(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const groupId = pathInt(req, 'user_group_id');
  requireMemberOrAdmin(user);
  const add = params.get('add', intList, []);
  const del = params.get('delete', intList, []);
  const addSub = params.get('add_subgroups', intList, []);
  const delSub = params.get('delete_subgroups', intList, []);
  if (!add.length && !del.length && !addSub.length && !delSub.length) {
    throw errors.badRequest(
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
  }
  const plan = emptyPlan();
  if (add.length) planAddMembers(app, user, groupId, add, plan);
  if (del.length) planRemoveMembers(app, user, groupId, del, plan);
  if (addSub.length) planAddSubgroups(app, user, groupId, addSub, plan);
  if (delSub.length) planRemoveSubgroups(app, user, groupId, delSub, plan);
  return apply(app, plan);
}

/** POST /user_groups/{user_group_id}/subgroups: add, delete. */
export async function updateGroupSubgroups(req: ApiRequest): Promise<ViewResult> {
  const { app, params } = req;
  const user = requireUser(req);
  const groupId = pathInt(req, 'user_group_id');
  requireMemberOrAdmin(user);
  const add = params.get('add', intList, []);
  const del = params.get('delete', intList, []);
  if (!add.length && !del.length) throw errors.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  const plan = emptyPlan();
  if (add.length) planAddSubgroups(app, user, groupId, add, plan);
  if (del.length) planRemoveSubgroups(app, user, groupId, del, plan);
  return apply(app, plan);
}

function readableGroup(req: ApiRequest): UserGroupRecord {
  requireMemberOrAdmin(requireUser(req));
  return accessGroup(req.app, pathInt(req, 'user_group_id'));
}

/** GET /user_groups/{user_group_id}/members */
export function getGroupMembers(req: ApiRequest): ViewResult {
  const group = readableGroup(req);
  const direct = req.params.get('direct_member_only', t.bool, false);
  return { members: direct ? directMemberIds(req.app, group) : groupMemberIds(req.app, group.id) };
}

/** GET /user_groups/{user_group_id}/members/{user_id} */
export function getIsGroupMember(req: ApiRequest): ViewResult {
  const group = readableGroup(req);
  const target = req.app.store.users.get(pathInt(req, 'user_id'));
  // Bots can be members too (Zulip 12, feature level 458).
  if (!target) throw errors.badRequest('No such user');
  if (!target.is_active) throw errors.badRequest('User is deactivated');
  const direct = req.params.get('direct_member_only', t.bool, false);
  const member = direct ? directMemberIds(req.app, group).includes(target.id) : isUserInGroup(req.app, group.id, target.id);
  return { is_user_group_member: member };
}

/** GET /user_groups/{user_group_id}/subgroups */
export function getGroupSubgroups(req: ApiRequest): ViewResult {
  const group = readableGroup(req);
  const direct = req.params.get('direct_subgroup_only', t.bool, false);
  return { subgroups: direct ? [...group.subgroups].sort((a, b) => a - b) : recursiveSubgroupIds(req.app, group.id) };
}
