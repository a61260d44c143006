/**
 * Plain uploads and file serving (Zulip's zerver/views/upload.py):
 * `POST /api/v1/user_uploads`, `GET /user_uploads/{path}` (and `/download/`),
 * `GET /api/v1/user_uploads/{path}` (a temporary URL) and
 * `GET /user_uploads/temporary/{token}/{name}`.
 *
 * A request path is never joined into a file-system path: it is decoded,
 * checked against the one shape Hearth hands out and looked up exactly in
 * the attachment records; the bytes are read from the record's own storage name.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { doStoreUpload, storagePath } from '../actions/attachments.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors, HearthError } from '../errors.js';
import { canReadAttachment } from '../lib/uploads/attachments.js';
import { checkDiskSpace, checkUploadAllowed, maxUploadBytes, tooLargeMessage } from '../lib/uploads/limits.js';
import { contentDisposition, isInlineType, PATH_ID, servedType, uploadUrl } from '../lib/uploads/names.js';
import { parseRange } from '../lib/uploads/range.js';
import { pathIdFromToken, temporaryUrl } from '../lib/uploads/tokens.js';
import type { AttachmentRecord } from '../store/attachment-records.js';
import { requireUser } from './common.js';
import { requestFiles } from '../http/body.js';

/** POST /user_uploads: exactly one file, under any field name. */
export async function uploadFile(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const list = requestFiles(req.koa);
  if (list.length === 0) throw errors.badRequest('You must specify a file to upload');
  if (list.length !== 1) throw errors.badRequest('You may only upload one file at a time');
  const file = list[0]!;
  if (file.size > maxUploadBytes(req.app)) throw errors.badRequest(tooLargeMessage(req.app));
  // The organization's quota and a guest's daily allowance (checked again as the file is recorded);
  // the file is already spooled, so the disk must still have its reserve with it.
  checkUploadAllowed(req.app, user, file.size);
  await checkDiskSpace(req.app, 0);
  const a = await doStoreUpload(req.app, user.id, {
    from: file.filepath,
    name: file.originalFilename ?? '',
    clientType: file.mimetype,
    size: file.size,
  });
  const url = uploadUrl(a.path_id);
  // `uri` is the deprecated alias Zulip still sends.
  return { uri: url, url, filename: a.file_name };
}

const notFound = () => new HearthError('This file does not exist or has been deleted.', { code: 'BAD_REQUEST', status: 404 });

/** The attachment a routed path names, or null; `..`, encoded separators, NUL and the like never match. */
function attachmentAt(req: ApiRequest): AttachmentRecord | null {
  const { realm_id: realm, bucket, token, name } = req.path;
  const pathId = `${realm}/${bucket}/${token}/${name}`;
  if (!PATH_ID.test(pathId)) return null;
  const a = req.app.store.attachments.byPathId(pathId);
  if (!a || !pathId.startsWith(`${req.app.store.realm.data.realm!.id}/`)) return null;
  return a;
}

/** The attachment the caller may read, or the error Zulip gives (404 unknown, 403 not allowed). */
function readableAttachment(req: ApiRequest): AttachmentRecord {
  const a = attachmentAt(req);
  if (!a) throw notFound();
  if (!canReadAttachment(req.app, req.user?.id ?? null, a)) {
    if (!req.user) throw errors.unauthorized();
    throw new HearthError('You are not authorized to view this file.', { code: 'UNAUTHORIZED', status: 403 });
  }
  return a;
}

/** Streams the file with headers that keep a browser from running anything in it. */
async function sendFile(req: ApiRequest, a: AttachmentRecord, download: boolean): Promise<void> {
  const path = storagePath(req.app, a);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw notFound();
  const inline = !download && isInlineType(a.content_type);
  const k = req.koa;
  const range = parseRange(k.get('range') || undefined, info.size);
  if (range.kind === 'unsatisfiable') {
    throw new HearthError('Range Not Satisfiable', {
      code: 'BAD_REQUEST',
      status: 416,
      headers: { 'Content-Range': `bytes */${info.size}` },
    });
  }
  const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, info.size - 1];
  // HEAD: Koa sends no body; an empty one keeps a file descriptor from being opened for nothing.
  k.body = k.method === 'HEAD' || info.size === 0 ? Buffer.alloc(0) : createReadStream(path, { start, end });
  k.status = range.kind === 'partial' ? 206 : 200;
  if (range.kind === 'partial') k.set('Content-Range', `bytes ${start}-${end}/${info.size}`);
  k.set('Accept-Ranges', 'bytes');
  k.set('Content-Type', servedType(a.content_type));
  k.set('Content-Disposition', contentDisposition(inline, a.file_name));
  k.set('Content-Length', String(end - start + 1));
  k.set('X-Content-Type-Options', 'nosniff');
  k.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
  k.set('Cross-Origin-Resource-Policy', 'same-origin');
  k.set('Referrer-Policy', 'no-referrer');
  k.set('Cache-Control', 'private, max-age=31536000, immutable');
}

/** GET /user_uploads/{realm}/{bucket}/{token}/{name}: the file, to whoever may read it (web and API clients). */
export async function serveFile(req: ApiRequest): Promise<void> {
  await sendFile(req, readableAttachment(req), false);
}

/** GET /user_uploads/download/...: the same, always as a download. */
export async function serveFileDownload(req: ApiRequest): Promise<void> {
  await sendFile(req, readableAttachment(req), true);
}

/**
 * GET /user_uploads/thumbnail/{path}/{format}: Hearth makes no thumbnails, so an
 * image's own bytes stand in for any format (clients scale it); other files have none.
 */
export async function serveThumbnail(req: ApiRequest): Promise<void> {
  const a = readableAttachment(req);
  if (!a.content_type.startsWith('image/') || !isInlineType(a.content_type)) throw notFound();
  await sendFile(req, a, false);
}

/** GET /api/v1/user_uploads/...: a URL that opens the file for a minute without credentials. */
export function fileTemporaryUrl(req: ApiRequest): ViewResult {
  requireUser(req);
  const a = readableAttachment(req);
  return { url: temporaryUrl(req.app, a.path_id) };
}

/** GET /user_uploads/temporary/{token}/{name}. */
export async function serveTemporaryFile(req: ApiRequest): Promise<void> {
  const pathId = pathIdFromToken(req.app, req.path.token ?? '');
  if (pathId === null) throw errors.badRequest('Invalid token');
  if (pathId.slice(pathId.lastIndexOf('/') + 1) !== req.path.filename) throw errors.badRequest('Invalid filename');
  const a = req.app.store.attachments.byPathId(pathId);
  if (!a) throw errors.badRequest('Invalid token');
  await sendFile(req, a, false);
}
