/**
 * The one image a multipart request carries (avatars, the organization icon,
 * custom emoji): exactly one file, within a size limit, recognised as PNG,
 * JPEG, GIF or WebP by its first bytes. The checked file is then placed by
 * the action in server/actions/files.ts (durably, before the record pointing at it).
 */
import { open } from 'node:fs/promises';
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
