import { unixSeconds } from '../clock.js';
import type { App } from '../context.js';
import type { EventOf } from '../events/types.js';
import { emitChannelAccessDiff, snapshotChannelAccess } from './channel-access-diff.js';
import {
  groupMemberIds,
  groupSettingForApi,
  SYSTEM_GROUP_INFO,
  SYSTEM_GROUP_NAMES,
  USER_GROUP_SETTING_NAMES,
  type UserGroupSettingName,
} from '../lib/groups/groups.js';
import { formatUserGroup, groupEventRecipients } from '../lib/groups/format.js';
import type { GroupSettingValue, UserGroupRecord } from '../store/channel-records.js';
import { commit, type Transaction } from './commit.js';

/**
 * Creates whichever system groups are missing (all eight for a new
 * organization), with their subgroup chain and every setting `role:nobody`.
 * Mutates in memory and touches the collection: call it inside a commit
 * (doCreateRealm, doEnsureSystemGroups at startup). Returns whether anything changed.
 */
export function ensureSystemGroups(app: App, tx: Transaction): boolean {
  const doc = app.store.groups.data;
  const byName = new Map(doc.groups.filter((g) => g.is_system_group).map((g) => [g.name, g]));
  if (SYSTEM_GROUP_NAMES.every((n) => byName.has(n))) return false;
  const taken = new Set(doc.groups.map((g) => g.id));
  SYSTEM_GROUP_NAMES.forEach((name, i) => {
    if (byName.has(name)) return;
    // Fresh stores get IDs 1..8 in Zulip's order; an ID already in use falls back to the next free one.
    let id = i + 1;
    if (taken.has(id)) for (id = Math.max(doc.nextId, 1); taken.has(id); id++);
    taken.add(id);
    const group: UserGroupRecord = {
      id,
      name,
      description: SYSTEM_GROUP_INFO[name].description,
      creator_id: null,
      date_created: null,
      members: [],
      subgroups: [],
      is_system_group: true,
      deactivated: false,
      settings: {},
    };
    doc.groups.push(group);
    byName.set(name, group);
  });
  doc.nextId = Math.max(doc.nextId, ...doc.groups.map((g) => g.id + 1));
  const nobody = byName.get('role:nobody')!.id;
  for (const name of SYSTEM_GROUP_NAMES) {
    const g = byName.get(name)!;
    const sub = SYSTEM_GROUP_INFO[name].subgroup;
    if (sub && !g.subgroups.includes(byName.get(sub)!.id)) g.subgroups.push(byName.get(sub)!.id);
    for (const setting of USER_GROUP_SETTING_NAMES) g.settings[setting] ??= nobody;
  }
  doc.groups.sort((a, b) => a.id - b.id);
  tx.touch(app.store.groups);
  return true;
}

/**
 * Startup step for stores whose organization predates user groups: creates
 * the missing system groups (a no-op otherwise, and before an organization exists).
 */
export async function doEnsureSystemGroups(app: App): Promise<boolean> {
  if (app.store.realm.data.realm === null) return false;
  const present = new Set(app.store.groups.data.groups.filter((g) => g.is_system_group).map((g) => g.name));
  if (SYSTEM_GROUP_NAMES.every((n) => present.has(n))) return false;
  return commit(app, (tx) => ensureSystemGroups(app, tx));
}

const byId = (a: number, b: number) => a - b;

/** A `user_group` event without its type (each op's own fields). */
type GroupEventBody = EventOf<'user_group'> extends infer E ? (E extends unknown ? Omit<E, 'type'> : never) : never;

function emit(app: App, tx: Transaction, event: GroupEventBody): void {
  tx.emit({ type: 'user_group', ...event }, groupEventRecipients(app));
}

export interface NewUserGroup {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  settings: Record<UserGroupSettingName, GroupSettingValue>;
  creatorId: number;
}

/** Creates a named group: `add` (without subgroups), then `add_subgroups`, as Zulip sends them. */
export async function doCreateUserGroup(app: App, input: NewUserGroup): Promise<UserGroupRecord> {
  return commit(app, (tx) => {
    const doc = app.store.groups.data;
    const group: UserGroupRecord = {
      id: doc.nextId++,
      name: input.name,
      description: input.description,
      creator_id: input.creatorId,
      date_created: unixSeconds(app.clock),
      members: [...new Set(input.members)].sort(byId),
      subgroups: [],
      is_system_group: false,
      deactivated: false,
      settings: { ...input.settings },
    };
    doc.groups.push(group);
    tx.touch(app.store.groups);
    emit(app, tx, { op: 'add', group: formatUserGroup(app, group) });
    const subgroups = [...new Set(input.subgroups)].sort(byId);
    if (subgroups.length) {
      group.subgroups = subgroups;
      emit(app, tx, { op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: subgroups });
    }
    return group;
  });
}

export interface UserGroupChanges {
  name?: string;
  description?: string;
  reactivate?: boolean;
  settings?: Partial<Record<UserGroupSettingName, GroupSettingValue>>;
}

/**
 * PATCH /user_groups/{id}: one `update` event per changed field, in Zulip's
 * order (name, description, reactivation, settings). Reactivation is an
 * update for clients that handle deactivated groups and an `add` for the rest.
 */
export async function doUpdateUserGroup(app: App, group: UserGroupRecord, changes: UserGroupChanges): Promise<void> {
  await commit(app, (tx) => {
    tx.touch(app.store.groups);
    const update = (data: Record<string, unknown>, extra: { group_deactivated?: boolean } = {}) =>
      emit(app, tx, { op: 'update', group_id: group.id, data, ...extra });
    if (changes.name !== undefined) {
      group.name = changes.name;
      update({ name: changes.name }, { group_deactivated: group.deactivated });
    }
    if (changes.description !== undefined) {
      group.description = changes.description;
      update({ description: changes.description });
    }
    if (changes.reactivate && group.deactivated) {
      group.deactivated = false;
      update({ deactivated: false });
      emit(app, tx, { op: 'add', group: formatUserGroup(app, group), for_reactivation: true });
    }
    for (const [name, value] of Object.entries(changes.settings ?? {})) {
      group.settings[name] = value;
      update({ [name]: groupSettingForApi(value, app) });
    }
  });
}

/** Deactivation: `update` {deactivated: true} for capable clients, `remove` for the others. */
export async function doDeactivateUserGroup(app: App, group: UserGroupRecord): Promise<void> {
  await commit(app, (tx) => {
    group.deactivated = true;
    tx.touch(app.store.groups);
    emit(app, tx, { op: 'update', group_id: group.id, data: { deactivated: true } });
    emit(app, tx, { op: 'remove', group_id: group.id });
  });
}

export interface MembershipChanges {
  addMembers: number[];
  removeMembers: number[];
  addSubgroups: number[];
  removeSubgroups: number[];
}

/** The users whose membership of some group moves: those added or removed, and the members of subgroups added or removed. */
function affectedUsers(app: App, ch: MembershipChanges): Set<number> {
  const ids = new Set([...ch.addMembers, ...ch.removeMembers]);
  for (const g of [...ch.addSubgroups, ...ch.removeSubgroups]) for (const id of groupMemberIds(app, g)) ids.add(id);
  return ids;
}

/**
 * Members and subgroups in and out, in that order, one event per non-empty
 * part; then the channel visibility this moved (a group used in a channel's
 * `can_*` settings): `stream` create/delete to the users who gained or lost it.
 */
export async function doUpdateGroupMembership(app: App, group: UserGroupRecord, ch: MembershipChanges): Promise<void> {
  await commit(app, (tx) => {
    const access = snapshotChannelAccess(app, affectedUsers(app, ch));
    tx.touch(app.store.groups);
    const add = [...new Set(ch.addMembers)].sort(byId);
    if (add.length) {
      group.members = [...new Set([...group.members, ...add])].sort(byId);
      emit(app, tx, { op: 'add_members', group_id: group.id, user_ids: add });
    }
    const remove = [...new Set(ch.removeMembers)].sort(byId);
    if (remove.length) {
      group.members = group.members.filter((id) => !remove.includes(id));
      emit(app, tx, { op: 'remove_members', group_id: group.id, user_ids: remove });
    }
    const addSub = [...new Set(ch.addSubgroups)].sort(byId);
    if (addSub.length) {
      group.subgroups = [...new Set([...group.subgroups, ...addSub])].sort(byId);
      emit(app, tx, { op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: addSub });
    }
    const removeSub = [...new Set(ch.removeSubgroups)].sort(byId);
    if (removeSub.length) {
      group.subgroups = group.subgroups.filter((id) => !removeSub.includes(id));
      emit(app, tx, { op: 'remove_subgroups', group_id: group.id, direct_subgroup_ids: removeSub });
    }
    emitChannelAccessDiff(app, tx, access);
  });
}
