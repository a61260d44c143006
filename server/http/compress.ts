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

/** Whether the client accepts gzip (a cheap look at the header; `gzip;q=0` refuses it). */
function acceptsGzip(header: string): boolean {
  if (!header.includes('gzip')) return false;
  const m = /(?:^|,)\s*gzip\s*(?:;\s*q\s*=\s*([0-9.]+))?/i.exec(header);
  return m !== null && (m[1] === undefined || Number(m[1]) > 0);
}

export function compressResponses(): Koa.Middleware {
  return async (ctx, next) => {
    // Most API clients and the benchmarks ask for nothing: no cost beyond this look.
    if (!acceptsGzip(ctx.get('Accept-Encoding'))) return next();
    await next();
    if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304 || ctx.get('Range')) return;
    if (ctx.response.get('Content-Encoding')) return;
    const body = ctx.body as unknown;
    const type = ctx.response.type || 'application/json';
    if (!COMPRESSIBLE.test(type)) return;
    let raw: Buffer;
    if (typeof body === 'string') raw = Buffer.from(body);
    else if (Buffer.isBuffer(body)) raw = body;
    else if (body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function') {
      raw = Buffer.from(JSON.stringify(body));
      // Serialised once: a small answer goes out as this text rather than being stringified again.
      if (raw.length < COMPRESS_MIN_BYTES) {
        ctx.body = raw;
        ctx.type = type;
        return;
      }
    } else return;
    if (raw.length < COMPRESS_MIN_BYTES) return;
    const zipped = await gzip(raw, { level: 6 });
    ctx.vary('Accept-Encoding');
    ctx.body = zipped;
    ctx.type = type;
    ctx.set('Content-Encoding', 'gzip');
  };
}
