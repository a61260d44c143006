import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { doSetRealmIcon, doUpdateRealmSettings, type SettingChange } from '../actions/realm.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { isOwner } from '../lib/people/people.js';
import { MAX_ICON_BYTES, realmIconFields } from '../lib/realm/icon.js';
import { singleImage } from './image-upload.js';
import { placeFile } from '../actions/files.js';
import { currentSetting, settingForApi, settingsOf } from '../lib/realm/settings.js';
import { requireAdmin } from '../lib/people/require.js';

/** Reads, validates and permission-checks every setting of one endpoint that the request sends. */
async function updateSettings(req: ApiRequest, endpoint: 'realm' | 'user_settings_defaults'): Promise<ViewResult> {
  const user = requireAdmin(req);
  const changes: SettingChange[] = [];
  for (const setting of settingsOf(endpoint)) {
    if (!req.params.has(setting.name)) continue;
    let value = req.params.get(setting.name, setting.type) as unknown;
    if (setting.who === 'owner' && !isOwner(user)) throw errors.ownerRequired();
    const current = currentSetting(req.app, setting);
    if (setting.validate) value = setting.validate(value, req.app, current);
    if (JSON.stringify(current) !== JSON.stringify(value)) changes.push({ setting, value });
  }
  await doUpdateRealmSettings(req.app, changes);
  // Zulip answers with the settings that changed.
  const out: ViewResult = {};
  for (const c of changes) if (!c.setting.secret) out[c.setting.name] = settingForApi(req.app, c.setting, c.value);
  return out;
}

/** PATCH /realm: organization settings (administrators; some owners only). */
export const updateRealm = (req: ApiRequest) => updateSettings(req, 'realm');

/** PATCH /realm/user_settings_defaults: the user-setting defaults Hearth applies organization-wide. */
export const updateRealmUserDefaults = (req: ApiRequest) => updateSettings(req, 'user_settings_defaults');


/** POST /realm/icon: one image file (multipart), at most 5 MiB; stored in the data dir and served offline. */
export async function uploadRealmIcon(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const image = await singleImage(req, MAX_ICON_BYTES, 'icon');
  const { app } = req;
  const realm = app.store.realm.data.realm!;
  const version = Math.max(realm.settings.icon_version ?? 1, realm.settings.icon?.version ?? 1) + 1;
  const name = `icon-${version}.${image.ext}`;
  await placeFile(app, image.filepath, join(app.config.dataDir, 'realm', name));
  await doSetRealmIcon(app, { file: name, content_type: image.type, version });
  return { icon_url: realmIconFields(realm).icon_url };
}

/** DELETE /realm/icon: back to the default icon. */
export async function deleteRealmIcon(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  await doSetRealmIcon(req.app, null);
  return { icon_url: realmIconFields(req.app.store.realm.data.realm!).icon_url };
}

/** GET /realm_icon/{file}: the uploaded organization icon (no auth, like the login page's icon). */
export async function serveRealmIcon(req: ApiRequest): Promise<void> {
  const icon = req.app.store.realm.data.realm?.settings.icon;
  if (!icon || req.path.file !== icon.file) throw errors.notFound('Not Found');
  const data = await readFile(join(req.app.config.dataDir, 'realm', icon.file)).catch(() => null);
  if (!data) throw errors.notFound('Not Found');
  req.koa.set('Cache-Control', 'public, max-age=31536000, immutable');
  req.koa.set('X-Content-Type-Options', 'nosniff');
  req.koa.type = icon.content_type;
  req.koa.body = data;
}
