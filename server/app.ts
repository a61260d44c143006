import { removeExportLeftovers } from './export/snapshot.js';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { networkInterfaces as osNetworkInterfaces } from 'node:os';
import Koa from 'koa';
import { ACCOUNT_ALARM_THRESHOLD, AccountAlarm, RateLimiter } from './auth/rate-limit.js';
import { ApiRateLimiter } from './auth/api-rate-limit.js';
import { systemClock, type Clock } from './clock.js';
import type { App, ServerConfig } from './context.js';
import { EventQueues } from './events/queues.js';
import { answerClientErrorsWithJson } from './http/client-errors.js';
import { capConnections, newConnectionTable, requestsWatched } from './http/connections.js';
import { dualPort, withHsts } from './http/dual-port.js';
import { refuseCrossSite } from './http/cross-site.js';
import { envelope } from './http/envelope.js';
import { compressResponses } from './http/compress.js';
import { TurnEnd } from './events/turn-end.js';
import { batchAnswers } from './http/answer-batch.js';
import { plainHttpGate } from './http/plain-http.js';
import { channelMessageStats, messageAccess } from './lib/messages/hooks.js';
import { doEnsureSystemGroups } from './actions/user-groups.js';
import { canAddressChannel } from './lib/channels/access.js';
import { buildRouter } from './http/router.js';
import { directPolls } from './views/events-direct.js';
import { consoleLogger, type Logger } from './log.js';
import { routes, tusRoutes } from './routes.js';
import { buildStateRegistry, installQueueFilters } from './register/index.js';
import type { Store } from './store/store.js';
import { scheduleChannelActivity } from './actions/channel-activity.js';
import { scheduleUnclaimedUploadSweep } from './actions/unclaimed-uploads.js';
import { newPresenceBook } from './lib/people/presence.js';
import { customEmojiSource } from './lib/emoji/custom.js';
import { scheduleMessageDelivery } from './actions/scheduled-messages.js';
import { BackupRunner } from './lib/runtime/backup.js';
import { RealmExports } from './export/export-state.js';
import { restoreQueues, saveQueues } from './lib/runtime/queue-persistence.js';
import { restorePresence, savePresence, schedulePresenceSaves } from './lib/runtime/presence-persistence.js';
import { newStorageHealth } from './lib/runtime/storage-health-state.js';
import { refuseWritesIfDiskFull, startStep } from './lib/runtime/disk-space.js';
import { newStaticFiles } from './lib/runtime/static-files.js';
import { tightenReceivedFiles } from './lib/runtime/file-modes.js';
import { doEnsureNotificationBot } from './actions/notification-bot.js';
import { queueMissingThumbnails } from './actions/thumbnails.js';
import { ThumbnailQueue } from './lib/uploads/thumbnail-queue.js';
import { restrictDecoders } from './lib/uploads/thumbnails.js';
import { newOutgoingWebhookState } from './lib/people/outgoing-webhook-state.js';
import { startOutgoingWebhooks, stopOutgoingWebhooks } from './actions/outgoing-webhook-worker.js';
import { newHearthCalls } from './lib/calls/state.js';
import { saveLiveCalls, startCalls, stopCallTimer } from './actions/hearth-call-sweeper.js';
import { newRetentionState } from './lib/messages/retention-state.js';
import { startRetention, stopRetention } from './actions/retention.js';

export interface CreateAppOptions {
  store: Store;
  clock?: Clock;
  log?: Logger;
  config?: Partial<ServerConfig>;
}

export interface HearthServer {
  app: App;
  koa: Koa;
  /** Starts accepting connections; resolves with the bound address. */
  listen(port: number, host: string): Promise<{ host: string; port: number }>;
  /** Also accepts TLS connections (after listen()), with these credentials; resolves with the bound port. */
  listenTls(port: number, host: string, creds: { key: string; cert: string }): Promise<{ host: string; port: number }>;
  /** New credentials for the TLS listener (a re-issued certificate), for new connections. */
  setTlsCredentials(creds: { key: string; cert: string }): void;
  /** Stops accepting, finishes parked polls and in-flight writes. Leaves the store open. */
  close(): Promise<void>;
}

/** Starts an HTTP(S) server listening, with the envelope for refused requests and long keep-alives; resolves with the port. */
/** Sets a server's limits; `listener` is what accepts the connections (the HTTP server's is the dual port). */
function prepare(app: App, s: Server | HttpsServer, listener: NetServer, sockets: Set<Socket>): void {
  answerClientErrorsWithJson(s as Server);
  // Connections per address, counted and capped (config.connectionsPerAddress, http/connections.ts).
  capConnections(app, listener);
  // Every accepted connection, for stopping: the HTTP servers' own lists leave out one that has not
  // sent its first byte to the dual port yet or is still in its TLS handshake.
  listener.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  s.keepAliveTimeout = 65_000;
  // No limit on a whole request's time: a large upload on a slow link may take long. A body that
  // stops arriving, or one from nobody signed in that takes too long, is cut off instead
  // (config.bodyStallMs and anonymousBodyMs, http/connections.ts), and headers must arrive within
  // Node's headersTimeout (60 s).
  s.requestTimeout = 0;
}

function bind(s: NetServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => {
      s.off('error', reject);
      resolve((s.address() as AddressInfo).port);
    });
  });
}

/** Builds a server around a store; all state lives in the returned instance. */
export function createApp(opts: CreateAppOptions): HearthServer {
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? consoleLogger;
  const config: ServerConfig = {
    dataDir: opts.store.dataDir,
    heartbeatMs: 60_000,
    gcIntervalMs: 60_000,
    bodyLimitBytes: 32 * 1024 * 1024,
    fileLimitBytes: 1024 * 1024 * 1024,
    guestUploadMibPerDay: 100,
    uploadDiskReserveMib: 1024,
    startedAt: clock.now(),
    webPublicStreamsEnabled: false,
    setupToken: null,
    publicUrl: null,
    listenAddress: null,
    tlsAddress: null,
    apiRateLimitPerMinute: 200,
    presenceEventUserLimit: 100,
    caCertificate: null,
    networkInterfaces: osNetworkInterfaces,
    topicDeleteBudgetMs: 50_000,
    bodyStallMs: 60_000,
    anonymousBodyMs: 30_000,
    tlsHandshakeMs: 10_000,
    connectionsPerAddress: 100,
    capLoopbackConnections: false,
    outgoingWebhookTimeoutMs: 10_000,
    outgoingWebhookRetryMs: 1000,
    callHeartbeatTimeoutMs: 8_500,
    callRingTimeoutMs: 30_000,
    callSweepMs: 1000,
    retentionFirstPassMs: 10_000,
    retentionEveryMs: 86_400_000,
    ...opts.config,
  };
  const turn = new TurnEnd((error) => log.error('an answer could not be written', { error: String(error) }));
  const app: App = {
    store: opts.store,
    clock,
    log,
    config,
    events: new EventQueues(clock, { heartbeatMs: config.heartbeatMs, gcIntervalMs: config.gcIntervalMs }, turn),
    turn,
    state: buildStateRegistry(),
    apiLimiter: new ApiRateLimiter(),
    rateLimits: {
      byAddress: new RateLimiter(clock, 30, 10 * 60_000),
      byAccountAddress: new RateLimiter(clock, 10, 10 * 60_000),
      accountAlarm: new AccountAlarm(clock, ACCOUNT_ALARM_THRESHOLD, 10 * 60_000),
    },
    channels: { canAccess: (userId, streamId) => canAddressChannel(app, userId, streamId) },
    channelMessages: channelMessageStats(() => app),
    messageAccess: messageAccess(() => app),
    customEmoji: customEmojiSource(() => app),
    exports: new RealmExports(),
    backups: new BackupRunner(),
    storageHealth: newStorageHealth(),
    outgoingWebhooks: newOutgoingWebhookState(),
    presence: newPresenceBook(),
    scheduledDelivery: { running: false },
    setupInProgress: false,
    staticFiles: newStaticFiles(),
    connections: newConnectionTable(),
    tls: null,
    deletedGuestUploads: [],
    thumbnails: new ThumbnailQueue(1, (id, err) => log.error('thumbnailing failed', { attachment_id: id, error: String(err) })),
    calls: newHearthCalls(),
    retention: newRetentionState(),
  };
  // libvips decodes only the image formats Hearth thumbnails (lib/uploads/thumbnails.ts).
  restrictDecoders();
  // An export the process stopped in the middle of left links to old message files and a work folder.
  removeExportLeftovers(config.dataDir);
  installQueueFilters(app);

  const koa = new Koa({ proxy: false });
  koa.silent = true;
  // A long-poll that will park skips this stack (views/events-direct.ts repeats what it needs of it).
  koa.use(batchAnswers(app));
  koa.use(compressResponses());
  koa.use(envelope(log));
  koa.use(plainHttpGate(app));
  koa.use(refuseCrossSite());
  koa.use(buildRouter(app, [...routes, ...tusRoutes(app)]));

  let server: Server | null = null;
  let tlsServer: HttpsServer | null = null;
  let front: NetServer | null = null;
  const sockets = new Set<Socket>();
  let stopMaintenance: (() => void) | null = null;
  let stopUploadSweep: (() => void) | null = null;
  let stopDelivery: (() => void) | null = null;
  let stopPresenceSaves: (() => void) | null = null;
  return {
    app,
    koa,
    async listen(port, host) {
      // On a disk with no free byte: serve reads, refuse changes until it takes a write again.
      await refuseWritesIfDiskFull(app);
      // A store whose organization predates user groups gets its system groups before serving.
      await startStep(app, 'system groups', () => doEnsureSystemGroups(app));
      await startStep(app, 'system bots', () => doEnsureNotificationBot(app));
      // Queues saved by a graceful stop come back, so clients keep polling them.
      const restored = await restoreQueues(app);
      if (restored) app.log.info('event queues restored', { queues: restored });
      await restorePresence(app);
      // Files received before they were written 0600 (uploads, avatars, emoji, the icon) are closed to other accounts.
      const tightened = await tightenReceivedFiles(config.dataDir).catch((err: unknown) => {
        log.warn('received files could not be made private', { error: String(err) });
        return 0;
      });
      if (tightened) log.info('received files made private (files 0600, folders 0700)', { changed: tightened });
      stopPresenceSaves = schedulePresenceSaves(app);
      app.events.start();
      stopMaintenance = scheduleChannelActivity(app);
      stopUploadSweep = scheduleUnclaimedUploadSweep(app);
      stopDelivery = scheduleMessageDelivery(app);
      // Messages past their retention period go in small batches, shortly after start and daily.
      startRetention(app);
      // Calls to outgoing-webhook bots left waiting by the last stop are made now.
      startOutgoingWebhooks(app);
      // Who was in a Hearth call at the last graceful stop keeps their place; the calls' timeouts run.
      await startStep(app, 'calls in progress', () => startCalls(app));
      // Images whose thumbnails a stop or crash left unmade are made now.
      const missing = queueMissingThumbnails(app);
      if (missing) log.info('thumbnails to make', { uploads: missing });
      // Zulip clients put GET parameters in the URL (a narrow, up to 5,000 message IDs): 64 KiB, not Node's 16.
      server = createServer({ maxHeaderSize: 64 * 1024 }, requestsWatched(app, directPolls(app, koa.callback())));
      // The HTTP port answers HTTPS too, once it is on (http/dual-port.ts: what HSTS needs).
      front = dualPort(server, () => tlsServer);
      prepare(app, server, front, sockets);
      const bound = await bind(front, port, host);
      config.listenAddress = { host, port: bound };
      return { host, port: bound };
    },
    async listenTls(port, host, creds) {
      tlsServer = createHttpsServer(
        { maxHeaderSize: 64 * 1024, key: creds.key, cert: creds.cert, handshakeTimeout: config.tlsHandshakeMs },
        withHsts(requestsWatched(app, directPolls(app, koa.callback()))),
      );
      prepare(app, tlsServer, tlsServer, sockets);
      const bound = await bind(tlsServer, port, host);
      config.tlsAddress = { host, port: bound };
      return { host, port: bound };
    },
    setTlsCredentials(creds) {
      tlsServer?.setSecureContext({ key: creds.key, cert: creds.cert });
    },
    async close() {
      const listening = [server, tlsServer].filter((x): x is Server | HttpsServer => x !== null);
      const closed = Promise.all(
        [front, ...listening].filter((x): x is NetServer => x !== null).map((x) => new Promise<void>((resolve) => x.close(() => resolve()))),
      );
      app.events.stop();
      // A backup in progress stops and removes its partial folder before the store closes.
      await app.backups.cancel();
      await app.exports.cancel();
      stopMaintenance?.();
      stopUploadSweep?.();
      stopDelivery?.();
      stopPresenceSaves?.();
      stopCallTimer(app);
      // The retention batch in progress lands; the next start carries on with what is left.
      await stopRetention(app);
      // Calls in flight are dropped unanswered; they stay queued and are made at the next start.
      await stopOutgoingWebhooks(app);
      // The thumbnail being made finishes (its write is durable); the rest are made at the next start.
      await app.thumbnails.stop();
      // Parked polls answer on their next tick, leaving keep-alive sockets idle: close those as they
      // become idle (in-flight requests finish), and after a moment drop the rest.
      const idle = () => listening.forEach((x) => x.closeIdleConnections());
      idle();
      const sweep = setInterval(idle, 20);
      const force = setTimeout(() => {
        listening.forEach((x) => x.closeAllConnections());
        for (const socket of sockets) socket.destroy();
      }, 2000);
      await closed;
      clearInterval(sweep);
      clearTimeout(force);
      await app.store.settled();
      // Every request and write is done: the queues can be kept for the next start.
      if (app.storageHealth.failure === null) {
        await saveQueues(app).catch((err: unknown) => app.log.warn('event queues not saved', { error: String(err) }));
        await saveLiveCalls(app).catch((err: unknown) => app.log.warn('calls in progress not saved', { error: String(err) }));
        if (app.store.realm.data.realm) await savePresence(app).catch((err: unknown) => app.log.warn('presence not saved', { error: String(err) }));
      }
    },
  };
}
