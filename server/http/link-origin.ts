import type Koa from 'koa';
import type { App } from '../context.js';
import { linkOrigin } from '../lib/network/link-origin.js';

/** The origin links in answers to this request are built on (lib/network/link-origin.ts). */
export function requestLinkOrigin(app: App, ctx: Koa.Context): string {
  const socket = ctx.req.socket as typeof ctx.req.socket & { encrypted?: boolean };
  return linkOrigin({
    configured: app.config.publicUrl,
    scheme: socket.encrypted === true ? 'https' : 'http',
    hostname: ctx.hostname,
    port: socket.localPort ?? 0,
    listen: app.config.listenAddress,
    interfaces: app.config.networkInterfaces(),
  });
}
