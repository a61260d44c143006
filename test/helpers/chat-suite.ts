/**
 * The frame most chat specs share: Chromium, a fresh server, what the spec needs made through the
 * API, and one page signed in. Call it inside `test.describe`.
 */
import { test } from '@playwright/test';
import type { Browser } from 'playwright-core';
import type { ServerConfig } from '../../server/context.js';
import { browserMissing, launchBrowser, openPage, type TestPage } from './browser.js';
import { signIn } from './chat-page.js';
import { startTestServer, type Account, type TestServer } from './server.js';

export interface ChatSuite {
  browser: Browser;
  ts: TestServer;
  p: TestPage;
}

/**
 * Makes the describe serial (its steps depend on each other), skips it where Chromium is missing
 * (outside CI), and around its tests: starts Chromium and a server, runs `setup` (which returns who
 * signs in; the owner when it returns nothing), and opens a page signed in. The fields are filled
 * before the first test.
 */
export function chatSuite(setup: (ts: TestServer) => Promise<Account | void>, opts: { config?: Partial<ServerConfig> } = {}): ChatSuite {
  const skip = process.env.CI ? false : (browserMissing() ?? false);
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  test.skip(skip !== false, String(skip));
  const s = {} as ChatSuite;
  test.beforeAll(async () => {
    s.browser = await launchBrowser();
    s.ts = await startTestServer({ config: opts.config });
    const who = (await setup(s.ts)) ?? s.ts.owner;
    s.p = await openPage(s.browser, s.ts.url);
    await signIn(s.p.page, s.ts.url, who);
  });
  test.afterAll(async () => {
    await s.p?.close();
    await s.browser?.close();
    await s.ts?.stop();
  });
  return s;
}
