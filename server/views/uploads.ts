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
import type { AttachmentRecord, StoredThumbnail } from '../store/attachment-records.js';
import { queueThumbnails } from '../actions/thumbnails.js';
import { filesDir } from '../lib/uploads/storage.js';
import { formatsFor, parseFormatName, thumbnailPath } from '../lib/uploads/thumbnails.js';
import { requireUser } from '../lib/people/require.js';
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

/**
 * Streams the file with headers that keep a browser from running anything in it; `thumbnail`: one
 * of its thumbnails instead (an image/webp Hearth made).
 */
async function sendFile(req: ApiRequest, a: AttachmentRecord, download: boolean, thumbnail?: StoredThumbnail): Promise<void> {
  const path = thumbnail ? thumbnailPath(filesDir(req.app), a, thumbnail.name) : storagePath(req.app, a);
  const type = thumbnail ? thumbnail.content_type : a.content_type;
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw notFound();
  const inline = !download && isInlineType(type);
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
  k.set('Content-Type', servedType(type));
  k.set('Content-Disposition', contentDisposition(inline, thumbnail ? thumbnail.name : a.file_name));
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
 * GET /user_uploads/thumbnail/{path}/{format} (Zulip's serve_file with a thumbnail format), to
 * whoever may read the file: 404 for a file that is not an image Hearth thumbnails or a format that
 * is not one; a format announced in `server_thumbnail_formats` but not made yet is made now (its
 * upload goes to the front of the line and the request waits for it, as Zulip makes it on demand);
 * a format no longer announced is served if it was made, else the closest one made.
 */
export async function serveThumbnail(req: ApiRequest): Promise<void> {
  const a = readableAttachment(req);
  const requested = parseFormatName(req.path.format ?? '');
  if (!a.image || !requested) throw notFound();
  const name = req.path.format!;
  const offered = formatsFor(a.image);
  let made = a.image.thumbnails;
  let chosen: StoredThumbnail | undefined;
  if (!offered.some((f) => f.name === name)) {
    if (made.length === 0) throw notFound();
    chosen = made.find((t) => t.name === name) ?? closestThumbnail(requested, made);
  } else {
    chosen = made.find((t) => t.name === name);
    if (!chosen) {
      await queueThumbnails(req.app, a, true);
      made = req.app.store.attachments.get(a.id)?.image?.thumbnails ?? [];
      chosen = made.find((t) => t.name === name);
    }
  }
  if (!chosen) throw notFound();
  await sendFile(req, a, false, chosen);
}

/** Zulip's closest_thumbnail_format: the same animation first, then the extension, the nearest width, the fewest bytes. */
function closestThumbnail(want: { max_width: number; animated: boolean; extension: string }, made: StoredThumbnail[]): StoredThumbnail {
  const ext = (t: StoredThumbnail) => t.name.slice(t.name.lastIndexOf('.') + 1);
  const width = (t: StoredThumbnail) => parseFormatName(t.name)?.max_width ?? t.width;
  const grade = (t: StoredThumbnail) => [
    t.animated !== want.animated ? 1 : 0,
    ext(t) !== want.extension ? 1 : 0,
    Math.abs(want.max_width - width(t)),
    t.byte_size,
  ];
  return made.reduce((best, t) => {
    const [g, b] = [grade(t), grade(best)];
    for (let i = 0; i < g.length; i++) if (g[i] !== b[i]) return g[i]! < b[i]! ? t : best;
    return best;
  });
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
