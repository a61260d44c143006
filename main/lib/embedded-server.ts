import { DEFAULT_HTTPS_PORT } from '../../server/config.js';
import { isLoopbackHost, lanUrls } from '../../server/lib/network/lan-urls.js';
import type { Logger } from '../../server/log.js';
import { startServer, type RunningServer, type StartOptions } from '../../server/start.js';
import { listenWithFallback } from './ports.js';
import { localServerUrl } from './url-policy.js';

export interface EmbeddedServer {
  running: RunningServer;
  /** The URL the window loads (loopback for a wildcard bind). */
  url: string;
  /** The addresses people on the LAN use (recomputed on each read: interfaces come and go). */
  readonly lanUrls: string[];
  host: string;
  port: number;
  /** The configured port; differs from `port` when that one was taken. */
  requestedPort: number;
  /** The one-time setup token while there is no organization (null once setup is done). */
  readonly setupToken: string | null;
  /** Live figures for the tray. */
  status(): { connectedClients: number; connectedUsers: number; hasOrganization: boolean };
  /** Stop accepting, finish in-flight writes, release the data dir (idempotent). */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  host: string;
  port: number;
  log?: Logger;
  /** Server-level configuration (e.g. webPublicStreamsEnabled). */
  config?: StartOptions['config'];
  /** HTTPS with the installation's own authority (default 9443, the next free port when taken; null: off). */
  httpsPort?: number | null;
  /** The server entry point (the CLI's); injectable for tests. */
  start?: (opts: StartOptions) => Promise<RunningServer>;
}

/**
 * Starts the server in this process through the same function as `hearth serve`, on the
 * configured host and port, or the next free port when that one is taken.
 */
export async function startEmbeddedServer(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const start = opts.start ?? startServer;
  const choice = await listenWithFallback(
    (port) =>
      start({
        dataDir: opts.dataDir,
        host: opts.host,
        port,
        log: opts.log,
        config: opts.config,
        setupToken: true,
        httpsPort: opts.httpsPort === undefined ? DEFAULT_HTTPS_PORT : opts.httpsPort,
        httpsPortFallback: true,
        discovery: !isLoopbackHost(opts.host),
      }),
    opts.port,
  );
  const running = choice.value;
  const app = running.server.app;
  return {
    running,
    url: localServerUrl(opts.host, running.port),
    get lanUrls() {
      return lanUrls(opts.host, running.port);
    },
    host: opts.host,
    port: running.port,
    requestedPort: choice.requestedPort,
    get setupToken() {
      return app.config.setupToken;
    },
    status: () => ({
      connectedClients: app.events.size,
      connectedUsers: app.events.connectedUsers,
      hasOrganization: running.store.realm.data.realm !== null,
    }),
    stop: () => running.stop(),
  };
}

/** The sentence the window and the tray show when the configured port was taken. */
export function portNotice(s: Pick<EmbeddedServer, 'port' | 'requestedPort'>): string | null {
  if (s.requestedPort === 0 || s.port === s.requestedPort) return null;
  return `Port ${s.requestedPort} was in use, so Hearth is listening on port ${s.port}. Clients must use the new address.`;
}
