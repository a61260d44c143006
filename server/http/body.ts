import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import formidable from 'formidable';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { App } from '../context.js';
import { errors } from '../errors.js';
import { bodyCutOff } from './connections.js';

/**
 * Reads form bodies on POST, PUT, PATCH and DELETE (zulip-js puts PATCH and
 * DELETE parameters in the query string; the Python client and the mobile app
 * send form bodies). urlencoded bodies are read as text and split with
 * URLSearchParams (flat keys, exactly as sent); multipart goes through
 * formidable, with files spooled under the data dir.
 */
export function bodyParser(app: App): Koa.Middleware {
  const tmp = join(app.config.dataDir, 'uploads', 'tmp');
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  chmodSync(tmp, 0o700);
  const parse = koaBody({
    json: false,
    urlencoded: false,
    text: true,
    textTypes: ['application/x-www-form-urlencoded'],
    textLimit: app.config.bodyLimitBytes,
    multipart: true,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
    formidable: {
      uploadDir: tmp,
      maxFileSize: app.config.fileLimitBytes,
      maxTotalFileSize: app.config.fileLimitBytes,
      maxFieldsSize: app.config.bodyLimitBytes,
      allowEmptyFiles: true,
      minFileSize: 0,
      onPart: filePartsAreFiles,
      onFileBegin: spoolPrivately,
    } as unknown as NonNullable<Parameters<typeof koaBody>[0]>['formidable'],
  });
  return async (ctx, next) => {
    // GET and HEAD carry no body (koa-body skips them too): no parse, no cleanup frame held by parked polls.
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return next();
    try {
      await parse(ctx, async () => undefined);
    } catch (err) {
      // A body that stopped arriving or came too slowly was answered 408 (http/connections.ts).
      if (bodyCutOff(app, ctx.req)) throw errors.badRequest('The request body did not arrive');
      // A body that is not in its declared Content-Encoding: zlib's errors carry no HTTP status.
      if (/^Z_/.test(String((err as { code?: unknown }).code))) {
        throw errors.badRequest('Malformed request body: it does not match its Content-Encoding');
      }
      throw err;
    }
    const body = (ctx.request as { body?: unknown }).body;
    if (typeof body === 'string') {
      (ctx.request as { body?: unknown }).body = Object.fromEntries(new URLSearchParams(body));
    }
    try {
      await next();
    } finally {
      await removeSpooledFiles(ctx);
    }
  };
}

/**
 * A file part's spool file is made mode 0600 before formidable opens it (its write stream would
 * make it 0644; opened again for writing, the file keeps its mode). On failure formidable's own
 * open reports the error.
 */
function spoolPrivately(_name: string, file: { filepath: string }): void {
  try {
    const fd = openSync(file.filepath, 'w', 0o600);
    try {
      fchmodSync(fd, 0o600);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* formidable's own open reports it */
  }
}

type FormPart = { originalFilename?: string | null; mimetype?: string | null; headers?: Record<string, string> };

/**
 * Every part with a filename is a file, as Django reads it for Zulip: formidable takes a
 * part without its own Content-Type for a text field, and python-requests (the Zulip Python
 * library, its bots) sends files exactly so. Such a part becomes application/octet-stream
 * (the upload code sniffs or guesses the real type); a filename given only in RFC 5987
 * form (`filename*=UTF-8''…`) counts too; a part whose filename is empty (a browser form
 * with no file chosen) is skipped, as Django skips it.
 */
export function filePartsAreFiles(part: FormPart, handle: (part: FormPart) => void): void {
  if (part.originalFilename == null) part.originalFilename = extendedFilename(part.headers?.['content-disposition'] ?? '');
  if (part.originalFilename === '') return;
  if (part.originalFilename != null && !part.mimetype) part.mimetype = 'application/octet-stream';
  handle(part);
}

/** The `filename*=charset''percent-encoded` parameter (RFC 5987/6266), or null. */
function extendedFilename(disposition: string): string | null {
  const m = /(?:^|;)\s*filename\*\s*=\s*([\w!#$%&+^`{}~-]*)'[\w-]*'([^;\s]*)/i.exec(disposition);
  if (!m) return null;
  try {
    const name = decodeURIComponent(m[2]!);
    return name.slice(name.lastIndexOf('\\') + 1);
  } catch {
    return null;
  }
}

/**
 * The fields of a multipart body already read into memory (incoming webhooks read their body
 * themselves), as Django's request.POST has them: a part is a field when it has no filename,
 * whatever its Content-Type (formidable alone would take a part with one for a file, and one
 * without for a field even when it names a file); file parts, an empty filename's included, are
 * skipped unread. A repeated name keeps its last value. A malformed body rejects with
 * formidable's error (`httpCode` 400, or 413 past `maxFieldsSize` or 1,000 fields).
 */
export async function multipartFields(bytes: Buffer, contentType: string, maxFieldsSize: number): Promise<Record<string, string>> {
  const form = formidable({ maxFieldsSize, maxFields: 1000 });
  form.onPart = (part) => {
    const raw = part as formidable.Part & FormPart;
    const filename = raw.originalFilename ?? extendedFilename(raw.headers?.['content-disposition'] ?? '');
    if (filename != null) return;
    raw.mimetype = null;
    form._handlePart(part);
  };
  const req = Object.assign(Readable.from([bytes]), { headers: { 'content-type': contentType, 'content-length': String(bytes.length) } });
  const [fields] = await form.parse(req as never);
  const out: Record<string, string> = {};
  for (const [name, values] of Object.entries(fields)) {
    const last = values?.at(-1);
    if (last !== undefined) out[name] = last;
  }
  return out;
}

export type SpooledFile = { filepath: string; size: number; originalFilename?: string | null; mimetype?: string | null };

/** Every file the multipart body carried, under any field name. */
export function requestFiles(ctx: Koa.Context): SpooledFile[] {
  const files = (ctx.request as { files?: Record<string, SpooledFile | SpooledFile[]> }).files;
  if (!files) return [];
  return Object.values(files).flatMap((f) => (Array.isArray(f) ? f : [f]));
}

/**
 * Deletes the request's spooled multipart files once the view is done: a view
 * that keeps an upload moves it out of the temp dir first (then this is a no-op).
 */
async function removeSpooledFiles(ctx: Koa.Context): Promise<void> {
  await Promise.all(requestFiles(ctx).map((f) => unlink(f.filepath).catch(() => undefined)));
}
