/**
 * Custom emoji endpoints: GET /realm/emoji, POST /realm/emoji/{name} (one
 * image, multipart), DELETE /realm/emoji/{name} (deactivates), and the
 * images at Zulip's `/user_avatars/<realm>/emoji/images/<file>`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { doAddRealmEmoji, doDeactivateRealmEmoji } from '../actions/realm-emoji.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import {
  activeEmojiByName,
  checkCanAddEmoji,
  checkCanRemoveEmoji,
  MAX_EMOJI_BYTES,
  normaliseEmojiName,
  realmEmojiDict,
} from '../lib/emoji/custom.js';
import { requireUser } from '../lib/people/require.js';
import { singleImage } from './image-upload.js';
import { placeFile } from '../actions/files.js';

const emojiDir = (req: ApiRequest) => join(req.app.config.dataDir, 'emoji');

export function listRealmEmoji(req: ApiRequest): ViewResult {
  requireUser(req);
  return { emoji: realmEmojiDict(req.app) };
}

export async function uploadRealmEmoji(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const name = normaliseEmojiName(String(req.path.emoji_name ?? ''));
  checkCanAddEmoji(req.app, user, name);
  const image = await singleImage(req, MAX_EMOJI_BYTES, 'file');
  const file = `${randomBytes(8).toString('hex')}.${image.ext}`;
  await placeFile(req.app, image.filepath, join(emojiDir(req), file));
  // The name may have been taken while the file was placed: check again before the write.
  checkCanAddEmoji(req.app, user, name);
  await doAddRealmEmoji(req.app, user, { name, file, content_type: image.type });
  return {};
}

export async function deleteRealmEmoji(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const name = String(req.path.emoji_name ?? '');
  const emoji = activeEmojiByName(req.app, name);
  if (!emoji) throw errors.notFound(`Emoji '${name}' does not exist`);
  checkCanRemoveEmoji(req.app, user, emoji);
  await doDeactivateRealmEmoji(req.app, emoji);
  return {};
}

/** The image of a custom emoji, deactivated ones included (old messages show them); no login, as in Zulip. */
export async function serveRealmEmojiImage(req: ApiRequest): Promise<void> {
  const { app } = req;
  const emoji = app.store.emoji.data.emoji.find((e) => e.file === req.path.file);
  if (!emoji || String(app.store.realm.data.realm?.id) !== req.path.realm_id) throw errors.notFound('Not Found');
  const data = await readFile(join(app.config.dataDir, 'emoji', emoji.file)).catch(() => null);
  if (!data) throw errors.notFound('Not Found');
  req.koa.set('Cache-Control', 'public, max-age=31536000, immutable');
  req.koa.set('X-Content-Type-Options', 'nosniff');
  req.koa.type = emoji.content_type;
  req.koa.body = data;
}
