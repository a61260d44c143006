import { createApp, type HearthServer } from './app.js';
import type { ServerConfig } from './context.js';
import { consoleLogger, type Logger } from './log.js';
import { newSetupToken } from './lib/runtime/setup-token.js';
import { Store } from './store/store.js';
import { isOutOfSpace } from './store/no-space.js';
import { TlsService } from './tls/service.js';
import { startDiscovery } from './lib/network/discovery.js';

export interface StartOptions {
  dataDir: string;
  host: string;
  port: number;
  log?: Logger;
  config?: Partial<ServerConfig>;
  /**
   * When the data dir has no organization yet, make a one-time setup token (the CLI prints it,
   * the desktop window passes it) so first-run setup is possible from another machine.
   */
  setupToken?: boolean;
  /**
   * Also listen with TLS on this port (0: a free one), with this installation's own authority
   * and server certificate (server/tls/); absent or null: plain HTTP only.
   */
  httpsPort?: number | null;
  /** When the HTTPS port is taken, try the next ones (the desktop app; the CLI reports the error). */
  httpsPortFallback?: boolean;
  /** Announce the server on the LAN by mDNS/DNS-SD (the owners' switch can still turn it off). */
  discovery?: boolean;
}

export interface RunningServer {
  server: HearthServer;
  store: Store;
  url: string;
  port: number;
  /** The one-time setup token (null when there is an organization or none was asked for). */
  setupToken: string | null;
  /** The HTTPS port, or null when HTTPS is off. */
  httpsPort: number | null;
  /** Stop accepting, finish in-flight writes, release the data dir. */
  stop(): Promise<void>;
}

/** Opens the data dir and starts serving: the one entry point of the CLI and the desktop app. */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const log = opts.log ?? consoleLogger;
  const store = await Store.open(opts.dataDir);
  for (const r of store.messages.items.repaired) {
    log.warn('a message file ended in a write cut short by a stop; kept its whole messages', { file: r.file, messages: r.items, torn_copy: r.kept });
  }
  if (store.messages.items.finished.length) {
    log.warn('a change to several message files was on disk when Hearth stopped; its files were put in place', { files: store.messages.items.finished });
  }
  const setupToken = opts.setupToken && store.realm.data.realm === null ? newSetupToken() : null;
  const server = createApp({ store, log, config: { ...opts.config, ...(setupToken ? { setupToken } : {}) } });
  let bound: { port: number };
  let httpsPort: number | null = null;
  let stopTls = () => undefined as void;
  let stopDiscovery = async () => undefined as void;
  try {
    bound = await server.listen(opts.port, opts.host);
    if (opts.httpsPort !== undefined && opts.httpsPort !== null) {
      // What the authority or the server certificate becomes (a re-issue, the owner's
      // replacement) is served to new connections and to people downloading the authority.
      const tls = new TlsService({
        dataDir: opts.dataDir,
        log,
        serve: (m) => {
          server.app.config.caCertificate = m.ca.cert;
          server.setTlsCredentials(m.server);
        },
      });
      // A disk with no room for a new authority: serve plain HTTP now, HTTPS at a start with space.
      const first = await tls.start().catch((err: unknown) => {
        if (!isOutOfSpace(err)) throw err;
        log.error('HTTPS is off: the disk has no room for its certificates', { error: String(err) });
        return null;
      });
      if (first) {
        httpsPort = await listenTlsWithFallback(server, opts.httpsPort, opts.host, first.server, opts.httpsPortFallback ? 20 : 1);
        server.app.tls = tls;
        stopTls = tls.watch();
      }
    }
    if (opts.discovery) stopDiscovery = startDiscovery(server.app, { http: bound.port, https: httpsPort });
  } catch (err) {
    await server.close().catch(() => undefined);
    await store.close();
    throw err;
  }
  let stopping: Promise<void> | null = null;
  return {
    server,
    get store() {
      return server.app.store;
    },
    port: bound.port,
    setupToken,
    httpsPort,
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${bound.port}`,
    stop() {
      stopping ??= (async () => {
        stopTls();
        await stopDiscovery();
        await server.close();
        // app.store, not `store`: a rollback after a failed write replaces it (lib/runtime/storage-health.ts).
        await server.app.store.close();
      })();
      return stopping;
    },
  };
}

/** Binds the TLS listener on `port`, or (when taken and `attempts` > 1) on the next free one. */
async function listenTlsWithFallback(server: HearthServer, port: number, host: string, creds: { key: string; cert: string }, attempts: number): Promise<number> {
  for (let i = 0; ; i++) {
    try {
      return (await server.listenTls(port === 0 ? 0 : port + i, host, creds)).port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0 || i + 1 >= attempts) throw err;
    }
  }
}
