/**
 * The packaged desktop app's smoke test (smoke.spec.ts), apart from `npm test`'s browser specs
 * (test/e2e/): it drives the real Electron app that `npm run dist` built, so it runs in the release
 * workflow (.github/workflows/desktop.yml) on Linux, Windows and macOS after the build, and skips
 * with its reason where there is no packaged app (no Electron binary on this machine).
 *
 *   npx playwright test -c test/desktop        # after npm run dist; HEARTH_APP_EXECUTABLE picks another build
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: /smoke\.spec\.ts$/,
  outputDir: '../../test-results/desktop',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  // One launch of the app walks through every step; a cold start on a CI runner can take a while.
  timeout: 240_000,
});
