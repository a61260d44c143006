/**
 * Requests that change something must come from Hearth's own pages or from a program, never from
 * another web site. A browser names the page a request comes from (`Origin`, and `Sec-Fetch-Site`
 * in current browsers); API clients (the mobile app, bots, the terminal client) send neither.
 * Without this, another site could sign a visitor in to the attacker's account (a form posted to
 * /json/login or an invitation), or set up a server that has no organization yet. The CSRF token
 * guards what a session may do; this also covers the requests that come before a session.
 */
import type Koa from 'koa';
import { errors } from '../errors.js';

const SAFE: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export function refuseCrossSite(): Koa.Middleware {
  return async (ctx, next) => {
    if (!SAFE.has(ctx.method) && crossSite(ctx)) throw errors.csrfFailed();
    return next();
  };
}

/** Whether a browser says the request comes from a page of another origin. */
export function crossSite(ctx: Koa.Context): boolean {
  const origin = ctx.get('origin');
  // "null": a sandboxed frame, a file, a redirect from elsewhere.
  // (Koa's ctx.origin is that header itself here, so the server's own origin is spelled out.)
  if (origin) return origin !== `${ctx.protocol}://${ctx.host}`;
  const site = ctx.get('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}
