/**
 * main/index.ts (the Electron shell) run under plain Node against a stand-in `electron`
 * module (test/helpers/fake-electron): it starts the embedded server, loads first-run setup with
 * the setup token, answers IPC only from a page of the server, moves to the next port when needed,
 * shows start failures in the window, and on Quit stops the server and releases the data dir.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Shell {
  child: ChildProcess;
  events: Record<string, unknown>[];
  waitFor(event: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** The first page loaded after the starting page. */
  loadedAfterStarting(): Promise<Record<string, unknown>>;
  exited: Promise<number | string | null>;
}

function startShell(env: Record<string, string>): Shell {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './test/helpers/fake-electron/register.mjs', 'main/index.ts'],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const events: Record<string, unknown>[] = [];
  const waiters: { event: string; resolve: (e: Record<string, unknown>) => void }[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith('fake-electron ')) continue;
      const e = JSON.parse(line.slice('fake-electron '.length));
      events.push(e);
      for (const w of waiters.filter((x) => x.event === e.event)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  });
  // The exit code, or the signal's name when something killed the shell (so a failure says which).
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return {
    child,
    events,
    exited,
    async loadedAfterStarting() {
      const first = await this.waitFor('loadURL');
      assert.ok(isStartingPage(String(first.url)), `the window opens on the starting page first: ${String(first.url).slice(0, 60)}`);
      const deadline = Date.now() + 45_000;
      for (;;) {
        const next = events.filter((e) => e.event === 'loadURL')[1];
        if (next) return next;
        if (Date.now() > deadline) throw new Error(`no page after the starting page; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    waitFor(event, timeoutMs = 45_000) {
      const seen = events.find((e) => e.event === event);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${event} event; stderr: ${stderr}`)), timeoutMs);
        waiters.push({
          event,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
  };
}

const pageHtml = (url: string) => decodeURIComponent(url.slice(url.indexOf(',') + 1));
const isStartingPage = (url: string) => url.startsWith('data:text/html') && pageHtml(url).includes('Starting Hearth');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('the Electron shell under a stand-in electron module', { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const held: Server[] = [];
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    held.forEach((s) => s.close());
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const tempDir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'hearth-shell-'));
    dirs.push(d);
    return d;
  };

  it('starts the server, opens first-run setup with the setup token, guards IPC, and quits cleanly', async () => {
    const dataDir = await tempDir();
    const port = await freePort();
    const shell = startShell({ HEARTH_DATA_DIR: dataDir, HEARTH_HOST: '127.0.0.1', HEARTH_PORT: String(port) });
    children.push(shell.child);

    const window = await shell.waitFor('window');
    assert.deepEqual(
      { ...(window.webPreferences as object), preload: undefined },
      {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
        navigateOnDragDrop: false,
        spellcheck: true,
        preload: undefined,
      },
    );
    assert.match(String((window.webPreferences as { preload: string }).preload), /preload\.cjs$/);

    const loaded = await shell.loadedAfterStarting();
    const url = new URL(String(loaded.url));
    assert.equal(url.origin, `http://127.0.0.1:${port}`);
    assert.equal(url.pathname, '/admin/');
    const token = new URLSearchParams(url.hash.slice(1)).get('setup_token');
    assert.match(token ?? '', /^[\w-]{20,}$/);

    type Answer = { ok: boolean; value?: Record<string, unknown> | boolean };
    const ipc = (await shell.waitFor('ipc')) as unknown as {
      channels: string[];
      trusted: { ok: boolean; value: Record<string, unknown> };
      foreign: Answer;
      subframe: Answer;
      external: Answer;
    };
    assert.deepEqual(ipc.channels, ['hearth:choose-folder', 'hearth:open-data-folder', 'hearth:open-external', 'hearth:server-info']);
    assert.equal(ipc.trusted.ok, true);
    assert.equal(ipc.trusted.value.dataDir, dataDir);
    assert.equal(ipc.trusted.value.setupToken, token);
    assert.equal(ipc.trusted.value.port, port);
    assert.equal(ipc.foreign.ok, false);
    assert.equal(ipc.subframe.ok, false);
    assert.deepEqual(ipc.external, { ok: true, value: false });
    assert.ok(!shell.events.some((e) => e.event === 'openExternal'));
    // The server's pages get the window's CSP on top of their own; other sites' responses are untouched.
    const headers = (await shell.waitFor('headers')) as unknown as Record<string, Record<string, string[]>>;
    const csp = headers.server!['content-security-policy']!;
    assert.equal(csp.length, 2);
    assert.equal(csp[0], "default-src 'none'");
    assert.match(csp[1]!, /script-src 'self'/);
    assert.deepEqual(headers.foreign!['content-security-policy'], ["default-src 'none'"]);
    // Chromium's files are kept out of the data dir.
    const sessionPath = shell.events.find((e) => e.event === 'setPath' && e.name === 'sessionData');
    assert.ok(sessionPath && !String(sessionPath.value).startsWith(dataDir));

    // The tray says where the server runs and how many clients are connected.
    const tooltips = shell.events.filter((e) => e.event === 'tray').map((e) => String(e.tooltip));
    assert.ok(tooltips.includes(`Hearth: running at http://127.0.0.1:${port}, 0 clients connected`), tooltips.join(' | '));

    // The embedded server answers.
    const setup = await fetch(`${url.origin}/api/v1/hearth/setup`).then((r) => r.json());
    assert.equal(setup.needs_setup, true);
    assert.ok(existsSync(join(dataDir, 'hearth.lock')));

    // Quit (the tray's Quit): stop accepting, flush, release the data dir, exit 0.
    shell.child.kill('SIGUSR2');
    assert.equal(await shell.exited, 0);
    assert.equal(existsSync(join(dataDir, 'hearth.lock')), false);
    await assert.rejects(fetch(`${url.origin}/api/v1/hearth/setup`));
  });

  it('moves to the next port when the configured one is taken, and says so', async () => {
    const dataDir = await tempDir();
    const port = await freePort();
    await new Promise<void>((resolve) => {
      const s = createServer().listen(port, '127.0.0.1', () => resolve());
      held.push(s);
    });
    const shell = startShell({ HEARTH_DATA_DIR: dataDir, HEARTH_HOST: '127.0.0.1', HEARTH_PORT: String(port) });
    children.push(shell.child);
    const loaded = await shell.loadedAfterStarting();
    // The next free port: port + 1 unless another test process holds that one meanwhile.
    const used = Number(new URL(String(loaded.url)).port);
    assert.ok(used > port && used <= port + 10, `moved from ${port} to ${used}`);
    const notice = await shell.waitFor('messageBox');
    assert.match(String(notice.message), new RegExp(`Port ${port} was in use.*port ${used}`));
    shell.child.kill('SIGUSR2');
    assert.equal(await shell.exited, 0);
  });

  it('a second instance quits at once, leaving the data dir to the first', async () => {
    const dataDir = await tempDir();
    const shell = startShell({ HEARTH_DATA_DIR: dataDir, HEARTH_HOST: '127.0.0.1', FAKE_ELECTRON_SECOND_INSTANCE: '1' });
    children.push(shell.child);
    assert.equal(await shell.exited, 0);
    assert.deepEqual(
      shell.events.map((e) => e.event).filter((e) => e !== 'tray' && e !== 'setPath'),
      ['singleInstanceLock', 'exit'],
    );
    assert.equal(existsSync(join(dataDir, 'hearth.lock')), false);
  });

  it('a server that cannot start is shown in the window, and Quit still works', async () => {
    const dir = await tempDir();
    const notADir = join(dir, 'file');
    await writeFile(notADir, 'not a data dir');
    const shell = startShell({ HEARTH_DATA_DIR: notADir, HEARTH_HOST: '127.0.0.1', HEARTH_PORT: String(await freePort()) });
    children.push(shell.child);
    const loaded = await shell.loadedAfterStarting();
    const page = String(loaded.url);
    assert.ok(page.startsWith('data:text/html'), page.slice(0, 40));
    const html = decodeURIComponent(page.slice(page.indexOf(',') + 1));
    assert.match(html, /could not start/);
    assert.match(html, /EEXIST|ENOTDIR/);
    shell.child.kill('SIGUSR2');
    assert.equal(await shell.exited, 0);
  });
});
