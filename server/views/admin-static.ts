/**
 * The admin UI (renderer/) served at /admin/. Safe by construction:
 * - a request names one file by a strict pattern (no slashes, no `..`), and only files that
 *   exist in renderer/ (or the two allow-listed vendor files) are served: no traversal;
 * - renderer TypeScript (`X.ts`) is served as `X.js`, compiled by esbuild on first request (a
 *   packaged app ships tsc's `X.js` instead, which is served as is);
 * - every answer carries a strict Content-Security-Policy (no inline script or style, only
 *   this server), nosniff, no framing, no referrer.
 */
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App, ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import type { StaticAsset } from '../lib/runtime/static-files.js';
import { setPageHeaders } from '../http/page-headers.js';
import { own } from '../lib/own.js';


const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
};

const NAME = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9_-]+)*\.(html|css|js|mjs|svg|png|ico)$/;

const RENDERER_DIR = fileURLToPath(new URL('../../renderer/', import.meta.url));

const require = createRequire(import.meta.url);
/** Package files the page loads, by the name it asks for (resolved lazily: a missing package is a 404). */
const VENDOR: Record<string, () => string> = {
  'purify.min.js': () => require.resolve('dompurify/dist/purify.min.js'),
  'uqr.mjs': () => join(dirname(require.resolve('uqr')), 'index.mjs'),
};

type Asset = StaticAsset;

/** The server's record of the renderer's file names and what was already read or compiled. */
function cacheOf(app: App) {
  const files = app.staticFiles;
  files.adminNames ??= readdir(RENDERER_DIR).then((list) => new Set(list), () => new Set<string>());
  return { names: files.adminNames, assets: files.adminAssets };
}

/** Whether files are re-read on each request (while developing the UI: HEARTH_DEV_RENDERER=1). */
const live = () => process.env.HEARTH_DEV_RENDERER === '1';

async function compileTs(path: string): Promise<Buffer> {
  const source = await readFile(path, 'utf8');
  // esbuild is a development dependency: present from `npm ci`; a packaged app ships compiled .js.
  const esbuild = await import('esbuild');
  const out = await esbuild.transform(source, { loader: 'ts', format: 'esm', target: 'es2022', sourcefile: path });
  return Buffer.from(out.code);
}

async function loadRendererFile(names: Set<string>, name: string): Promise<Asset | null> {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  const type = TYPES[ext]!;
  if (names.has(name)) return { body: await readFile(join(RENDERER_DIR, name)), type };
  const ts = name.replace(/\.js$/, '.ts');
  if (ext === 'js' && names.has(ts) && !ts.endsWith('.d.ts')) {
    return { body: await compileTs(join(RENDERER_DIR, ts)), type };
  }
  return null;
}

async function loadAsset(app: App, key: string): Promise<Asset | null> {
  const cache = cacheOf(app);
  const cached = cache.assets.get(key);
  if (cached && !live()) return cached;
  let found: Promise<Asset | null>;
  if (key.startsWith('vendor/')) {
    const resolve = own(VENDOR, key.slice('vendor/'.length));
    if (!resolve) return null;
    found = Promise.resolve()
      .then(() => readFile(resolve()))
      .then((body) => ({ body, type: TYPES.js! }));
  } else {
    const names = live() ? new Set(await readdir(RENDERER_DIR)) : await cache.names;
    if (!names.has(key) && !names.has(key.replace(/\.js$/, '.ts'))) return null;
    found = loadRendererFile(names, key);
  }
  const asset = await found.catch((err: unknown) => {
    app.log.error('admin UI file failed to load', { file: key, error: String(err) });
    throw errors.notFound('Not Found');
  });
  if (!asset) return null;
  cache.assets.set(key, Promise.resolve(asset));
  return asset;
}

async function serve(req: ApiRequest, key: string): Promise<void> {
  const asset = await loadAsset(req.app, key);
  if (!asset) throw errors.notFound('Not Found');
  setPageHeaders(req.koa);
  req.koa.set('Cache-Control', 'no-cache');
  req.koa.type = asset.type;
  req.koa.body = asset.body;
}

const search = (req: ApiRequest) => (req.koa.querystring ? `?${req.koa.querystring}` : '');

/** GET / and GET /admin: to the admin UI (keeping the query, e.g. `?setup_token=`). */
export function redirectToAdmin(req: ApiRequest): void {
  req.koa.status = 302;
  req.koa.redirect(`/admin/${search(req)}`);
}

/** GET /admin/: the admin UI's page. */
export const adminIndex = (req: ApiRequest) => serve(req, 'index.html');

/** GET /admin/{file}: one file of renderer/. */
export function adminFile(req: ApiRequest): Promise<void> {
  const name = req.path.file ?? '';
  if (!NAME.test(name) || name.includes('..')) throw errors.notFound('Not Found');
  return serve(req, name);
}

/** GET /admin/vendor/{file}: an allow-listed file from a package (DOMPurify, the QR encoder). */
export function adminVendorFile(req: ApiRequest): Promise<void> {
  const name = req.path.file ?? '';
  if (!Object.hasOwn(VENDOR, name)) throw errors.notFound('Not Found');
  return serve(req, `vendor/${name}`);
}
