/**
 * When an owner turns plain HTTP off (the `hearth_plain_http` switch) and HTTPS is on, the
 * HTTP listener only redirects to the same address over HTTPS (308, so a POST stays a POST)
 * and serves what a device needs before it can trust HTTPS: the trust page, the authority's
 * downloads and the page's stylesheet (the help center's).
 */
import type Koa from 'koa';
import type { App } from '../context.js';
import { requestLinkOrigin } from './link-origin.js';

const OPEN: ReadonlySet<string> = new Set(['/hearth/trust', '/hearth/ca.crt', '/hearth/ca.mobileconfig', '/help/help.css', '/static/hearth-icon.png']);

/** Whether a request on this socket, to this path, is only redirected to HTTPS. */
export function redirectedToHttps(app: App, socket: object, path: string): boolean {
  const encrypted = (socket as { encrypted?: boolean }).encrypted === true;
  return !encrypted && app.config.tlsAddress !== null && app.store.realm.data.realm?.settings.hearth_plain_http === false && !OPEN.has(path);
}

export function plainHttpGate(app: App): Koa.Middleware {
  return (ctx, next) => {
    const tls = app.config.tlsAddress;
    if (!tls || !redirectedToHttps(app, ctx.req.socket, ctx.path)) return next();
    // The host links use (never a forged Host: it would redirect to another site), over HTTPS.
    const url = new URL(requestLinkOrigin(app, ctx));
    url.protocol = 'https:';
    url.port = String(tls.port);
    const location = `${url.origin}${ctx.originalUrl}`;
    ctx.status = 308;
    ctx.set('Location', location);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { result: 'error', msg: 'This server answers over HTTPS only.', code: 'BAD_REQUEST', location };
    return Promise.resolve();
  };
}
