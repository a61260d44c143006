/**
 * Errors as a page for people: a browser that opens a dead link, a file that is gone or a
 * page it may not see gets a short HTML page (what happened, a way back to the chat) instead
 * of the JSON error body that API clients get. API and /json/ paths always answer JSON, as
 * Zulip's do; so does anything that did not ask for HTML.
 */
import type Koa from 'koa';
import { escapeHtml } from '../protocol/html.js';
import { setPageHeaders } from './page-headers.js';

const TITLES: Record<number, string> = {
  400: 'That address is not right',
  401: 'You need to sign in',
  403: 'You may not open this',
  404: 'Page not found',
  405: 'Page not found',
  413: 'That was too large',
  429: 'Too many requests',
  431: 'That address is too long',
};

/** A browser's navigation (GET of a page that asked for HTML), not an API call or a script's fetch. */
export function wantsPage(ctx: Koa.Context): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  if (/^\/(api|json)(\/|$)/.test(ctx.path)) return false;
  return /\btext\/html\b/.test(ctx.get('Accept'));
}

/** What to say when the server's message is only the status's name. */
const GENERIC = /^(not found|method not allowed|bad request)$/i;
const NOT_FOUND_TEXT = 'The address may be mistyped, or what it pointed to has been removed.';

const titleOf = (status: number) => TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'That did not work');

/** Replaces a JSON error answer with the page for the same status. */
export function renderErrorPage(ctx: Koa.Context): void {
  const body = ctx.body as { msg?: unknown } | null;
  const given = typeof body?.msg === 'string' ? body.msg : '';
  const msg = GENERIC.test(given) ? (ctx.status === 404 || ctx.status === 405 ? NOT_FOUND_TEXT : '') : given;
  const status = ctx.status;
  const title = titleOf(status);
  const detail = status >= 500 ? 'Hearth could not answer. Try again in a moment; if it keeps happening, tell whoever runs this server.' : msg;
  setPageHeaders(ctx);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.status = status;
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Hearth</title><link rel="icon" href="/static/hearth-icon.png"><link rel="stylesheet" href="/help/help.css"></head>
<body><main class="page" id="main"><h1>${escapeHtml(title)}</h1>
${detail ? `<p>${escapeHtml(detail)}</p>` : ''}
<p class="muted">Error ${status}</p>
<p><a href="/">Go to Hearth</a></p>
</main></body></html>`;
}
