import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { decodeJson, t, type ParamType } from '../params/params.js';
import { v } from '../params/validate.js';
import { LIMITS, versionFields } from '../version.js';
import { baseUrl } from './common.js';
import { wantFrom } from '../events/state.js';
import { channelById } from '../lib/channels/access.js';
import { webPublicChannels } from '../lib/channels/queries.js';
import { isGuest } from '../lib/people/people.js';
import { pairsFromTerms, parseNarrow } from '../lib/messages/narrow-terms.js';

export const IDLE_TIMEOUT = { DEFAULT: 600, MAX: 7 * 24 * 3600, MOBILE: 12 * 3600 } as const;

const idleTimeout: ParamType<number> = {
  read(raw, name) {
    if (raw === 'mobile') return IDLE_TIMEOUT.MOBILE;
    const n = decodeJson(raw, name);
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw errors.badRequest(`${name} is not an integer`);
    if (n <= 0) throw errors.badRequest(`${name} must be a positive number of seconds or "mobile"`);
    return Math.min(n, IDLE_TIMEOUT.MAX);
  },
};

const includeSubscribers: ParamType<'true' | 'false' | 'partial'> = {
  read(raw, name) {
    const s = raw.replace(/^"(.*)"$/, '$1');
    if (s === 'true' || s === 'false' || s === 'partial') return s;
    throw errors.invalidVar(name, `Invalid ${name}: must be true, false or partial`);
  },
};

/**
 * Narrows in the legacy `[["stream","x"]]` form or as `{operator, operand, negated}` dicts, read
 * by the parser GET /messages uses (register's syntax), kept on the queue as string pairs.
 */
const narrow: ParamType<string[][]> = { read: (raw, name) => pairsFromTerms(parseNarrow(raw, name, 'register')) };

/**
 * POST /register: allocate the queue, then take the state snapshot in the same
 * synchronous step (changes still being written are marked on the queue so
 * their events are not delivered twice), then answer with `last_event_id`.
 */
export function register(req: ApiRequest): ViewResult {
  const { app, params, user } = req;
  const anonymous = user === null;
  // Spectators only in a web-public organization (Zulip's allow_web_public_streams_access:
  // the server switch, spectator access and at least one web-public channel), as GET /users.
  if (anonymous && webPublicChannels(app).length === 0) throw errors.unauthorized();

  const applyMarkdown = params.get('apply_markdown', t.bool, false);
  const clientGravatar = params.get('client_gravatar', t.bool, !anonymous);
  const subscribers = params.get('include_subscribers', includeSubscribers, 'false');
  // Zulip: presence_last_update_id (only changes since it) or the simplified_presence_events capability mean the slim form.
  const presenceSince = params.get('presence_last_update_id', t.int);
  const presenceDays = params.get('presence_history_limit_days', t.int, 14);
  const eventTypes = params.get('event_types', t.json(v.nullable(v.list(v.str))), null);
  const fetchEventTypes = params.get('fetch_event_types', t.json(v.nullable(v.list(v.str))), null);
  // Zulip's _default_all_public_streams and _default_narrow: a bot's defaults apply when the client sends none.
  const botDefaults = user?.bot_settings;
  const allPublicStreamsParam = params.get('all_public_streams', t.bool);
  const allPublicStreams = allPublicStreamsParam ?? botDefaults?.default_all_public_streams ?? false;
  let narrowed = params.get('narrow', narrow, []);
  const defaultStream = botDefaults?.default_events_register_stream_id;
  if (!narrowed.length && defaultStream != null) {
    const c = channelById(app, defaultStream);
    if (c) narrowed = [['stream', c.name]];
  }
  const idle = params.get('idle_queue_timeout', idleTimeout, IDLE_TIMEOUT.DEFAULT);
  const capabilities = params.get('client_capabilities', t.json(v.record(v.bool)), {});
  const slimPresence = params.get('slim_presence', t.bool, false) || presenceSince !== undefined || capabilities.simplified_presence_events === true;
  params.get('queue_lifespan_secs', t.int, 0); // validated as Zulip does; queues live by idle_queue_timeout

  // Zulip's can_access_public_streams: guests may not follow every public channel.
  if (user && allPublicStreamsParam && isGuest(user)) throw errors.badRequest('User not authorized for this query');
  if (anonymous && clientGravatar) throw errors.badRequest("Invalid 'client_gravatar' parameter for anonymous request");
  if (anonymous && subscribers === 'true') {
    throw errors.badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  }

  const fetchTypes = fetchEventTypes ?? eventTypes;
  const want = wantFrom(fetchTypes);
  const queueOptions = {
    userId: user?.id ?? null,
    eventTypes: eventTypes === null ? null : new Set(eventTypes),
    narrow: narrowed,
    allPublicStreams,
    clientCapabilities: capabilities,
    applyMarkdown,
    clientGravatar,
    slimPresence,
    idleTimeoutSecs: idle,
  };

  // Allocation and snapshot happen in one synchronous step.
  const queue = anonymous ? null : app.events.allocate(queueOptions);
  const state = app.state.snapshot(
    {
      app,
      user,
      queue: queueOptions,
      includeSubscribers: subscribers,
      presenceHistoryLimitDays: presenceDays,
      presenceSinceUpdateId: presenceSince,
      baseUrl: baseUrl(req),
    },
    want,
  );
  return {
    queue_id: queue?.id ?? null,
    last_event_id: queue?.lastEventId ?? -1,
    ...(queue ? { idle_queue_timeout_secs: idle } : {}),
    event_queue_longpoll_timeout_seconds: LIMITS.event_queue_longpoll_timeout_seconds,
    ...versionFields(),
    ...state,
  };
}
