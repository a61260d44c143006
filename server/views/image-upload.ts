/**
 * The one image a multipart request carries (avatars, the organization icon,
 * custom emoji): exactly one file, within a size limit, recognised as PNG,
 * JPEG, GIF or WebP by its first bytes; then moved into place under the data
 * dir and fsynced before the record pointing at it is written.
 */
import { mkdir, open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import { sniffImage } from '../lib/realm/icon.js';
import { requestFiles, type SpooledFile } from '../http/body.js';

export interface UploadedImage {
  filepath: string;
  type: string;
  ext: string;
}

/** `what` names the upload in Zulip's "You must upload exactly one ..." error. */
export async function singleImage(req: ApiRequest, maxBytes: number, what: string): Promise<UploadedImage> {
  const list = requestFiles(req.koa);
  if (list.length !== 1) throw errors.badRequest(`You must upload exactly one ${what}.`);
  return checkImage(list[0]!, maxBytes);
}

/** The spooled file, checked: within `maxBytes` and a PNG, JPEG, GIF or WebP image by its first bytes. */
export async function checkImage(file: SpooledFile, maxBytes: number): Promise<UploadedImage> {
  if (file.size > maxBytes) {
    throw errors.badRequest(`Uploaded file is larger than the allowed limit of ${maxBytes / 1024 / 1024} MiB`);
  }
  const head = Buffer.alloc(16);
  const handle = await open(file.filepath, 'r');
  try {
    await handle.read(head, 0, 16, 0);
  } finally {
    await handle.close();
  }
  const kind = sniffImage(head);
  if (!kind) throw errors.badRequest('Invalid image format: use a PNG, JPEG, GIF or WebP file');
  return { filepath: file.filepath, ...kind };
}

/** Moves the spooled upload (same file system: the data dir) to `dir/name` and fsyncs it. */
export async function placeImage(image: UploadedImage, dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await rename(image.filepath, join(dir, name));
  const placed = await open(join(dir, name), 'r');
  try {
    await placed.sync();
  } finally {
    await placed.close();
  }
}
