/**
 * The short way for the commonest request there is: a long-poll (GET /api/v1/events, or
 * /json/events from the web app) that will wait for an event. It is read straight off Node's
 * request, without Koa's context and middleware chain, which a parked poll would otherwise hold
 * (about 13 KB each) and unwind when woken: Zulip, too, serves events apart from the rest of
 * its API (Tornado beside Django). Anything else, and any poll this path would refuse or
 * answer at once, goes through Koa unchanged, which answers it exactly as before, errors
 * included: this path only ever parks a valid poll, changes nothing before it knows it will
 * (but the acknowledgement, which the view would make the same), and writes the same answer the
 * Koa view writes for it. It repeats the checks Koa's stack makes before the view (realm, plain
 * HTTP gate, auth per path, no rate limit on polls): a middleware added there must be added here.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { App } from '../context.js';
import { basicUser } from '../http/auth.js';
import { redirectedToHttps } from '../http/plain-http.js';
import { plainSessionUser } from '../http/session-auth.js';
import { Params } from '../params/params.js';
import { acknowledgePoll, answerOnSocket, pollWaits, readPoll, startPoll, waitForEvents, type Poll } from './events.js';

const PATHS: ReadonlyMap<string, 'basic' | 'session'> = new Map([
  ['/api/v1/events', 'basic'],
  ['/json/events', 'session'],
]);

/** Characters that make parseurl (Koa's) read a URL with url.parse, which may split its query elsewhere. */
const ODD_URL = /[\t\n\f\r #\u00a0\ufeff]/;

/** Node's request listener: polls that park here, the rest to `next` (Koa's). */
export function directPolls(app: App, next: RequestListener): RequestListener {
  return (req, res) => {
    if (req.method !== 'GET' || !takePoll(app, req, res)) void next(req, res);
  };
}

/**
 * The poll, when it is valid and will wait; null when Koa should answer it. Changes nothing but
 * the acknowledgement, which Koa's view then repeats to no further effect. (A poll that goes to Koa
 * is checked twice: a few microseconds, on polls that answer at once or are refused.)
 */
function waitingPoll(app: App, req: IncomingMessage): Poll | null {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const scheme = PATHS.get(path);
  // A GET's body, if any, is not read (Koa's body parser skips GET too): its parameters are in the query.
  // Koa reads a URL with a fragment or white space in it another way (parseurl falls back to url.parse).
  if (scheme === undefined || ODD_URL.test(url) || app.store.realm.data.realm === null || redirectedToHttps(app, req.socket, path)) return null;
  let poll: Poll;
  try {
    const header = req.headers.authorization;
    const user = scheme === 'session' ? plainSessionUser(app, req.headers.cookie) : header ? basicUser(app, header, false) : null;
    if (user === null) return null;
    poll = readPoll(app, user, Params.from(q < 0 ? '' : url.slice(q + 1), undefined));
  } catch {
    return null;
  }
  // Acknowledging again through Koa changes nothing, so a poll with events waiting can still go that way.
  if (acknowledgePoll(poll) !== null || !pollWaits(app, poll)) return null;
  return poll;
}

function takePoll(app: App, req: IncomingMessage, res: ServerResponse): boolean {
  const poll = waitingPoll(app, req);
  if (poll === null) return false;
  startPoll(app, poll);
  const socket = req.socket;
  if (socket.destroyed) {
    answerOnSocket(app, res, poll, 'closed');
    return true;
  }
  waitForEvents(app, poll.queue, socket, (reason) => {
    try {
      answerOnSocket(app, res, poll, reason);
    } catch (err) {
      // Outside Koa here: the client gets a closed connection (and polls again), the log the reason.
      app.log.error('a parked poll failed', { queue: poll.queue.id, error: String(err) });
      res.destroy();
    }
  });
  return true;
}
