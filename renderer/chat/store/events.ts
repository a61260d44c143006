/**
 * Live updates: `POST /register` fills the store and allocates an event queue, then
 * `GET /events` long-polls it. A lost queue (`BAD_EVENT_QUEUE_ID`: the server restarted
 * or the queue expired) means registering again and reloading what is shown; a dropped
 * network means "Reconnecting…", and a server that takes connections but answers nothing
 * (frozen, overloaded) is noticed by a watchdog within about 15 s: "Hearth is not answering".
 * Either way the next try is at most 2 s away (with a countdown and "Try now"), so the page is
 * back within 2 s of the server. Nothing is lost or shown twice: after a re-register every feed
 * is fetched afresh.
 */
import type { ClientEvent } from '../../../server/protocol/events.js';
import type { RegisterState } from '../../../server/protocol/register.js';
import { ApiError, call, get } from './api.js';
import { applyEvent } from './apply-event.js';
import { loadRecentConversations } from '../messages/feeds.js';
import { loadState } from './load-state.js';
import { REGISTER_PARAMS } from './register-params.js';
import { store } from './state.js';

interface Queue {
  id: string;
  lastEventId: number;
}

/** The queue, whether polling stopped, which start() is the live one, and its pending long-poll (stop() aborts it). */
const queue: { current: Queue | null; stopped: boolean; generation: number; poll: AbortController | null } = { current: null, stopped: false, generation: 0, poll: null };

/** The server took the connection but did not answer in time. */
class NotAnswering extends Error {}

/** Called after each (re-)register, so views can refetch what they show. */
export const onReload = new Set<() => void>();
/** Called before a re-register clears the store, so views can note where the reader is. */
export const beforeReload = new Set<() => void>();

/** A register that takes longer is given up as "not answering" (a large organization registers in about a second). */
const REGISTER_TIMEOUT_MS = 20_000;

async function register(): Promise<void> {
  const gaveUp = new AbortController();
  const timer = setTimeout(() => gaveUp.abort(), REGISTER_TIMEOUT_MS);
  const res = await call<RegisterState>('POST', '/register', REGISTER_PARAMS, { signal: gaveUp.signal }).catch((err: unknown) => {
    throw gaveUp.signal.aborted ? new NotAnswering() : err;
  }).finally(() => clearTimeout(timer));
  loadState(res);
  queue.current = { id: String(res.queue_id), lastEventId: Number(res.last_event_id) };
  store.ready.value = true;
  void loadRecentConversations();
  for (const f of onReload) f();
}

/** Longest pause between tries while the server is away: back within 2 s of its return. */
const MAX_PAUSE_MS = 2_000;
/** A long-poll pending this long gets a cheap check beside it (healthy polls wait up to a minute for a heartbeat). */
const WATCH_AFTER_MS = 10_000;
/** How long the cheap check (or register) may take before the server counts as not answering. */
const CHECK_TIMEOUT_MS = 5_000;

/** The pause before the next try; "Try now" ends it early. */
const pause: { wake: (() => void) | null } = { wake: null };

function sleepUntilRetry(ms: number): Promise<void> {
  store.retryAt.value = Date.now() + ms;
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pause.wake = null;
      store.retryAt.value = null;
      resolve();
    };
    const timer = setTimeout(done, ms);
    pause.wake = done;
  });
}

/** "Try now": the next try starts at once. */
export function retryNow(): void {
  pause.wake?.();
}

function giveUpAfter(poll: AbortController, ms: number): () => void {
  const timer = setTimeout(() => poll.abort(new Error('not answering')), ms);
  return () => clearTimeout(timer);
}

/**
 * Watches a pending long-poll: from WATCH_AFTER_MS on, a cheap request (server settings) every few
 * seconds must answer within CHECK_TIMEOUT_MS, else the poll is abandoned as "not answering".
 */
function watchPoll(poll: AbortController): () => void {
  let checking: AbortController | null = null;
  const look = async () => {
    if (checking || document.visibilityState !== 'visible') return;
    checking = new AbortController();
    const gaveUp = setTimeout(() => checking?.abort(), CHECK_TIMEOUT_MS);
    try {
      await get('/server_settings', {}, { signal: checking.signal });
    } catch {
      if (!poll.signal.aborted) poll.abort(new Error('not answering'));
    } finally {
      clearTimeout(gaveUp);
      checking = null;
    }
  };
  const timer = setInterval(() => void look(), WATCH_AFTER_MS);
  return () => {
    clearInterval(timer);
    checking?.abort();
  };
}

/** Registers, then polls until stop(); survives restarts of the server and network loss. */
export async function start(): Promise<void> {
  queue.stopped = false;
  const generation = ++queue.generation;
  let failures = 0;
  while (!queue.stopped && generation === queue.generation) {
    try {
      if (!queue.current) await register();
      const q = queue.current!;
      const poll = new AbortController();
      queue.poll = poll;
      // A retry does not wait for events (dont_block): its answer is due at once.
      const unwatch = failures > 0 ? giveUpAfter(poll, CHECK_TIMEOUT_MS) : watchPoll(poll);
      let res: { events: (ClientEvent & { id: number })[] };
      try {
        res = await get<{ events: (ClientEvent & { id: number })[] }>(
          '/events',
          { queue_id: q.id, last_event_id: q.lastEventId, dont_block: failures > 0 },
          { signal: poll.signal },
        );
      } catch (err) {
        throw poll.signal.aborted ? new NotAnswering() : err;
      } finally {
        unwatch();
      }
      if (generation !== queue.generation) return;
      for (const e of res.events) {
        q.lastEventId = Math.max(q.lastEventId, Number(e.id));
        applyEvent(e);
      }
      failures = 0;
      store.connection.value = 'connected';
    } catch (err) {
      if (generation !== queue.generation) return;
      if (err instanceof ApiError && err.code === 'BAD_EVENT_QUEUE_ID') {
        for (const f of beforeReload) f();
        queue.current = null;
        continue;
      }
      if (err instanceof ApiError && err.status === 401) throw err;
      failures++;
      store.connection.value = err instanceof NotAnswering ? 'not-answering' : 'reconnecting';
      // 0.5 s, 1 s, then about 2 s, with jitter so many browsers do not return at once.
      await sleepUntilRetry(Math.min(MAX_PAUSE_MS, 500 * 2 ** Math.min(failures - 1, 2)) * (0.75 + Math.random() / 4));
    }
  }
}

/**
 * Stops polling (the pending long-poll is abandoned) and releases the queue (sign-out, page close);
 * resolves once the server has answered, so signing out can wait for it while the session still works.
 */
export function stop(): Promise<void> {
  queue.stopped = true;
  queue.generation++;
  queue.poll?.abort();
  queue.poll = null;
  const q = queue.current;
  queue.current = null;
  return q ? call('DELETE', '/events', { queue_id: q.id }).then(() => undefined, () => undefined) : Promise.resolve();
}

/** The queue ID, for sends that want their local echo matched (`queue_id` + `local_id`). */
export const queueId = () => queue.current?.id;
