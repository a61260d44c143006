/** The headers every HTML page and every file of the web pages carry (admin, chat, trust and error pages). */
import type Koa from 'koa';

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // KaTeX's fonts, served with the chat client's bundle.
  "font-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

export function setPageHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
}
