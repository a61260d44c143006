import { createApp, type HearthServer } from './app.js';
import type { ServerConfig } from './context.js';
import { consoleLogger, type Logger } from './log.js';
import { newSetupToken } from './lib/setup-token.js';
import { Store } from './store/store.js';

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
}

export interface RunningServer {
  server: HearthServer;
  store: Store;
  url: string;
  port: number;
  /** The one-time setup token (null when there is an organization or none was asked for). */
  setupToken: string | null;
  /** Stop accepting, finish in-flight writes, release the data dir. */
  stop(): Promise<void>;
}

/** Opens the data dir and starts serving: the one entry point of the CLI and the desktop app. */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const log = opts.log ?? consoleLogger;
  const store = await Store.open(opts.dataDir);
  const setupToken = opts.setupToken && store.realm.data.realm === null ? newSetupToken() : null;
  const server = createApp({ store, log, config: { ...opts.config, ...(setupToken ? { setupToken } : {}) } });
  let bound: { port: number };
  try {
    bound = await server.listen(opts.port, opts.host);
  } catch (err) {
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
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${bound.port}`,
    stop() {
      stopping ??= (async () => {
        await server.close();
        // app.store, not `store`: a rollback after a failed write replaces it (lib/storage-health.ts).
        await server.app.store.close();
      })();
      return stopping;
    },
  };
}
