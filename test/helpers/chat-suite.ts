/**
 * The frame most chat specs share, on the fixtures (fixtures.ts serialSuite): a fresh server, what
 * the spec needs made through the API, and one page signed in. Call it inside `test.describe`.
 */
import type { ServerConfig } from '../../server/context.js';
import type { TestPage } from './browser.js';
import { serialSuite, test, type SerialSuite } from './fixtures.js';
import type { Account, TestServer } from './server.js';

export interface ChatSuite extends SerialSuite {
  /** The page signed in as whom `setup` returned. */
  p: TestPage;
}

/**
 * A serial describe (serialSuite) whose first `beforeAll` also runs `setup` (which returns who
 * signs in; the owner when it returns nothing) and opens a page signed in. The fields are filled
 * before the first test.
 */
export function chatSuite(setup: (ts: TestServer) => Promise<Account | void>, opts: { config?: Partial<ServerConfig> } = {}): ChatSuite {
  const s = serialSuite({ config: opts.config }) as ChatSuite;
  test.beforeAll(async () => {
    const who = (await setup(s.ts)) ?? s.ts.owner;
    s.p = await s.open(who);
  });
  return s;
}
