/**
 * Avatars, offline: `GET /avatar/{user_id}` (and `/medium`) serves the uploaded
 * image or a locally generated default; `POST/DELETE /users/me/avatar`.
 *
 * `avatar_url` in user objects points here, and clients load it in image tags
 * that carry no API credentials, so the image is served without
 * authentication (as Zulip serves its `/user_avatars/` files). Credentials that
 * are sent must be valid; a guest who may not access the user gets the neutral
 * unknown-user tile, as Zulip does.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { avatarDir, doSetAvatar } from '../actions/users-avatar.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { AVATAR_MEDIUM_SIZE, AVATAR_SIZE, defaultAvatarPng, MAX_AVATAR_BYTES } from '../lib/people/avatar.js';
import { avatarUrl, canAccessAllUsers, canAccessUser } from '../lib/people/people.js';
import { singleImage } from './image-upload.js';
import { placeFile } from '../actions/files.js';
import { requireUser } from '../lib/people/require.js';
import { accessUserByEmail } from '../lib/people/access.js';
import type { UserRecord } from '../store/records.js';
import { systemBot, userOrSystemBot } from '../lib/people/system-bots.js';


/**
 * The user of `/avatar/{user_id}`; an email address works too for a signed-in
 * requester (the real one when they may see it, or `user{id}@`), as in Zulip.
 */
function avatarTarget(req: ApiRequest): UserRecord | null {
  const raw = req.path.user_id ?? '';
  if (/^\d{1,15}$/.test(raw)) {
    const byId = userOrSystemBot(req.app, Number(raw));
    // To a viewer who may not access everyone, an unused ID is as a hidden person's (the
    // unknown-user tile): a 404 told which IDs are people they may not see.
    if (!byId && req.user && !canAccessAllUsers(req.app, req.user)) return null;
    if (!byId) throw errors.notFound('Not Found');
    return byId;
  }
  if (!raw.includes('@')) throw errors.invalidVar('user_id', 'Invalid user_id');
  if (!req.user) throw errors.unauthorized();
  try {
    return accessUserByEmail(req.app, req.user, raw, { allowBots: true, allowDeactivated: true, forAdmin: false });
  } catch {
    throw errors.notFound('Not Found');
  }
}

async function serveAvatar(req: ApiRequest, medium: boolean): Promise<void> {
  const { app, koa } = req;
  const target = avatarTarget(req);
  const hidden = target === null || (req.user !== null && !systemBot(app, target.id) && !canAccessUser(app, req.user, target));
  let body: Buffer | null = null;
  let type = 'image/png';
  if (!hidden && target.avatar) {
    body = await readFile(join(avatarDir(app), target.avatar.file)).catch(() => null);
    type = target.avatar.content_type;
  }
  if (!body) {
    body = defaultAvatarPng(hidden ? null : target.id, medium ? AVATAR_MEDIUM_SIZE : AVATAR_SIZE);
    type = 'image/png';
  }
  // A versioned URL (`?v=`) never changes content; a bare one may.
  koa.set('Cache-Control', koa.query.v !== undefined && !hidden ? 'private, max-age=31536000, immutable' : 'no-cache');
  koa.set('X-Content-Type-Options', 'nosniff');
  koa.type = type;
  koa.body = body;
}

export const getAvatar = (req: ApiRequest) => serveAvatar(req, false);
export const getAvatarMedium = (req: ApiRequest) => serveAvatar(req, true);

/** POST /users/me/avatar: one image file (PNG, JPEG, GIF or WebP) under any field name. */
export async function uploadAvatar(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const image = await singleImage(req, MAX_AVATAR_BYTES, 'avatar');
  const name = `${user.id}-${randomBytes(8).toString('hex')}.${image.ext}`;
  await placeFile(req.app, image.filepath, join(avatarDir(req.app), name));
  await doSetAvatar(req.app, user, { file: name, content_type: image.type });
  return { avatar_url: avatarUrl(user) };
}

/** DELETE /users/me/avatar: back to the generated default. */
export async function deleteAvatar(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  await doSetAvatar(req.app, user, null);
  return { avatar_url: avatarUrl(user) };
}
