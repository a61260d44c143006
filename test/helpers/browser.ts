/**
 * Debian's Chromium driven by playwright-core for the browser specs: launched once per worker by
 * the `chromium` fixture (fixtures.ts), a fresh context (1024×768) per page, every console error
 * and page error recorded, and screenshots kept under test-results/admin-ui/ (gitignored) as
 * artifacts.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = join(process.cwd(), 'test-results', 'admin-ui');

/** Why the browser tests cannot run here, or null when they can. */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (apt-get install -y chromium)`;
}

/** `extraArgs`: more Chromium switches (the HTTPS spec trusts one server key with --ignore-certificate-errors-spki-list). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extraArgs],
  });
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught page errors, as text. */
  errors: string[];
  /** Saves a full-page screenshot as test-results/admin-ui/NAME.png. */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openPage(browser: Browser, origin: string): Promise<TestPage> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  // Clipboard access can be granted to a secure context only (loopback); the page falls back elsewhere.
  const host = new URL(origin).hostname;
  if (host === '127.0.0.1' || host === 'localhost' || host === '[::1]') {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  }
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  // The page asks before deactivating or regenerating: the tests accept.
  page.on('dialog', (d) => void d.accept());
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    page,
    context,
    errors,
    shot: async (name) => {
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    },
    close: () => context.close(),
  };
}
