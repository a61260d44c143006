import { createApp, type HearthServer } from './app.js';
import type { ServerConfig } from './context.js';
import { consoleLogger, type Logger } from './log.js';
import { Store } from './store/store.js';

export interface StartOptions {
  dataDir: string;
  host: string;
  port: number;
  log?: Logger;
  config?: Partial<ServerConfig>;
}

export interface RunningServer {
  server: HearthServer;
  store: Store;
  url: string;
  port: number;
  /** Stop accepting, finish in-flight writes, release the data dir. */
  stop(): Promise<void>;
}

/** Opens the data dir and starts serving: the one entry point of the CLI and the desktop app. */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const log = opts.log ?? consoleLogger;
  const store = await Store.open(opts.dataDir);
  const server = createApp({ store, log, config: opts.config });
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
    store,
    port: bound.port,
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${bound.port}`,
    stop() {
      stopping ??= (async () => {
        await server.close();
        await store.close();
      })();
      return stopping;
    },
  };
}
