import type Koa from 'koa';
import { HearthError } from '../errors.js';
import type { Logger } from '../log.js';
import type { ErrorCode } from '../protocol/error-codes.js';
import { renderErrorPage, wantsPage } from './error-page.js';

const errorBody = (msg: string, code: ErrorCode, extra: Record<string, unknown> = {}) => ({
  result: 'error',
  msg,
  code,
  ...extra,
});

const isErrorBody = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { result?: unknown }).result === 'error';

/**
 * Outermost middleware: every error answer is JSON. HearthErrors become Zulip error
 * bodies; body-parser errors keep their 4xx status; anything else is a 500
 * with details only in the log. A browser opening a page gets the same error as a
 * page for people (http/error-page.ts).
 */
export function envelope(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    await answer(ctx, next, log);
    if (ctx.status >= 400 && isErrorBody(ctx.body) && wantsPage(ctx)) renderErrorPage(ctx);
  };
}

async function answer(ctx: Koa.Context, next: Koa.Next, log: Logger): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (err instanceof HearthError) {
      ctx.status = err.status;
      for (const [k, val] of Object.entries(err.headers)) ctx.set(k, val);
      ctx.body = errorBody(err.message, err.code, err.extra);
      return;
    }
    // co-body's errors carry `status`; formidable's (multipart) carry `httpCode`.
    const status = (err as { status?: unknown }).status ?? (err as { httpCode?: unknown }).httpCode;
    const expose = (err as { expose?: unknown }).expose;
    if (typeof status === 'number' && status >= 400 && status < 500 && expose !== false) {
      ctx.status = status;
      ctx.body =
        status === 413
          ? errorBody('Request body too large', 'BAD_REQUEST')
          : errorBody(`Bad request: ${(err as Error).message}`, 'BAD_REQUEST');
      return;
    }
    log.error('internal server error', {
      method: ctx.method,
      path: ctx.path,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    ctx.status = 500;
    ctx.body = { result: 'error', msg: 'Internal server error' };
  }
}

export const notFound = () => errorBody('Not Found', 'BAD_REQUEST');
export const methodNotAllowed = (allowed: string[]) => ({
  ...errorBody('Method Not Allowed', 'BAD_REQUEST'),
  allowed_methods: allowed,
});
