/**
 * Response compression, as Zulip's nginx gives: JSON, HTML, CSS, JavaScript and SVG answers
 * of 1 KiB or more are gzip-compressed (on the thread pool, never blocking the event loop)
 * when the client accepts gzip. Streams (uploads, files) and what is already compressed
 * (images, archives) are left alone, and so are answers to Range requests.
 */
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import type Koa from 'koa';

const gzip = promisify(gzipCb);
export const COMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /^(?:application\/(?:json|javascript|xml|x-apple-aspen-config)|text\/|image\/svg\+xml)/;

export function compressResponses(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304 || ctx.get('Range')) return;
    if (ctx.response.get('Content-Encoding') || !ctx.acceptsEncodings('gzip', 'identity') || ctx.acceptsEncodings('gzip', 'identity') !== 'gzip') return;
    const body = ctx.body as unknown;
    let raw: Buffer;
    if (typeof body === 'string') raw = Buffer.from(body);
    else if (Buffer.isBuffer(body)) raw = body;
    else if (body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function') raw = Buffer.from(JSON.stringify(body));
    else return;
    if (raw.length < COMPRESS_MIN_BYTES || !COMPRESSIBLE.test(ctx.response.type || 'application/json')) return;
    const type = ctx.response.type || 'application/json';
    const zipped = await gzip(raw, { level: 6 });
    ctx.vary('Accept-Encoding');
    ctx.body = zipped;
    ctx.type = type;
    ctx.set('Content-Encoding', 'gzip');
  };
}
