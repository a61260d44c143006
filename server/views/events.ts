import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { eventsJson } from '../events/serialize.js';
import type { App, ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t, type Params } from '../params/params.js';
import type { EventQueue, WakeReason } from '../events/queue.js';
import type { UserRecord } from '../store/records.js';
import { requireUser } from '../lib/people/require.js';

function ownQueue(app: App, user: UserRecord, params: Params): EventQueue {
  const queueId = params.require('queue_id', t.string);
  const queue = app.events.get(queueId);
  // As Zulip: another user's queue is answered like a missing one, so its existence does not leak.
  if (!queue || queue.userId !== user.id) throw errors.badQueue(queueId);
  return queue;
}

/** A poll's parameters, read and checked in Zulip's order; nothing has changed yet. */
export interface Poll {
  queue: EventQueue;
  lastEventId: number | undefined;
  dontBlock: boolean;
  params: Params;
}

export function readPoll(app: App, user: UserRecord, params: Params): Poll {
  const lastEventId = params.get('last_event_id', t.int);
  const dontBlock = params.get('dont_block', t.bool, false);
  params.accept('user_client', 'slim_presence', 'apply_markdown', 'client_gravatar');
  // As Zulip's fetch_events: polling a queue needs last_event_id, checked before the queue is looked up.
  if (params.has('queue_id') && lastEventId === undefined) {
    throw errors.badRequest("Missing 'last_event_id' argument");
  }
  return { queue: ownQueue(app, user, params), lastEventId, dontBlock, params };
}

/** Acknowledges through `last_event_id`; the error text when that cannot be done (nothing changed then). Repeating it changes nothing more. */
export function acknowledgePoll(poll: Poll): string | null {
  return poll.lastEventId === undefined ? null : poll.queue.acknowledge(poll.lastEventId);
}

/**
 * Whether the poll, acknowledged, waits for an event rather than answering at once. While the
 * server stops, none waits: a client that polls again on the answer it got at shutdown would
 * otherwise park again and hold the stop until connections are dropped.
 */
export const pollWaits = (app: App, poll: Poll): boolean => poll.queue.pending === 0 && !poll.dontBlock && !app.events.stopping;

/**
 * Takes the poll's place on its queue: any accepted poll, even a non-blocking one, finishes
 * the one parked before it (Zulip's finish_current_handler).
 */
export function startPoll(app: App, poll: Poll): void {
  poll.queue.supersede();
  poll.queue.lastActivity = app.clock.now();
}

/**
 * Parks the poll until an event, a heartbeat (after a minute idle, added to the queue), a newer
 * poll, the socket's close or shutdown; then calls `done` with the reason.
 */
export function waitForEvents(app: App, queue: EventQueue, socket: Socket, done: (reason: WakeReason) => void): void {
  queue.park(
    app.events.config.heartbeatMs,
    (cb) => {
      socket.once('close', cb);
      return () => socket.off('close', cb);
    },
    (reason) => {
      if (reason === 'heartbeat') queue.push({ type: 'heartbeat' });
      done(reason);
    },
  );
}

/**
 * GET /events: acknowledge through `last_event_id`, then answer at once with
 * what is pending, or park until an event, a heartbeat (after a minute idle),
 * a newer poll on the same queue, or shutdown. A poll that parks usually comes
 * the short way instead (events-direct.ts); this is the same poll through Koa.
 */
export async function getEvents(req: ApiRequest): Promise<ViewResult | void> {
  const poll = readPoll(req.app, requireUser(req), req.params);
  const problem = acknowledgePoll(poll);
  if (problem) throw errors.badRequest(problem);
  startPoll(req.app, poll);
  const { queue } = poll;
  // Stopping: the answer closes its connection, so the client's next poll finds the server gone.
  if (req.app.events.stopping) req.koa.set('Connection', 'close');
  if (pollWaits(req.app, poll)) {
    const socket = req.koa.req.socket;
    // The client already hung up (e.g. while its request waited for a body or the queue lookup): don't park.
    if (!socket || socket.destroyed) return { events: [], queue_id: queue.id };
    const reason = await new Promise<WakeReason>((resolve) => waitForEvents(req.app, queue, socket, resolve));
    if (reason === 'closed') return { events: [], queue_id: queue.id };
    if (reason === 'event') {
      answerOnSocket(req.app, req.koa.res, poll, reason);
      // Only once the answer is made: had that thrown, Koa's envelope answers a 500.
      req.koa.respond = false;
      return;
    }
  }
  return { events: queue.contents(), queue_id: queue.id };
}

/**
 * The answer to a parked poll, written straight on the socket: one event can wake thousands
 * of polls at once, and Koa's response machinery was most of the cost of each. The body is
 * exactly what the router would have sent (the events' text assembled, sharing each message's
 * JSON between the polls it wakes). It is written with the turn's other woken polls, after the
 * answers already on their way (the sender's).
 */
export function answerOnSocket(app: App, res: ServerResponse, poll: Poll, reason: WakeReason): void {
  const { queue } = poll;
  const ignored = poll.params.ignored();
  const events = reason === 'closed' ? '[]' : eventsJson(queue.held());
  const body = `{"result":"success","msg":"","events":${events},"queue_id":${JSON.stringify(queue.id)}${
    ignored.length ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : ''
  }}`;
  app.turn.write(() => {
    try {
      const headers: Record<string, string | number> = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) };
      // Stopping: the client's next poll then finds the server gone rather than parking again.
      if (app.events.stopping) headers.Connection = 'close';
      res.writeHead(200, headers);
      res.end(body);
    } catch (err) {
      // Outside Koa here: the client gets a closed connection (and polls again), the log the reason.
      app.log.error('a woken poll could not be answered', { queue: queue.id, error: String(err) });
      res.destroy();
    }
  });
}

export function deleteQueue(req: ApiRequest): ViewResult {
  const queue = ownQueue(req.app, requireUser(req), req.params);
  req.app.events.delete(queue.id);
  return {};
}
