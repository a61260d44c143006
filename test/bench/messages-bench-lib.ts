/** Shared by the message benchmarks: a data set of n messages served by a Hearth child process. */
import { generateDataSet, DEFAULT_DATA_SET, type DataSetInfo } from './messages-data.js';
import { ChildProc, fmtInt, fmtMB, fmtMs, removeTempDir, stopAllChildren, tempDir } from './lib.js';
import { basicAuth, rawRequest } from './raw-http.js';

export interface ServerReady {
  port: number;
  openMs: number;
  rssKB: number;
  messages: number;
}

export interface Served {
  info: DataSetInfo;
  child: ChildProc;
  ready: ServerReady;
  /** Raw request bytes as user `userId`. */
  request(userId: number, method: string, path: string, params?: Record<string, string>): Buffer;
}

/** Generates `n` messages, serves them, runs `fn`, cleans up. */
export async function withDataSet<R>(n: number, fn: (s: Served) => Promise<R>): Promise<R> {
  const dir = tempDir(`hearth-msgs-${n}-`);
  try {
    const info = await generateDataSet(dir, { ...DEFAULT_DATA_SET, messages: n });
    console.log(`generated ${fmtInt(n)} messages (${fmtMB(info.bytes / 1024)} of JSON) in ${fmtMs(info.generateMs, 0)}`);
    const { child, ready } = await ChildProc.start<ServerReady>('hearth', 'messages-server.ts', [dir], {
      startTimeoutMs: 300_000,
      nodeArgs: ['--expose-gc'],
    });
    // Measure the steady state: the garbage left by loading is collected first (P8 measures the start).
    await child.call('gc');
    const accounts = new Map(info.users.map((u) => [u.id, u]));
    return await fn({
      info,
      child,
      ready,
      request(userId, method, path, params = {}) {
        const a = accounts.get(userId)!;
        const qs = new URLSearchParams(params).toString();
        const headers = basicAuth(a.email, a.apiKey);
        if (method === 'GET') return rawRequest(method, ready.port, `/api/v1${path}${qs ? `?${qs}` : ''}`, headers);
        return rawRequest(method, ready.port, `/api/v1${path}`, headers, qs);
      },
    });
  } finally {
    await stopAllChildren();
    removeTempDir(dir);
  }
}
