import type { ApiRequest } from '../../context.js';
import { lanUrls } from './lan-urls.js';

/** LAN URLs of this server: from the address it listens on, else the port the request reached. */
export function serverLanUrls(req: ApiRequest): string[] {
  const listen = req.app.config.listenAddress;
  if (listen) return lanUrls(listen.host, listen.port);
  return lanUrls('0.0.0.0', req.koa.req.socket.localPort ?? 0);
}
