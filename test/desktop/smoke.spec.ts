/**
 * Smoke test of the packaged desktop app (issue 35): the real Electron executable that `npm run dist`
 * built (the unpacked app each installer is made from, in dist/installers), driven by Playwright's
 * Electron support, walks through the first run the README describes ("What the first run does"; its
 * steps are this file's test.step titles, in order: test/project/release-workflow.test.ts compares them).
 * Uploading a picture proves that sharp's native module and libvips are in the package and load there.
 *
 * Run by the release workflow on Linux, Windows and macOS (`npx playwright test -c test/desktop`, with
 * HEARTH_APP_EXECUTABLE naming the build); skipped, with the reason, where there is no packaged app.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import { startServer } from '../../server/start.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INSTALLERS = join(ROOT, 'dist', 'installers');
const OWNER = { realm: 'Smoke Test Office', name: 'Sam Smoke', email: 'sam@example.com', password: 'smoke test password' };

/** The unpacked app electron-builder leaves beside the installers, per system and architecture. */
const CANDIDATES: Record<string, string[]> = {
  linux: ['linux-unpacked/hearth', 'linux-arm64-unpacked/hearth'],
  win32: ['win-unpacked/Hearth.exe', 'win-arm64-unpacked/Hearth.exe'],
  darwin: ['mac-arm64/Hearth.app/Contents/MacOS/Hearth', 'mac/Hearth.app/Contents/MacOS/Hearth', 'mac-universal/Hearth.app/Contents/MacOS/Hearth'],
};

/** The executable to test, or why there is none. HEARTH_APP_EXECUTABLE, when set, must exist (CI names its build). */
function packagedApp(): { exe: string } | { skip: string } {
  const given = process.env.HEARTH_APP_EXECUTABLE;
  if (given) return { exe: given };
  const found = (CANDIDATES[process.platform] ?? []).map((c) => join(INSTALLERS, c)).find((p) => existsSync(p));
  if (found) return { exe: found };
  const binary = existsSync(join(ROOT, 'node_modules', 'electron', 'path.txt'))
    ? 'Electron’s binary is installed: run npm run dist first'
    : 'npm run dist needs Electron’s binary, which is not installed here (it comes from github.com or ELECTRON_MIRROR)';
  return { skip: `no packaged app in dist/installers for ${process.platform}: ${binary}` };
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen(0, '0.0.0.0', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The exit code of a process, or a failure after `ms`. */
function exitOf(child: ReturnType<typeof spawn>, ms: number): Promise<number | string | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal);
    });
  });
}

const app = packagedApp();
// Playwright's list reporter does not print a skip's reason: say it once, from the runner's process.
if ('skip' in app && process.env.TEST_WORKER_INDEX === undefined) process.stdout.write(`desktop smoke test skipped: ${app.skip}\n`);

test.describe('the packaged desktop app', () => {
  test.skip('skip' in app, 'skip' in app ? app.skip : '');

  test('first run: setup, the chat, one instance, the LAN, thumbnails, quit', async () => {
    const exe = (app as { exe: string }).exe;
    assert.ok(existsSync(exe), `HEARTH_APP_EXECUTABLE names no file: ${exe}`);
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-smoke-'));
    const port = await freePort();
    // The app's defaults (every interface, so the LAN address answers), on a port known to be free.
    const env: Record<string, string> = { ...(process.env as Record<string, string>), HEARTH_DATA_DIR: dataDir, HEARTH_PORT: String(port) };
    delete env.HEARTH_HOST;
    const local = `http://127.0.0.1:${port}`;
    const desktop = await electron.launch({ executablePath: exe, args: [], env, timeout: 120_000 });
    // The main process's log goes to the test's output, for a failure on a CI runner.
    desktop.process().stdout?.on('data', (d: Buffer) => process.stdout.write(`[hearth] ${d}`));
    desktop.process().stderr?.on('data', (d: Buffer) => process.stderr.write(`[hearth] ${d}`));
    let closed = false;
    try {
      const page = await desktop.firstWindow();

      await test.step('The window opens on the setup page.', async () => {
        await page.getByRole('heading', { name: 'Set up Hearth' }).waitFor({ timeout: 90_000 });
        const url = new URL(page.url());
        assert.equal(url.port, String(port));
        assert.equal(url.pathname, '/admin/');
        // The window passed the setup token: no field asks for it.
        assert.equal(await page.getByLabel('Setup token').isVisible(), false);
      });

      await test.step('Setting up creates the organization.', async () => {
        await page.getByLabel('Organization name').fill(OWNER.realm);
        await page.getByLabel('Your name').fill(OWNER.name);
        await page.getByLabel('Your email').fill(OWNER.email);
        await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
        await page.getByLabel('Confirm password').fill(OWNER.password);
        await page.getByRole('button', { name: 'Create organization' }).click();
        await page.getByRole('heading', { name: 'Your organization is ready' }).waitFor();
        const setup = await fetch(`${local}/api/v1/hearth/setup`).then((r) => r.json());
        assert.equal(setup.needs_setup, false);
      });

      await test.step('The window then shows the chat.', async () => {
        await page.getByRole('link', { name: 'Open the chat' }).click();
        await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
        assert.equal(new URL(page.url()).pathname, '/');
      });

      await test.step('Opening Hearth again brings its window forward instead of starting a second copy.', async () => {
        await desktop.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.hide());
        await expect.poll(() => desktop.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible())).toBe(false);
        const second = spawn(exe, [], { env, stdio: 'ignore' });
        assert.equal(await exitOf(second, 60_000), 0, 'the second launch exits at once');
        await expect.poll(() => desktop.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible())).toBe(true);
        assert.equal(await desktop.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length), 1);
        assert.equal((await fetch(`${local}/api/v1/server_settings`)).status, 200, 'the first instance still serves');
      });

      await test.step('Colleagues reach the server at its LAN address.', async () => {
        // What the app tells people to open (the page's window.hearth bridge), fetched from outside the app.
        const info = await page.evaluate(() => (window as unknown as { hearth: { serverInfo(): Promise<{ lanUrls: string[] }> } }).hearth.serverInfo());
        const lan = info.lanUrls.filter((u) => !/\/\/(127\.|localhost|\[::1\])/.test(u));
        assert.ok(lan.length > 0, `no LAN address among ${JSON.stringify(info.lanUrls)}`);
        for (const url of lan) {
          assert.equal(new URL(url).port, String(port));
          const res = await fetch(new URL('/api/v1/server_settings', url));
          assert.equal(res.status, 200, url);
          assert.equal((await res.json()).realm_name, OWNER.realm);
        }
      });

      await test.step('Pictures get thumbnails.', async () => {
        const key = await fetch(`${local}/api/v1/fetch_api_key`, {
          method: 'POST',
          body: new URLSearchParams({ username: OWNER.email, password: OWNER.password }),
        }).then((r) => r.json());
        const auth = { authorization: `Basic ${Buffer.from(`${OWNER.email}:${key.api_key}`).toString('base64')}` };
        const form = new FormData();
        const png = readFileSync(join(ROOT, 'build-resources', 'icon.png'));
        form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'hearth.png');
        const upload = await fetch(`${local}/api/v1/user_uploads`, { method: 'POST', headers: auth, body: form }).then((r) => r.json());
        assert.equal(upload.result, 'success', JSON.stringify(upload));
        // Made by sharp (libvips) inside the packaged app: a WebP.
        const thumb = await fetch(`${local}${upload.url.replace('/user_uploads/', '/user_uploads/thumbnail/')}/840x560.webp`, { headers: auth });
        assert.equal(thumb.status, 200);
        assert.equal(thumb.headers.get('content-type'), 'image/webp');
        const bytes = Buffer.from(await thumb.arrayBuffer());
        assert.equal(bytes.subarray(0, 4).toString('latin1'), 'RIFF');
        assert.equal(bytes.subarray(8, 12).toString('latin1'), 'WEBP');
      });

      await test.step('Quit stops the server and leaves the data folder unlocked.', async () => {
        assert.ok(existsSync(join(dataDir, 'hearth.lock')), 'the running app holds the data dir');
        await desktop.close();
        closed = true;
        await assert.rejects(fetch(`${local}/api/v1/server_settings`), 'nothing answers on the port');
        assert.equal(existsSync(join(dataDir, 'hearth.lock')), false);
        // Another server opens the same data dir, and the organization is there.
        const quiet = { info() {}, warn() {}, error() {} };
        const again = await startServer({ dataDir, host: '127.0.0.1', port: 0, log: quiet });
        try {
          const setup = await fetch(`${again.url}/api/v1/hearth/setup`).then((r) => r.json());
          assert.equal(setup.needs_setup, false);
        } finally {
          await again.stop();
        }
      });
    } finally {
      if (!closed) await desktop.close().catch(() => desktop.process().kill());
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
