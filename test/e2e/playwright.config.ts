/**
 * @playwright/test runs the browser tests (test/e2e/*.spec.ts) after the Node tests in `npm test`.
 * The specs take Debian's Chromium from the fixtures (test/helpers/fixtures.ts: one launch per
 * worker, test/helpers/browser.ts: executablePath /usr/bin/chromium, no browser download);
 * screenshots go to test-results/admin-ui/.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  outputDir: '../../test-results/playwright',
  // Each spec drives one page through dependent steps; two suites at once would share 2 cores with Chromium.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  timeout: 120_000,
});
