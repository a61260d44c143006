/**
 * Outermost middleware: each answer waits for the end of the event loop's turn
 * (server/events/turn-end.ts), so the answers to every request read in one turn are written
 * back to back. No timer: an answer made while the turn reads requests goes out in that
 * turn; one made at the turn's end (a poll whose client went away) in the next.
 */
import type Koa from 'koa';
import type { App } from '../context.js';

export function batchAnswers(app: App): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    // A view that answered on the socket itself (a woken poll, through the turn's writes) has nothing to hold back.
    if (ctx.respond !== false) await app.turn.wait();
  };
}
