import type Koa from 'koa';
import type { Clock } from './clock.js';
import type { EventQueues } from './events/queues.js';
import type { StateRegistry } from './events/state.js';
import type { Params } from './http/params.js';
import type { LoginLimits } from './auth/rate-limit.js';
import type { Logger } from './log.js';
import type { Store } from './store/store.js';
import type { UserRecord } from './store/records.js';

export interface ServerConfig {
  dataDir: string;
  /** Idle long-polls get a heartbeat event after this long (Zulip: one minute). */
  heartbeatMs: number;
  /** How often idle queues are collected (one minute). */
  gcIntervalMs: number;
  /** Largest accepted form body, in bytes. */
  bodyLimitBytes: number;
  /** When this server started (ms since the epoch), for the status page. */
  startedAt: number;
}

/**
 * Channel lookups other areas need before the channels area exists. The
 * channels issue replaces the default (which accepts any positive ID).
 */
export interface ChannelDirectory {
  /** Whether `userId` may address channel `streamId` (drafts, typing, messages). */
  canAccess(userId: number, streamId: number): boolean;
}

/** Everything a request handler may use: built once per server by createApp. */
export interface App {
  store: Store;
  clock: Clock;
  events: EventQueues;
  state: StateRegistry;
  config: ServerConfig;
  log: Logger;
  rateLimits: LoginLimits;
  channels: ChannelDirectory;
}

/** What a view receives. */
export interface ApiRequest {
  app: App;
  /** The authenticated user, or null for an anonymous request on an endpoint that allows it. */
  user: UserRecord | null;
  params: Params;
  /** Path parameters (`:id` ...), raw strings. */
  path: Record<string, string>;
  koa: Koa.Context;
}

export type ViewResult = Record<string, unknown>;
/** A view returns the success fields, or undefined when it wrote a non-JSON body itself. */
export type View = (req: ApiRequest) => ViewResult | void | Promise<ViewResult | void>;
