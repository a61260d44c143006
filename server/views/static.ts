import { readFileSync } from 'node:fs';
import type { ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import { own } from '../lib/own.js';

/** Files under server/static, by exact name only (no paths, so no traversal). */
const FILES: Record<string, string> = {
  'hearth-icon.png': 'image/png',
  // The inline image preview's placeholder while its thumbnail is made (Zulip's path, Hearth's own spinner).
  'loader-black.svg': 'image/svg+xml',
};

export function staticFile(req: ApiRequest): void {
  const name = req.path.name ?? '';
  const type = own(FILES, name);
  if (!type) throw errors.notFound('Not Found');
  const data = readFileSync(new URL(`../static/${name}`, import.meta.url));
  req.koa.set('Cache-Control', 'public, max-age=86400');
  req.koa.type = type;
  req.koa.body = data;
}
