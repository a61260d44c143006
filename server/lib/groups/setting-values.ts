/**
 * Group-setting values as clients send them: parsing (Zulip's
 * parse_group_setting_value), checking against a setting's rules (Zulip's
 * access_user_group_for_setting) and the `{new, old}` update form.
 * Re-exported by server/lib/groups/groups.ts.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { v } from '../../params/validate.js';
import type { GroupSettingValue } from '../../store/channel-records.js';
import { activeUser, groupById, groupSettingForApi, systemGroupId } from './groups.js';

export interface GroupSettingOptions {
  /** Whether role:internet is allowed (default false). */
  allowInternet?: boolean;
  /** Whether role:nobody (and the empty anonymous group) is allowed (default true). */
  allowNobody?: boolean;
  /** Whether role:everyone is allowed (default true). */
  allowEveryone?: boolean;
  /** Only a system group is accepted (no anonymous groups). */
  requireSystemGroup?: boolean;
  /** When set, only these system groups are accepted. */
  allowedSystemGroups?: string[];
}

const sortedUnique = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
const anonymousValidator = v.dict({ direct_members: v.list(v.int), direct_subgroups: v.list(v.int) });

/**
 * The shape of a group-setting value, normalised as Zulip's
 * parse_group_setting_value: anonymous lists sorted and unique; no members
 * and one subgroup becomes that subgroup's ID; an empty anonymous group
 * becomes role:nobody's ID. Checks types only.
 */
export function parseGroupSettingShape(app: App, value: unknown, path: string): GroupSettingValue {
  if (typeof value === 'number') return v.int(value, path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.badRequest(`${path} is not an integer or a dict`);
  }
  const d = anonymousValidator(value, path);
  const members = sortedUnique(d.direct_members);
  const subgroups = sortedUnique(d.direct_subgroups);
  if (members.length === 0 && subgroups.length === 1) return subgroups[0]!;
  if (members.length === 0 && subgroups.length === 0) return systemGroupId(app, 'role:nobody');
  return { direct_members: members, direct_subgroups: subgroups };
}

function checkSettingGroup(app: App, id: number, settingName: string, opts: GroupSettingOptions): void {
  const g = groupById(app, id);
  if (!g) throw errors.badRequest('Invalid user group');
  if (g.deactivated) throw errors.badRequest('User group is deactivated.');
  if (opts.requireSystemGroup && !g.is_system_group) {
    throw errors.badRequest(`'${settingName}' must be a system user group.`);
  }
  const refuse = (name: string) => errors.badRequest(`'${settingName}' setting cannot be set to '${name}' group.`);
  if (!g.is_system_group) return;
  if (g.name === 'role:internet' && !(opts.allowInternet ?? false)) throw refuse(g.name);
  if (g.name === 'role:nobody' && !(opts.allowNobody ?? true)) throw refuse(g.name);
  if (g.name === 'role:everyone' && !(opts.allowEveryone ?? true)) throw refuse(g.name);
  if (opts.allowedSystemGroups && !opts.allowedSystemGroups.includes(g.name)) throw refuse(g.name);
}

/**
 * Parses and checks a JSON-decoded group-setting value for `settingName`:
 * a group ID must name an active group allowed for the setting ("Invalid user
 * group", "User group is deactivated.", "'x' setting cannot be set to
 * 'role:internet' group."); an anonymous group's members must be active users
 * ("Invalid user ID: N") and its subgroups active groups ("Invalid user group
 * ID: N"). Returns the normalised value (see parseGroupSettingShape).
 */
export function validateGroupSettingValue(
  app: App,
  value: unknown,
  settingName: string,
  opts: GroupSettingOptions = {},
): GroupSettingValue {
  const parsed = parseGroupSettingShape(app, value, settingName);
  if (typeof parsed === 'number') {
    checkSettingGroup(app, parsed, settingName, opts);
    return parsed;
  }
  if (opts.requireSystemGroup) throw errors.badRequest(`'${settingName}' must be a system user group.`);
  for (const id of parsed.direct_members) {
    if (!activeUser(app, id)) throw errors.badRequest(`Invalid user ID: ${id}`);
  }
  for (const id of parsed.direct_subgroups) {
    const g = groupById(app, id);
    if (!g) throw errors.badRequest(`Invalid user group ID: ${id}`);
    if (g.deactivated) throw errors.badRequest('User group is deactivated.');
  }
  return parsed;
}

/** Whether two values are the same setting as clients see it (Zulip's are_both_group_setting_values_equal). */
export function sameGroupSetting(app: App, a: GroupSettingValue, b: GroupSettingValue): boolean {
  const x = collapse(app, groupSettingForApi(a, app));
  const y = collapse(app, groupSettingForApi(b, app));
  if (typeof x === 'number' || typeof y === 'number') return x === y;
  return (
    x.direct_members.join() === y.direct_members.join() && x.direct_subgroups.join() === y.direct_subgroups.join()
  );
}

const collapse = (app: App, value: GroupSettingValue) =>
  typeof value === 'number' ? value : parseGroupSettingShape(app, value, 'value');

const updateValidator = v.dict({ new: (x: unknown) => x }, { old: (x: unknown) => x });

/**
 * The `{new, old}` form of a setting update. A given `old` must equal the
 * current value, else "'old' value does not match the expected value.". When
 * `new` equals the current value the current value is returned unchanged (no
 * further checks, as Zulip); otherwise the validated new value. Compare the
 * result with sameGroupSetting to know whether anything changes.
 */
export function parseGroupSettingUpdate(
  app: App,
  raw: unknown,
  current: GroupSettingValue,
  settingName: string,
  opts: GroupSettingOptions = {},
): GroupSettingValue {
  const d = updateValidator(raw, settingName);
  const next = parseGroupSettingShape(app, d.new, `${settingName}["new"]`);
  if (d.old !== undefined && d.old !== null) {
    const old = parseGroupSettingShape(app, d.old, `${settingName}["old"]`);
    if (!sameGroupSetting(app, old, current)) throw errors.badRequest("'old' value does not match the expected value.");
  }
  if (sameGroupSetting(app, next, current)) return current;
  return validateGroupSettingValue(app, next, settingName, opts);
}
