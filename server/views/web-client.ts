/**
 * The web app's pages (renderer/, bundled by server/lib/runtime/web-bundle.ts): small HTML pages
 * naming a page's hashed script and style, served with a strict Content-Security-Policy; the hashed
 * files are cached for a year. The chat is at `/`, its organization settings at `/#organization/…`
 * (`/admin/`, where the desktop window opens, is the same page); before an organization exists,
 * `/admin/` is the first-run setup and `/` redirects there. Joining with an invite link is a page of
 * its own (`/join/<key>/`, views/invites.ts).
 */
import type { ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import type { PageName } from '../lib/runtime/static-files.js';
import { webBundle } from '../lib/runtime/web-bundle.js';
import { setPageHeaders } from '../http/page-headers.js';

/** The bundle's content-hashed files: script, stylesheet, KaTeX's fonts (esbuild's `[name]-[hash]`). */
const HASHED = /^(?:(?:chat|setup|join)-[0-9a-f]{12}\.(?:js|css)|chunk-[A-Z0-9]{8}\.js|KaTeX_[A-Za-z0-9]+-[A-Za-z0-9]+-[A-Z0-9]{8}\.woff2)$/;

const TITLES: Readonly<Record<PageName, string>> = { chat: 'Hearth', setup: 'Set up Hearth', join: 'Join Hearth' };

const html = (title: string, script: string, style: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>${title}</title>
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

/** Serves one page of the web app (`chat`, `setup` or `join`). */
export async function servePage(req: ApiRequest, name: PageName): Promise<void> {
  const page = (await webBundle(req.app)).pages[name];
  setPageHeaders(req.koa);
  req.koa.set('Cache-Control', 'no-cache');
  req.koa.type = 'text/html; charset=utf-8';
  req.koa.body = html(TITLES[name], page.script, page.style);
}

/**
 * GET / and GET /admin/: the chat (its organization settings at /admin/), or the first-run setup
 * while there is no organization, at /admin/ (where the desktop window opens): `/` goes there,
 * keeping the query (`?setup_token=`).
 */
export async function chatIndex(req: ApiRequest): Promise<void> {
  if (req.app.store.realm.data.realm) return servePage(req, 'chat');
  if (req.koa.path === '/') return redirectToAdmin(req);
  return servePage(req, 'setup');
}

/** GET /admin: to /admin/ (keeping the query, e.g. `?setup_token=`). */
export function redirectToAdmin(req: ApiRequest): void {
  req.koa.status = 302;
  req.koa.redirect(`/admin/${req.koa.querystring ? `?${req.koa.querystring}` : ''}`);
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
