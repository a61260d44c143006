/**
 * Deactivated users hold no permissions (Zulip, feature level 303+): on
 * deactivation they leave every anonymous group-setting value that names them
 * directly — organization, user-group and channel settings — and clients hear
 * each changed value (`realm` update_dict, `user_group` update, `stream`
 * update), so a later reactivation does not silently give the permission back.
 */
import type { App } from '../context.js';
import { emitStreamPropertyUpdate } from './channel-events.js';
import { groupSettingForApi } from '../lib/groups/groups.js';
import { activeUsers } from '../lib/people/people.js';
import type { GroupSettingValue } from '../store/channel-records.js';
import type { Transaction } from './commit.js';

type Anonymous = Exclude<GroupSettingValue, number>;

const isAnonymous = (v: unknown): v is Anonymous =>
  typeof v === 'object' && v !== null && Array.isArray((v as Anonymous).direct_members);

/** Rewrites the record's anonymous values naming any of `userIds`; answers the changed setting names. */
function dropFrom(settings: Record<string, unknown>, userIds: Set<number>): string[] {
  const changed: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    if (!isAnonymous(value) || !value.direct_members.some((id) => userIds.has(id))) continue;
    settings[name] = { ...value, direct_members: value.direct_members.filter((id) => !userIds.has(id)) };
    changed.push(name);
  }
  return changed;
}

export function dropFromGroupSettings(app: App, tx: Transaction, userIds: Set<number>): void {
  const everyone = activeUsers(app).map((u) => u.id);
  const realm = app.store.realm.data.realm;
  if (realm) {
    const settings = realm.settings as unknown as Record<string, unknown>;
    const changed = dropFrom(settings, userIds);
    if (changed.length) {
      tx.touch(app.store.realm);
      const data = Object.fromEntries(changed.map((n) => [n, groupSettingForApi(settings[n] as GroupSettingValue, app)]));
      tx.emit({ type: 'realm', op: 'update_dict', property: 'default', data }, everyone);
    }
  }
  let groupsChanged = false;
  for (const g of app.store.groups.data.groups) {
    const changed = dropFrom(g.settings, userIds);
    if (!changed.length) continue;
    groupsChanged = true;
    const data = Object.fromEntries(changed.map((n) => [n, groupSettingForApi(g.settings[n]!, app)]));
    tx.emit({ type: 'user_group', op: 'update', group_id: g.id, data }, everyone);
  }
  if (groupsChanged) tx.touch(app.store.groups);
  let channelsChanged = false;
  for (const c of app.store.channels.data.channels) {
    for (const name of dropFrom(c.settings, userIds)) {
      channelsChanged = true;
      emitStreamPropertyUpdate(tx, app, c, name, groupSettingForApi(c.settings[name]!, app));
    }
  }
  if (channelsChanged) tx.touch(app.store.channels);
}
