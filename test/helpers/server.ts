import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type HearthServer } from '../../server/app.js';
import { doCreateRealm, doCreateUser } from '../../server/actions/users.js';
import type { Clock } from '../../server/clock.js';
import type { App, ServerConfig } from '../../server/context.js';
import { silentLogger } from '../../server/log.js';
import type { Role } from '../../server/store/records.js';
import { Store } from '../../server/store/store.js';

export interface Account {
  id: number;
  email: string;
  apiKey: string;
  password: string;
}

export type ParamValue = string | number | boolean | null | object | undefined;

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read field by field by the tests
  body: any;
}

/** Encodes parameters as Zulip clients do: strings raw, everything else JSON. */
export function encodeParams(params: Record<string, ParamValue>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, val] of Object.entries(params)) {
    if (val === undefined) continue;
    out.set(k, typeof val === 'string' ? val : JSON.stringify(val));
  }
  return out;
}

/** Asserts a Zulip error response. */
export function assertError(res: { status: number; body: Record<string, unknown> }, msg: string | RegExp, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.result, 'error');
  assert.equal(res.body.code, code, JSON.stringify(res.body));
  if (typeof msg === 'string') assert.equal(res.body.msg, msg);
  else assert.match(String(res.body.msg), msg);
}

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly account: Account | null,
  ) {}

  get authHeader(): Record<string, string> {
    if (!this.account) return {};
    const token = Buffer.from(`${this.account.email}:${this.account.apiKey}`).toString('base64');
    return { authorization: `Basic ${token}` };
  }

  /**
   * Calls `/api/v1{path}`. GET and (with `inQuery`) other methods put the
   * parameters in the query string; otherwise they go in a urlencoded body.
   */
  async call(
    method: string,
    path: string,
    params: Record<string, ParamValue> = {},
    opts: { inQuery?: boolean; headers?: Record<string, string>; raw?: boolean } = {},
  ): Promise<ApiResponse> {
    const encoded = encodeParams(params);
    const inQuery = method === 'GET' || opts.inQuery;
    const qs = inQuery && [...encoded.keys()].length ? `?${encoded}` : '';
    const url = `${this.baseUrl}${opts.raw ? path : `/api/v1${path}`}${qs}`;
    const res = await fetch(url, {
      method,
      headers: {
        ...this.authHeader,
        ...(inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        ...opts.headers,
      },
      body: inQuery ? undefined : encoded.toString(),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: left as text for the assertion to show */
    }
    return { status: res.status, headers: res.headers, body };
  }

  get = (path: string, params?: Record<string, ParamValue>) => this.call('GET', path, params);
  post = (path: string, params?: Record<string, ParamValue>) => this.call('POST', path, params);
  patch = (path: string, params?: Record<string, ParamValue>) => this.call('PATCH', path, params);
  delete = (path: string, params?: Record<string, ParamValue>) => this.call('DELETE', path, params);
}

export interface Person {
  account: Account;
  client: Client;
}

export interface TestServer {
  url: string;
  app: App;
  server: HearthServer;
  store: Store;
  dataDir: string;
  owner: Account;
  ownerClient: Client;
  anonymous: Client;
  client(account: Account): Client;
  /** Creates an active account with this role (default member). */
  addUser(name: string, role?: Role): Promise<Account>;
  /** Members with these names, each with a client: `const [mel, sam] = await ts.people('Mel', 'Sam')`. */
  people<N extends string[]>(...names: N): Promise<{ [K in keyof N]: Person }>;
  stop(): Promise<void>;
}

let counter = 0;

/** A fresh server with an organization and its owner, on port 0 and a temp data dir. */
export async function startTestServer(
  opts: { config?: Partial<ServerConfig>; clock?: Clock; withRealm?: boolean } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-test-'));
  const store = await Store.open(dataDir);
  // Tests make thousands of calls as one person; the rate limit has its own test (test/auth/api-rate-limit.test.ts).
  const server = createApp({ store, log: silentLogger, clock: opts.clock, config: { apiRateLimitPerMinute: 0, ...opts.config } });
  const { port } = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const password = 'correct horse battery';
  let owner: Account = { id: 0, email: '', apiKey: '', password };
  if (opts.withRealm !== false) {
    const u = await doCreateRealm(server.app, 'Test Org', { email: 'owner@example.com', password, fullName: 'Olive Owner' });
    owner = { id: u.id, email: u.email, apiKey: u.api_key, password };
  }
  const ts: TestServer = {
    url,
    app: server.app,
    server,
    // The live store: a rollback after a failed write replaces app.store (server/lib/runtime/storage-health.ts).
    get store() {
      return server.app.store;
    },
    dataDir,
    owner,
    ownerClient: new Client(url, owner),
    anonymous: new Client(url, null),
    client: (account) => new Client(url, account),
    async addUser(name, role = 400) {
      const email = `${name.toLowerCase()}${++counter}@example.com`;
      const u = await doCreateUser(server.app, { email, fullName: name, password, role });
      return { id: u.id, email: u.email, apiKey: u.api_key, password };
    },
    async people<N extends string[]>(...names: N) {
      const out: Person[] = [];
      for (const name of names) {
        const account = await ts.addUser(name);
        out.push({ account, client: new Client(url, account) });
      }
      return out as { [K in keyof N]: Person };
    },
    async stop() {
      await server.close();
      await server.app.store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return ts;
}
