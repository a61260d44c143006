import { mkdirSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { App } from '../context.js';
import { errors } from '../errors.js';

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
    },
  });
  return async (ctx, next) => {
    // GET and HEAD carry no body (koa-body skips them too): no parse, no cleanup frame held by parked polls.
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return next();
    try {
      await parse(ctx, async () => undefined);
    } catch (err) {
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

type SpooledFile = { filepath: string };

/**
 * Deletes the request's spooled multipart files once the view is done: a view
 * that keeps an upload moves it out of the temp dir first (then this is a no-op).
 */
async function removeSpooledFiles(ctx: Koa.Context): Promise<void> {
  const files = (ctx.request as { files?: Record<string, SpooledFile | SpooledFile[]> }).files;
  if (!files) return;
  const paths = Object.values(files).flatMap((f) => (Array.isArray(f) ? f : [f]).map((x) => x.filepath));
  await Promise.all(paths.map((p) => unlink(p).catch(() => undefined)));
}
