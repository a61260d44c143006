import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../context.js';
import { canSeeEmail, fakeEmail } from '../lib/people/people.js';
import { currentSetting, settingForApi, writeSetting, type RealmSetting } from '../lib/realm/settings.js';
import { realmIconFields } from '../lib/realm/icon.js';
import type { UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { emitUserAccessDiff, snapshotUserAccess } from './users-access.js';

export interface SettingChange {
  setting: RealmSetting;
  value: unknown;
}

const activeUserIds = (app: App) =>
  app.store.users
    .all()
    .filter((u) => u.is_active)
    .map((u) => u.id);

/** Who sees whose real email, as a set of `viewer:target` pairs (active viewers; every target, deactivated too). */
function emailVisibility(app: App, viewers: UserRecord[]): Set<string> {
  const out = new Set<string>();
  for (const viewer of viewers) {
    for (const target of app.store.users.all()) if (canSeeEmail(app, viewer, target)) out.add(`${viewer.id}:${target.id}`);
  }
  return out;
}

/**
 * Changes organization settings (validated by the view) and announces each as Zulip does:
 * `realm` `update` (or `update_dict`) to every user; user defaults as
 * `realm_user_settings_defaults` `update`. A new email visibility also tells each user
 * whose addresses they now see or no longer see (`realm_user` update with
 * `delivery_email`, and `new_email` for the API address).
 */
export async function doUpdateRealmSettings(app: App, changes: SettingChange[]): Promise<void> {
  if (!changes.length) return;
  await commit(app, (tx) => {
    const realm = app.store.realm.data.realm!;
    const users = app.store.users.all().filter((u) => u.is_active);
    const emailChange = changes.some((c) => c.setting.name === 'email_address_visibility');
    const before = emailChange ? emailVisibility(app, users) : null;
    const accessChange = changes.some((c) => c.setting.name === 'can_access_all_users_group');
    const access = accessChange ? snapshotUserAccess(app, users.map((u) => u.id)) : null;
    for (const { setting, value } of changes) writeSetting(realm, setting, value);
    tx.touch(app.store.realm);
    const everyone = users.map((u) => u.id);
    for (const { setting } of changes) {
      if (setting.secret) continue;
      const value = settingForApi(app, setting, currentSetting(app, setting));
      const key = setting.eventKey ?? setting.name;
      if ((setting.endpoint ?? 'realm') === 'user_settings_defaults') {
        tx.emit({ type: 'realm_user_settings_defaults', op: 'update', property: key, value }, everyone);
      } else if (setting.event === 'update_dict') {
        tx.emit({ type: 'realm', op: 'update_dict', property: 'default', data: { [key]: value } }, everyone);
      } else {
        tx.emit({ type: 'realm', op: 'update', property: key, value }, everyone);
      }
    }
    if (before) {
      // Each user's own email_address_visibility setting follows the organization's rule.
      const value = currentSetting(app, changes.find((c) => c.setting.name === 'email_address_visibility')!.setting);
      tx.emit({ type: 'user_settings', op: 'update', property: 'email_address_visibility', value }, everyone);
      announceEmailVisibility(app, tx, users, before);
    }
    // Guests who gain or lose sight of people hear of them as Zulip does (realm_user add / remove).
    if (access) emitUserAccessDiff(app, tx, access);
  });
}

function announceEmailVisibility(app: App, tx: Transaction, users: UserRecord[], before: Set<string>): void {
  const after = emailVisibility(app, users);
  for (const viewer of users) {
    for (const target of app.store.users.all()) {
      const key = `${viewer.id}:${target.id}`;
      const now = after.has(key);
      if (before.has(key) === now) continue;
      tx.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: now ? target.email : null } }, [viewer.id]);
      tx.emit(
        { type: 'realm_user', op: 'update', person: { user_id: target.id, new_email: now ? target.email : fakeEmail(app, target) } },
        [viewer.id],
      );
    }
  }
}

/**
 * Switches the organization icon (an uploaded file already in place under the data dir, or
 * null for the default) and announces it (`realm` `update_dict` `icon`, as Zulip).
 */
export async function doSetRealmIcon(
  app: App,
  icon: { file: string; content_type: string; version: number } | null,
): Promise<void> {
  const realm = app.store.realm.data.realm!;
  const old = realm.settings.icon;
  await commit(app, (tx) => {
    if (icon) {
      realm.settings.icon = icon;
      realm.settings.icon_version = icon.version;
    } else delete realm.settings.icon;
    tx.touch(app.store.realm);
    tx.emit({ type: 'realm', op: 'update_dict', property: 'icon', data: realmIconFields(realm) }, activeUserIds(app));
  });
  if (old && old.file !== icon?.file) await unlink(join(app.config.dataDir, 'realm', old.file)).catch(() => undefined);
}

/** `hearth demo` marks the organization it generates, so pages can say it is a demo. */
export async function doMarkDemoOrganization(app: App): Promise<void> {
  await commit(app, (tx) => {
    app.store.realm.data.realm!.demo = true;
    tx.touch(app.store.realm);
  });
}
