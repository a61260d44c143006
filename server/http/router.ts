import Router from '@koa/router';
import type Koa from 'koa';
import type { App, View } from '../context.js';
import { errors } from '../errors.js';
import type { AuthPolicy } from './auth-policy.js';
import { authenticateSync, type AuthScheme } from './auth.js';
import { bodyParser } from './body.js';
import { bodyFromSignedIn } from './connections.js';
import { methodNotAllowed, notFound } from './envelope.js';
import { Params } from '../params/params.js';
import { withSessionChallenge } from './session-auth.js';

/** HEAD and OPTIONS only for tus (a GET route answers HEAD itself). */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface Route {
  method: Method;
  /** Full path, e.g. `/api/v1/drafts/:draft_id`. */
  path: string;
  view: View;
  auth: AuthPolicy;
  /** Whether the endpoint needs an organization to exist (default true). */
  needsRealm?: boolean;
  /** Incoming-webhook bots may call it (Zulip: only sending messages and webhooks); default false. */
  incomingWebhookBots?: boolean;
  /** The view reads the request's bytes itself (a tus upload's), so no body parser runs; default false. */
  rawBody?: boolean;
  /** The view bounds its callers itself (a call's signalling, several a second), so the API rate limit does not count it; default false. */
  ownRateLimit?: boolean;
}

const API_PREFIX = '/api/v1/';
const JSON_PREFIX = '/json/';

/**
 * Where a route is served and how callers authenticate there: each `/api/v1/X`
 * route also at `/json/X` (the web client's paths, as Zulip's: the session cookie,
 * never Basic; Basic stays the only way in under /api/v1); a route the table
 * puts under /json/ (login, logout, session) only there; any other path
 * (files, avatars, links opened in a browser) with either.
 */
function servedAt(route: Route): { path: string; scheme: AuthScheme }[] {
  if (route.path.startsWith(API_PREFIX)) {
    return [
      { path: route.path, scheme: 'basic' },
      { path: JSON_PREFIX + route.path.slice(API_PREFIX.length), scheme: 'session' },
    ];
  }
  return [{ path: route.path, scheme: route.path.startsWith(JSON_PREFIX) ? 'session' : 'either' }];
}

/** On /json/ paths a 401 carries Zulip's session challenge, so a browser shows no Basic-auth dialog. */
const sessionChallenge: Koa.Middleware = async (_ctx, next) => {
  try {
    await next();
  } catch (err) {
    throw withSessionChallenge(err);
  }
};

/**
 * Builds the one route table into a @koa/router: per route (at each of its
 * paths, see servedAt), realm check → auth → body (unless rawBody) → view; the view's result
 * becomes `{"result":"success","msg":"",...}` plus
 * `ignored_parameters_unsupported` for parameters it did not read. Unknown
 * paths are JSON 404s; known paths with another method are 405s.
 */
export function buildRouter(app: App, routes: Route[]): Koa.Middleware {
  // The /json/ mirror gets a router of its own, so a request scans only its half's patterns.
  const jsonRouter = new Router();
  const router = new Router();
  const body = bodyParser(app);
  // Fixed paths (most of the API) skip the router's linear scan of every route's pattern.
  const exact = new Map<string, (ctx: Koa.Context) => Promise<void>>();
  for (const route of routes) {
    const view = handler(app, route);
    for (const { path, scheme } of servedAt(route)) {
      const stack = route.rawBody ? [gate(app, route, scheme), view] : [gate(app, route, scheme), body, view];
      if (scheme === 'session') stack.unshift(sessionChallenge);
      (scheme === 'session' ? jsonRouter : router).register(path, [route.method], stack, {});
      if (!/[:*({]/.test(path)) exact.set(`${route.method} ${path}`, chain(stack));
    }
  }
  const routed = router.routes();
  const jsonRouted = jsonRouter.routes();

  return async (ctx, next) => {
    // zulip-js produces `//api/v1/...` when the realm URL ends in a slash.
    if (ctx.path.includes('//')) ctx.path = ctx.path.replace(/\/{2,}/g, '/');
    const fixed = exact.get(`${ctx.method} ${ctx.path}`);
    if (fixed) {
      (ctx as unknown as { params: Record<string, string> }).params = {};
      return fixed(ctx);
    }
    const json = ctx.path.startsWith(JSON_PREFIX);
    let fellThrough = false;
    await (json ? jsonRouted : routed)(ctx as never, async () => {
      fellThrough = true;
    });
    if (!fellThrough) return;
    // Not routed: a known path with another method (405), or nothing here (404).
    const allowed = new Set<string>();
    for (const layer of (json ? jsonRouter : router).match(ctx.path, ctx.method).path) {
      for (const m of layer.methods) if (m !== 'HEAD') allowed.add(m);
    }
    if (allowed.size > 0) {
      const list = [...allowed].sort();
      ctx.status = 405;
      ctx.set('Allow', list.join(', '));
      ctx.body = methodNotAllowed(list);
      return;
    }
    await next();
    if (ctx.body === undefined || ctx.body === null) {
      ctx.status = 404;
      ctx.body = notFound();
    }
  };
}

/**
 * The realm check, then authentication, in one step. The realm check comes
 * first: with no organization yet there are no accounts, so say that rather
 * than "invalid API key".
 */
function gate(app: App, route: Route, scheme: AuthScheme): Koa.Middleware {
  const needsRealm = route.needsRealm !== false;
  const auth = authenticateSync(app, route.auth, { incomingWebhookBots: route.incomingWebhookBots === true, scheme });
  // API calls (not pages, files or avatars) count against the rate limit; long polls do not.
  const limited = scheme !== 'either' && !route.ownRateLimit && !(route.method === 'GET' && route.path === '/api/v1/events');
  return (ctx, next) => {
    if (needsRealm && app.store.realm.data.realm === null) throw errors.noOrganization();
    const go = () => {
      if (limited) rateLimit(app, ctx);
      // Someone signed in: their body may take as long as it keeps coming (http/connections.ts).
      if (ctx.state.user) bodyFromSignedIn(app, ctx.req);
      return next();
    };
    const writing = auth(ctx);
    return writing ? writing.then(go) : go();
  };
}

/** Zulip's rate limit: per user when signed in, per address otherwise (429 with Retry-After). */
function rateLimit(app: App, ctx: Koa.Context): void {
  const limit = app.store.realm.data.realm?.settings.hearth_api_rate_limit ?? app.config.apiRateLimitPerMinute;
  if (!limit) return;
  const user = ctx.state.user as { id: number } | null | undefined;
  const key = user ? `u${user.id}` : `a${ctx.req.socket.remoteAddress ?? ''}`;
  const wait = app.apiLimiter.take(key, limit, app.clock.now());
  if (wait > 0) throw errors.rateLimited(Math.round(wait * 1000) / 1000);
}

/** Runs middleware in order, each calling the next (what koa-compose does, without the dependency). */
function chain(stack: Koa.Middleware[]): (ctx: Koa.Context) => Promise<void> {
  return (ctx) => {
    const step = (i: number): Promise<void> =>
      i === stack.length ? Promise.resolve() : Promise.resolve(stack[i]!(ctx as never, () => step(i + 1)));
    return step(0);
  };
}

function handler(app: App, route: Route): Koa.Middleware {
  return async (ctx) => {
    // After a failed write, nothing is read until memory is rolled back to the disk (lib/runtime/storage-health.ts).
    const rollingBack = app.storageHealth.rollingBack;
    if (rollingBack) await rollingBack;
    // The query string is read here, once (Koa's ctx.query builds an object of it first).
    const params = Params.from(ctx.querystring, (ctx.request as { body?: unknown }).body);
    const result = await route.view({
      app,
      user: ctx.state.user ?? null,
      params,
      path: (ctx as unknown as { params: Record<string, string> }).params ?? {},
      koa: ctx,
    });
    if (result === undefined) return;
    const ignored = params.ignored();
    ctx.status = 200;
    ctx.body = ignored.length
      ? { result: 'success', msg: '', ...result, ignored_parameters_unsupported: ignored }
      : { result: 'success', msg: '', ...result };
  };
}
