import type { RealmExports } from './export/export-state.js';
import type { CustomEmojiSource } from './lib/emoji/reaction.js';
import type { PresenceBook } from './lib/people/presence-book.js';
import type { BackupRunner } from './lib/runtime/backup.js';
import type { StaticFiles } from './lib/runtime/static-files.js';
import type { StorageHealth } from './lib/runtime/storage-health-state.js';
import type { OutgoingWebhookState } from './lib/people/outgoing-webhook-state.js';
import type { ThumbnailQueue } from './lib/uploads/thumbnail-queue.js';
import type { HearthCalls } from './lib/calls/state.js';
import type { RetentionState } from './lib/messages/retention-state.js';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { NetworkInterfaceInfo } from 'node:os';
import type { ApiRateLimiter } from './auth/api-rate-limit.js';
import type Koa from 'koa';
import type { Clock } from './clock.js';
import type { EventQueues } from './events/queues.js';
import type { TurnEnd } from './events/turn-end.js';
import type { QueueOptions } from './events/queue.js';
import type { Want } from './events/want.js';
import type { Params } from './params/params.js';
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
  /** A request body that sends nothing for this long is answered 408 and its connection closed (one minute). */
  bodyStallMs: number;
  /**
   * A request body not sent by someone signed in (sign-in forms, setup, invitations, and any request
   * refused before its body is read) must arrive whole within this long of its head, or it is answered
   * 408 and its connection closed (30 s); 0: no limit. A signed-in person's body has only bodyStallMs.
   */
  anonymousBodyMs: number;
  /**
   * A TLS handshake (on the HTTPS port, or one the HTTP port handed over) not finished within this
   * long closes its connection (10 s; Node's own default is two minutes).
   */
  tlsHandshakeMs: number;
  /**
   * Most connections one remote address may hold open at once (100), whatever they are doing; past
   * it an idle kept-alive one of that address is closed to make room, or else the new one is answered
   * 429. 0: no cap. See server/http/connections.ts.
   */
  connectionsPerAddress: number;
  /** Whether loopback (this computer: the desktop window, a local proxy) is capped too (false; tests set it). */
  capLoopbackConnections: boolean;
  /** Largest accepted form body (fields), in bytes. */
  bodyLimitBytes: number;
  /**
   * Largest file a multipart body may carry, in bytes (files spool to disk, not memory): the
   * ceiling for the organization's `max_file_upload_size_mib`, which the upload views enforce.
   */
  fileLimitBytes: number;
  /** MiB each guest may upload in any 24 hours (100); the owners' `hearth_guest_upload_mib_per_day` overrides it. */
  guestUploadMibPerDay: number;
  /**
   * Free space (MiB) uploads leave on the data dir's disk (1024): an upload that would leave less is
   * refused, so a full disk never stops messages being saved. 0: not checked.
   */
  uploadDiskReserveMib: number;
  /** When this server started (ms since the epoch), for the status page. */
  startedAt: number;
  /** Zulip's WEB_PUBLIC_STREAMS_ENABLED: web-public channels allowed at all (default false). */
  webPublicStreamsEnabled: boolean;
  /**
   * One-time token that lets a non-loopback client run first-run setup (`hearth serve` prints it;
   * the desktop window passes it). null: setup only from loopback. Cleared once setup succeeds.
   */
  setupToken: string | null;
  /**
   * How long one POST /streams/{id}/delete_topic may keep deleting batches before it answers
   * `complete: false` for the client to repeat (Zulip: 50 s, under its 60 s request timeout).
   */
  topicDeleteBudgetMs: number;
  /**
   * The address links are built on (`hearth serve --url`, `HEARTH_URL`: an origin such as
   * `http://chat.office.lan:9991`), for an office that reaches the server by a name of its own.
   * null: the request's host when it names this computer, else its LAN address; never any other
   * `Host` header (lib/network/link-origin.ts).
   */
  publicUrl: string | null;
  /** The address the server listens on (set by listen()), for LAN URLs; null before. */
  listenAddress: { host: string; port: number } | null;
  /** The HTTPS listener's address (set by listenTls()); null while HTTPS is off. */
  tlsAddress: { host: string; port: number } | null;
  /**
   * Zulip's API rate limit, requests a minute per user (or per address for anonymous API
   * calls); 0 turns it off. The organization's `hearth_api_rate_limit` setting overrides it.
   */
  apiRateLimitPerMinute: number;
  /**
   * Zulip's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS (100): when more people than this may
   * see someone, their coming online is not pushed as an event (quadratic work for the event
   * queues when a large office arrives in the morning); clients learn it from their presence pings.
   */
  presenceEventUserLimit: number;
  /** This installation's authority certificate (PEM), served for people to trust; null while HTTPS is off. */
  caCertificate: string | null;
  /**
   * This computer's network interfaces (os.networkInterfaces): a connection from one of their
   * addresses comes from the server computer itself. Tests replace it to play another machine.
   */
  networkInterfaces: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
  /** How long one call to an outgoing webhook may take, in ms (Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS: 10 s). */
  outgoingWebhookTimeoutMs: number;
  /** How long a call that timed out or could not connect waits before it is tried again, in ms (1 s). */
  outgoingWebhookRetryMs: number;
  /** Hearth's calls: a participant whose page sends nothing for this long leaves (8.5 s: two heartbeats missed, pages send one every 3 s; with the 1 s sweep the others see it within 10 s). */
  callHeartbeatTimeoutMs: number;
  /** Hearth's calls: ringing in a direct conversation nobody answers is missed after this long (30 s). */
  callRingTimeoutMs: number;
  /** Hearth's calls: how often the timeouts are checked (1 s). */
  callSweepMs: number;
  /** The retention pass (server/actions/retention.ts): the first one this long after start (10 s), then every `retentionEveryMs` (a day). */
  retentionFirstPassMs: number;
  retentionEveryMs: number;
}

/**
 * Channel lookups other areas need (server/lib/channels/access.ts implements them):
 * canAccess is Zulip's access_stream_by_id, an active channel with content access.
 */
export interface ChannelDirectory {
  /** Whether `userId` may address channel `streamId` (drafts, typing, messages). */
  canAccess(userId: number, streamId: number): boolean;
}

/**
 * What the channels area needs from the messages area (server/lib/messages/hooks.ts implements it).
 */
export interface ChannelMessageStats {
  /** Whether any message of the channel is in a named (non-empty) topic; blocks `empty_topic_only`. */
  hasNamedTopics(streamId: number): boolean;
  /** Average messages per week, rounded; null when there is too little data. */
  weeklyTraffic(streamId: number): number | null;
  /**
   * The channel's oldest message ID, null without history (channel objects'
   * `first_message_id`). Absent: the channel record's stored `first_message_id`.
   */
  firstMessageId?(streamId: number): number | null;
  /**
   * Whether the channel had a message in the last 180 days (Zulip's
   * LAST_ACTIVITY_DAYS_BEFORE_FOR_ACTIVE; channel objects' `is_recently_active`).
   * Absent: the channel record's stored `is_recently_active`.
   */
  isRecentlyActive?(streamId: number): boolean;
}

/**
 * What the uploads area needs from the messages area (server/lib/messages/hooks.ts implements it):
 * who may read the message a file is attached to.
 */
export interface MessageAccess {
  /** Whether `userId` (null: a spectator) may read message `messageId`. */
  canRead(userId: number | null, messageId: number): boolean;
}

/**
 * HTTPS with this installation's own authority while the server runs (server/tls/service.ts
 * implements it; start.ts sets it when HTTPS is on).
 */
export interface TlsControl {
  /** The authority the current one replaced (PEM), for the trust page to name; null when none was. */
  readonly previous: string | null;
  /** This computer's names and addresses the authority may not vouch for (left out of the server certificate). */
  readonly leftOut: string[];
  /** A new authority (new key, local names only) and server certificate in place of the current ones, served at once. */
  replaceAuthority(): Promise<unknown>;
}

/** Everything a request handler may use: built once per server by createApp. */
export interface App {
  store: Store;
  clock: Clock;
  events: EventQueues;
  /** The end of the event loop's turn, where answers go out together (server/events/turn-end.ts). */
  turn: TurnEnd;
  /** The register snapshot's sections (server/events/state.ts's StateRegistry, filled by server/register/). */
  state: RegisterState;
  config: ServerConfig;
  log: Logger;
  rateLimits: LoginLimits;
  /** Counters for the API rate limit (server/auth/api-rate-limit.ts). */
  apiLimiter: ApiRateLimiter;
  channels: ChannelDirectory;
  channelMessages: ChannelMessageStats;
  messageAccess: MessageAccess;
  /** The organization's custom emoji as reactions and statuses resolve them (server/lib/emoji/custom.ts). */
  customEmoji: CustomEmojiSource;
  /** Organization exports (POST /export/realm) and the one in progress. */
  exports: RealmExports;
  /** Backups of the data dir (POST /hearth/backup) and the last one's status. */
  backups: BackupRunner;
  /** Whether writes are refused after a failed one, and the rollback (server/lib/runtime/storage-health-state.ts). */
  storageHealth: StorageHealth;
  /** Calls to outgoing-webhook bots being made, and the worker that makes them (actions/outgoing-webhook-worker.ts). */
  outgoingWebhooks: OutgoingWebhookState;
  /** Presence rows, in memory, saved to presence.json (server/lib/people/presence-book.ts). */
  presence: PresenceBook;
  /** Delivery of due scheduled messages: `running` while a run is sending (one run at a time). */
  scheduledDelivery: { running: boolean };
  /** True while POST /hearth/setup creates the organization (two racing requests must not both win). */
  setupInProgress: boolean;
  /** What was read or built once to hand out: the web app's bundle, the emoji data, the help pages. */
  staticFiles: StaticFiles;
  /** Open connections per remote address and the request bodies being watched (server/http/connections.ts). */
  connections: ConnectionTable;
  /** HTTPS with the installation's authority; null while HTTPS is off. */
  tls: TlsControl | null;
  /**
   * Uploads by guests deleted within a day of their upload (owner, upload time, bytes): they still
   * count against the guest's daily allowance (server/lib/uploads/limits.ts). Kept in memory only.
   */
  deletedGuestUploads: { userId: number; at: number; size: number }[];
  /** Uploaded images waiting for their thumbnails, made one at a time off the request path (server/actions/thumbnails.ts). */
  thumbnails: ThumbnailQueue;
  /** Who is in Hearth's calls and the calls' timer (server/lib/calls/rooms.ts, server/actions/hearth-call-sweeper.ts). */
  calls: HearthCalls;
  /** The daily retention pass: its timers, the pass running and what the last one did (server/actions/retention.ts). */
  retention: RetentionState;
}

/** One open connection, as the per-address cap sees it (server/http/connections.ts). */
export interface OpenConnection {
  /** The socket HTTP is read from: the TCP socket, then the TLS socket once its handshake is done. */
  socket: Socket;
  /** Requests read and not yet answered on it (a parked long-poll is one). */
  busy: number;
  /** Requests answered on it: idle after one, it is a kept-alive connection, the first closed to make room. */
  answered: number;
  /** Opened past the cap: its request is answered 429 and it is closed. */
  overCap: boolean;
}

export interface ConnectionTable {
  /** Per remote address (loopback only with config.capLoopbackConnections), its open connections, oldest first. */
  byAddress: Map<string, Set<OpenConnection>>;
  /** The entry of a socket (TCP, or TLS once its handshake is done). */
  bySocket: WeakMap<Socket, OpenConnection>;
  /** A request body until it is whole: `signedIn` once the route's auth found someone, `cut` once answered 408. */
  bodies: WeakMap<IncomingMessage, { signedIn: boolean; cut: boolean }>;
}

/** What a state section sees when `POST /register` takes its snapshot. */
export interface SnapshotContext {
  app: App;
  /** null for a spectator (unauthenticated register). */
  user: UserRecord | null;
  queue: QueueOptions;
  includeSubscribers: 'true' | 'false' | 'partial';
  presenceHistoryLimitDays: number;
  /** `presence_last_update_id`: only presence changed after it. */
  presenceSinceUpdateId?: number;
  /** Base URL of the request (`http://host:port`), for URLs in the state. */
  baseUrl: string;
}

/** What `POST /register` asks of `app.state` (server/events/state.ts implements it). */
export interface RegisterState {
  /** Every want-name some section answers. */
  wantNames(): Set<string>;
  /** The sections `want` asks for, fetched in one synchronous step. */
  snapshot(ctx: SnapshotContext, want: Want): Record<string, unknown>;
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
