/**
 * The chat web client at `/` (renderer/chat/, bundled by server/lib/runtime/web-bundle.ts): a small
 * HTML page naming the hashed script and style, served with the admin pages' strict
 * Content-Security-Policy; the hashed files are cached for a year. Before an organization
 * exists, `/` goes to the admin pages' first-run setup.
 */
import type { ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import { webBundle } from '../lib/runtime/web-bundle.js';
import { setPageHeaders } from '../http/page-headers.js';

/** The bundle's content-hashed files: script, stylesheet, KaTeX's fonts (esbuild's `[name]-[hash]`). */
const HASHED = /^(?:chat-[0-9a-f]{12}\.(?:js|css)|KaTeX_[A-Za-z0-9]+-[A-Za-z0-9]+-[A-Z0-9]{8}\.woff2)$/;

const page = (script: string, style: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>Hearth</title>
    <link rel="icon" href="/static/hearth-icon.png">
    <link rel="stylesheet" href="/static/web/${style}">
    <script type="module" src="/static/web/${script}"></script>
  </head>
  <body>
    <div id="app"><p class="boot" role="status">Loading Hearth…</p></div>
    <noscript><p class="boot">Hearth needs JavaScript to run in this browser.</p></noscript>
  </body>
</html>
`;

/** GET /: the chat, or the first-run setup while there is no organization. */
export async function chatIndex(req: ApiRequest): Promise<void> {
  if (!req.app.store.realm.data.realm) {
    req.koa.status = 302;
    req.koa.redirect(`/admin/${req.koa.querystring ? `?${req.koa.querystring}` : ''}`);
    return;
  }
  const bundle = await webBundle(req.app);
  setPageHeaders(req.koa);
  req.koa.set('Cache-Control', 'no-cache');
  req.koa.type = 'text/html; charset=utf-8';
  req.koa.body = page(bundle.script, bundle.style);
}

/** GET /static/web/{file}: a hashed file of the bundle, cacheable for a year. */
export async function chatAsset(req: ApiRequest): Promise<void> {
  const name = req.path.file ?? '';
  if (!HASHED.test(name)) throw errors.notFound('Not Found');
  const asset = (await webBundle(req.app)).assets.get(name);
  if (!asset) throw errors.notFound('Not Found');
  setPageHeaders(req.koa);
  req.koa.set('Cache-Control', 'public, max-age=31536000, immutable');
  req.koa.type = asset.type;
  req.koa.body = asset.body;
}
