/**
 * Playwright fixtures for the browser specs (test/e2e/): import `test` from here, not from
 * @playwright/test.
 *
 * - `chromium` (worker-scoped): Debian's Chromium, launched once per worker and shared by every
 *   spec it runs; each page gets its own browser context, so specs share no cookies or storage.
 * - `ts` (per test): a fresh server on a temp data dir, stopped after the test.
 * - `pageAs(who)` (per test): a page (test/helpers/browser.ts openPage) signed in to the chat as
 *   `who` (`null`: not signed in), closed after the test.
 *
 * Serial specs that build state step by step keep one server and their pages across their tests:
 * `serialSuite()` (below) gives such a describe its server and `open(who)` pages, made in its
 * `beforeAll` on the shared Chromium and closed in its `afterAll`; `chatSuite` (chat-suite.ts)
 * adds one signed-in page. Both skip where Chromium is missing outside CI (browserMissing).
 */
import { test as base } from '@playwright/test';
import type { Browser } from 'playwright-core';
import type { ServerConfig } from '../../server/context.js';
import { browserMissing, launchBrowser, openPage, type TestPage } from './browser.js';
import { signIn } from './chat-page.js';
import { startTestServer, type Account, type TestServer } from './server.js';

/** Why the browser specs skip here (Chromium missing outside CI), or false. */
export const skipReason = (): string | false => (process.env.CI ? false : (browserMissing() ?? false));

export const test = base.extend<
  { ts: TestServer; pageAs: (who: Account | null) => Promise<TestPage> },
  { chromium: Browser }
>({
  chromium: [
    async ({}, use) => {
      const browser = await launchBrowser();
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  ts: async ({}, use) => {
    const ts = await startTestServer();
    await use(ts);
    await ts.stop();
  },
  pageAs: async ({ chromium, ts }, use) => {
    const pages: TestPage[] = [];
    await use(async (who) => {
      const p = await openPage(chromium, ts.url);
      pages.push(p);
      if (who) await signIn(p.page, ts.url, who);
      return p;
    });
    for (const p of pages) await p.close();
  },
});

/** Skips the describe it is called in where Chromium is missing, outside CI (in CI that fails). */
export function skipWithoutChromium(): void {
  const skip = skipReason();
  test.skip(skip !== false, String(skip));
}

export interface SerialSuite {
  /** The shared Chromium (the `chromium` fixture). */
  browser: Browser;
  /** This describe's server, fresh before its first test, stopped after its last. */
  ts: TestServer;
  /** A page on `ts` signed in as `who` (`null`: not signed in), open until the describe ends. */
  open(who: Account | null): Promise<TestPage>;
}

/**
 * Makes the describe serial (its steps depend on each other; `serial: false` for one whose tests
 * only share the server) and skips it where Chromium is missing outside CI; before its first test,
 * starts a fresh server (`withRealm: false`: without an organization; `server: false`: none, for a
 * spec that starts its own); after its last, closes the pages `open` made and stops the server.
 * The fields are filled before the describe's own `beforeAll` hooks run (declare them after this).
 */
export function serialSuite(
  opts: { config?: Partial<ServerConfig>; timeout?: number; server?: boolean; withRealm?: boolean; serial?: boolean } = {},
): SerialSuite {
  test.describe.configure({ ...(opts.serial === false ? {} : { mode: 'serial' as const }), timeout: opts.timeout ?? 120_000 });
  skipWithoutChromium();
  const pages: TestPage[] = [];
  const s = {
    async open(who: Account | null) {
      const p = await openPage(s.browser, s.ts.url);
      pages.push(p);
      if (who) await signIn(p.page, s.ts.url, who);
      return p;
    },
  } as SerialSuite;
  test.beforeAll(async ({ chromium }) => {
    s.browser = chromium;
    if (opts.server !== false) s.ts = await startTestServer({ config: opts.config, withRealm: opts.withRealm });
  });
  test.afterAll(async () => {
    for (const p of pages) await p.close();
    await s.ts?.stop();
  });
  return s;
}
