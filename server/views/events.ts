import { eventsJson } from '../events/serialize.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import type { EventQueue } from '../events/queue.js';
import { requireUser } from './common.js';

function ownQueue(req: ApiRequest): EventQueue {
  const user = requireUser(req);
  const queueId = req.params.require('queue_id', t.string);
  const queue = req.app.events.get(queueId);
  // As Zulip: another user's queue is answered like a missing one, so its existence does not leak.
  if (!queue || queue.userId !== user.id) throw errors.badQueue(queueId);
  return queue;
}

/**
 * GET /events: acknowledge through `last_event_id`, then answer at once with
 * what is pending, or park until an event, a heartbeat (after a minute idle),
 * a newer poll on the same queue, or shutdown.
 */
export async function getEvents(req: ApiRequest): Promise<ViewResult | void> {
  const lastEventId = req.params.get('last_event_id', t.int);
  const dontBlock = req.params.get('dont_block', t.bool, false);
  req.params.accept('user_client', 'slim_presence', 'apply_markdown', 'client_gravatar');
  // As Zulip's fetch_events: polling a queue needs last_event_id, checked before the queue is looked up.
  if (req.params.has('queue_id') && lastEventId === undefined) {
    throw errors.badRequest("Missing 'last_event_id' argument");
  }
  const queue = ownQueue(req);
  if (lastEventId !== undefined) {
    const problem = queue.acknowledge(lastEventId);
    if (problem) throw errors.badRequest(problem);
  }
  // Any accepted poll, even a non-blocking one, finishes the one parked before it (Zulip's finish_current_handler).
  queue.supersede();
  queue.lastActivity = req.app.clock.now();
  if (queue.pending === 0 && !dontBlock) {
    const raw = req.koa.req;
    // The client already hung up (e.g. while its request waited for a body or the queue lookup): don't park.
    if (raw.socket?.destroyed) return { events: [], queue_id: queue.id };
    const reason = await queue.park(req.app.events.config.heartbeatMs, (cb) => {
      raw.socket?.once('close', cb);
      return () => raw.socket?.off('close', cb);
    });
    if (reason === 'heartbeat') queue.push({ type: 'heartbeat' });
    if (reason === 'closed') return { events: [], queue_id: queue.id };
    if (reason === 'event') return answerWoken(req, queue);
  }
  return { events: queue.contents(), queue_id: queue.id };
}

/**
 * A woken poll answers straight on the socket: one event can wake thousands
 * of polls at once, and Koa's response machinery was most of the cost of each.
 * The body is exactly what the router would have sent.
 */
function answerWoken(req: ApiRequest, queue: EventQueue): void {
  const ignored = req.params.ignored();
  // The events' text is assembled, sharing each message's JSON between the polls it wakes.
  const body = `{"result":"success","msg":"","events":${eventsJson(queue.held())},"queue_id":${JSON.stringify(queue.id)}${
    ignored.length ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : ''
  }}`;
  const res = req.koa.res;
  req.koa.respond = false;
  // Written with the turn's other woken polls, after the answers already on their way (the sender's).
  req.app.turn.write(() => {
    try {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    } catch (err) {
      // Outside Koa here: the client gets a closed connection (and polls again), the log the reason.
      req.app.log.error('a woken poll could not be answered', { queue: queue.id, error: String(err) });
      res.destroy();
    }
  });
}

export function deleteQueue(req: ApiRequest): ViewResult {
  const queue = ownQueue(req);
  req.app.events.delete(queue.id);
  return {};
}
