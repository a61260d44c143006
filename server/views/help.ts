/**
 * Hearth's help center, as Zulip serves its own at /help/: the Markdown pages of renderer/help/
 * (rendered by server/lib/runtime/help-pages.ts) in one layout with the list of pages, readable
 * on a phone and in dark mode, under the pages' strict CSP (no script, one stylesheet). No
 * sign-in and no organization needed: it is documentation, read before setup too.
 * - `/help/` is the index page, `/help/<name>` the page `renderer/help/<name>.md`; names are
 *   `a-z0-9-` only and must be one of the files, so no path leaves renderer/help/.
 * - An unknown page is a 404: for a browser, a page listing the help pages; otherwise JSON.
 */
import { readFile } from 'node:fs/promises';
import type { ApiRequest } from '../context.js';
import { errors } from '../errors.js';
import { wantsPage } from '../http/error-page.js';
import { setPageHeaders } from '../http/page-headers.js';
import { HELP_DIR, helpPage, helpPageNames, type HelpPage } from '../lib/runtime/help-pages.js';
import { escapeHtml } from '../protocol/html.js';

const hrefOf = (name: string) => (name === 'index' ? '/help/' : `/help/${name}`);

/** The list of pages, the current one marked. */
async function navigation(req: ApiRequest, current: string | null): Promise<string> {
  const pages = (await Promise.all((await helpPageNames()).map((n) => helpPage(req.app, n)))).filter((p): p is HelpPage => p !== null);
  const items = pages.map((p) => {
    const label = p.name === 'index' ? 'Help center' : p.title;
    const here = p.name === current ? ' aria-current="page"' : '';
    return `<li><a href="${hrefOf(p.name)}"${here}>${escapeHtml(label)}</a></li>`;
  });
  return `<nav class="help-nav" aria-label="Help pages"><ul>${items.join('')}</ul></nav>`;
}

function send(req: ApiRequest, status: number, title: string, nav: string, main: string): void {
  setPageHeaders(req.koa);
  req.koa.set('Cache-Control', 'no-cache');
  req.koa.status = status;
  req.koa.type = 'text/html; charset=utf-8';
  req.koa.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · Hearth help</title><link rel="icon" href="/static/hearth-icon.png"><link rel="stylesheet" href="/help/help.css"></head>
<body><a class="skip" href="#main">Skip to content</a>
<header class="help-top"><a class="brand" href="/help/">Hearth help</a><a class="to-hearth" href="/">Open Hearth</a></header>
<div class="help-layout">${nav}
<main id="main" class="help-page">
${main}
</main></div></body></html>`;
}

async function show(req: ApiRequest, name: string): Promise<void> {
  const page = await helpPage(req.app, name);
  if (page) return send(req, 200, page.title, await navigation(req, name), page.html);
  if (!wantsPage(req.koa)) throw errors.notFound('There is no such help page.');
  const main = `<h1>No such help page</h1>
<p>There is no help page at this address: it may be mistyped, or the page has moved. The help center's pages are listed here; start with <a href="/help/">the help center</a>.</p>
<p class="muted">Error 404</p>`;
  send(req, 404, 'No such help page', await navigation(req, null), main);
}

/** GET /help: to /help/. */
export function helpRedirect(req: ApiRequest): void {
  req.koa.status = 302;
  req.koa.redirect('/help/');
}

/** GET /help/: the help center's first page. */
export const helpIndex = (req: ApiRequest) => show(req, 'index');

/** GET /help/{page}: one page (`/help/index` is `/help/`). */
export function helpPageView(req: ApiRequest): Promise<void> | void {
  const name = req.path.page ?? '';
  if (name === 'index') return helpRedirect(req);
  return show(req, name);
}

/** GET /help/{anything else}: the same friendly 404 (paths with more segments, encoded slashes, dots). */
export const helpUnknown = (req: ApiRequest) => show(req, '');

/** GET /help/help.css: the help pages' stylesheet. */
export async function helpStyle(req: ApiRequest): Promise<void> {
  const body = await readFile(`${HELP_DIR}help.css`);
  setPageHeaders(req.koa);
  req.koa.set('Cache-Control', 'no-cache');
  req.koa.type = 'text/css; charset=utf-8';
  req.koa.body = body;
}
