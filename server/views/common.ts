/** What views share about a request: path integers and the origin links are built on. */
import type { ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import { requestLinkOrigin } from '../http/link-origin.js';

/** A positive integer path parameter. */
export function pathInt(req: ApiRequest, name: string): number {
  const raw = req.path[name] ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw errors.invalidVar(name, `Invalid ${name}`);
  return Number(raw);
}

/**
 * `scheme://host:port` for links: the configured address, or the request's when its host names
 * this computer, else the computer's LAN address; never a forged `Host` (lib/network/link-origin.ts).
 */
export function baseUrl(req: ApiRequest): string {
  return requestLinkOrigin(req.app, req.koa);
}
