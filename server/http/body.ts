import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { App } from '../context.js';

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
      maxFileSize: app.config.bodyLimitBytes,
      maxFieldsSize: app.config.bodyLimitBytes,
      allowEmptyFiles: true,
      minFileSize: 0,
    },
  });
  return async (ctx, next) => {
    await parse(ctx, async () => undefined);
    const body = (ctx.request as { body?: unknown }).body;
    if (typeof body === 'string') {
      (ctx.request as { body?: unknown }).body = Object.fromEntries(new URLSearchParams(body));
    }
    await next();
  };
}
