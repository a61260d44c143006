/**
 * The desktop main process's logic, under plain Node (no Electron binary): URL policy, port
 * choice, data paths, window options, IPC channels, tray model, settings, embedded server.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { resolveDataDir, sessionDataDir, userDataDir } from '../../main/lib/data-paths.js';
import { defaultDataDir } from '../../server/config.js';
import { readDesktopSettings } from '../../main/lib/desktop-settings.js';
import { portNotice, startEmbeddedServer, type EmbeddedServer } from '../../main/lib/embedded-server.js';
import { IPC, IPC_PREFIX, isTrustedSender } from '../../main/lib/ipc.js';
import { listenWithFallback, parsePort } from '../../main/lib/ports.js';
import { autostartProgram, execArgument, linuxAutostartEntry, linuxAutostartFile, linuxLoginItem } from '../../main/lib/login-item.js';
import { trayMenuModel, trayTooltip } from '../../main/lib/tray-model.js';
import { setupUrl, isAllowedExternalUrl, isServerUrl, localServerUrl, originOf, startUrl } from '../../main/lib/url-policy.js';
import { CONTENT_SECURITY_POLICY, hearthWindowOptions, errorPageUrl, secureWebPreferences, startingPageUrl, withPolicy } from '../../main/lib/window-options.js';
import { silentLogger } from '../../server/log.js';

const MAIN_DIR = fileURLToPath(new URL('../../main/', import.meta.url));
const ORIGIN = 'http://127.0.0.1:9991';

describe('URL policy (parsed, never substring checks)', () => {
  it('the window navigates only within the embedded server origin', () => {
    for (const ok of [`${ORIGIN}/admin/`, `${ORIGIN}/admin/#users`, `${ORIGIN}/api/v1/server_settings?x=1`, 'http://127.0.0.1:9991']) {
      assert.equal(isServerUrl(ok, ORIGIN), true, ok);
    }
    for (const bad of [
      'http://127.0.0.1:9991.evil.example/admin/',
      'http://127.0.0.1:9991@evil.example/admin/',
      'http://user:pw@127.0.0.1:9991/admin/',
      'http://127.0.0.1:9992/admin/',
      'https://127.0.0.1:9991/admin/',
      'http://localhost:9991/admin/',
      'http://evil.example/?http://127.0.0.1:9991/admin/',
      'file:///etc/passwd',
      'javascript:alert(1)//http://127.0.0.1:9991/',
      'data:text/html,<script>1</script>',
      'not a url',
      '',
    ]) {
      assert.equal(isServerUrl(bad, ORIGIN), false, bad);
    }
  });

  it('external links: https on allow-listed hosts, or the server’s own LAN address', () => {
    const lan = ['http://192.168.1.20:9991'];
    for (const ok of ['https://zulip.com/apps/', 'https://github.com/zulip/zulip-mobile', 'http://192.168.1.20:9991/']) {
      assert.equal(isAllowedExternalUrl(ok, lan), true, ok);
    }
    for (const bad of [
      'http://zulip.com/',
      'https://zulip.com.evil.example/',
      'https://evil.example/zulip.com',
      'https://evilzulip.com/',
      'https://zulip.com:8443/',
      'https://user@zulip.com/',
      'file:///C:/Windows/System32/calc.exe',
      'smb://server/share',
      'javascript:alert(1)',
      'http://192.168.1.20:9992/',
      'http://192.168.1.21:9991/',
      'not a url',
    ]) {
      assert.equal(isAllowedExternalUrl(bad, lan), false, bad);
    }
  });

  it('admin URL carries the setup token in the fragment only; wildcard binds are reached on loopback', () => {
    assert.equal(setupUrl('http://127.0.0.1:9991', null), 'http://127.0.0.1:9991/admin/');
    // The window opens the setup while there is a token (no organization yet), else the chat.
    assert.equal(new URL(startUrl('http://127.0.0.1:9991', 'tok')).pathname, '/admin/');
    assert.equal(startUrl('http://127.0.0.1:9991/x', null), 'http://127.0.0.1:9991/');
    const withToken = new URL(setupUrl('http://127.0.0.1:9991/x?y', 'a+b/c'));
    assert.equal(withToken.pathname, '/admin/');
    assert.equal(withToken.search, '');
    assert.equal(new URLSearchParams(withToken.hash.slice(1)).get('setup_token'), 'a+b/c');
    assert.equal(localServerUrl('0.0.0.0', 9991), 'http://127.0.0.1:9991');
    assert.equal(localServerUrl('::', 9991), 'http://[::1]:9991');
    assert.equal(localServerUrl('192.168.1.20', 80), 'http://192.168.1.20:80');
    assert.throws(() => originOf('file:///x'));
  });
});

describe('port choice', () => {
  const held: Server[] = [];
  after(() => held.forEach((s) => s.close()));
  const hold = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = createServer();
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        held.push(s);
        resolve((s.address() as { port: number }).port);
      });
    });

  it('moves to the next port when the configured one is taken, and says so', async () => {
    const taken = await hold(0);
    const tried: number[] = [];
    const choice = await listenWithFallback(async (port) => {
      tried.push(port);
      if (port === taken) throw Object.assign(new Error('in use'), { code: 'EADDRINUSE' });
      return `bound ${port}`;
    }, taken);
    assert.deepEqual(tried, [taken, taken + 1]);
    assert.equal(choice.port, taken + 1);
    assert.equal(choice.requestedPort, taken);
    assert.match(portNotice(choice) ?? '', new RegExp(`Port ${taken} was in use.*port ${taken + 1}`));
    assert.equal(portNotice({ port: 9991, requestedPort: 9991 }), null);
  });

  it('other errors are not retried; running out of ports is an error', async () => {
    let calls = 0;
    await assert.rejects(
      listenWithFallback(async () => {
        calls++;
        throw Object.assign(new Error('denied'), { code: 'EACCES' });
      }, 80),
      /denied/,
    );
    assert.equal(calls, 1);
    await assert.rejects(
      listenWithFallback(async () => {
        throw Object.assign(new Error('in use'), { code: 'EADDRINUSE' });
      }, 9991, 3),
      /ports 9991–9993 are all in use/,
    );
    await assert.rejects(listenWithFallback(async () => 1, 70000), RangeError);
  });

  it('parses configured ports strictly', () => {
    assert.equal(parsePort('9991'), 9991);
    for (const bad of ['0', '65536', '-1', '99a', '', ' ', '1e3', undefined]) assert.equal(parsePort(bad), null, String(bad));
  });
});

describe('data paths and settings', () => {
  it('the data dir is Electron’s userData unless HEARTH_DATA_DIR overrides it', () => {
    assert.equal(resolveDataDir({}, '/home/u/.config/Hearth'), '/home/u/.config/Hearth');
    assert.equal(resolveDataDir({ HEARTH_DATA_DIR: '/srv/hearth' }, '/home/u/.config/Hearth'), '/srv/hearth');
    assert.equal(resolveDataDir({ HEARTH_DATA_DIR: 'rel/dir' }, '/x', '/work'), '/work/rel/dir');
    assert.equal(resolveDataDir({ HEARTH_DATA_DIR: '  ' }, '/x'), '/x');
  });

  it('userData is pinned to <appData>/Hearth: the folder hearth serve uses by default', () => {
    for (const [platform, env, appData] of [
      ['linux', { HOME: '/home/u' }, '/home/u/.config'],
      ['darwin', { HOME: '/Users/u' }, '/Users/u/Library/Application Support'],
      ['win32', { HOME: 'C:\\Users\\u', APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u\\AppData\\Roaming'],
    ] as const) {
      assert.equal(userDataDir(appData), defaultDataDir({ ...env }, platform));
    }
  });

  it('Chromium’s session data goes to the platform cache folder, outside the data dir', () => {
    assert.equal(sessionDataDir({}, 'linux', '/home/u'), '/home/u/.cache/Hearth');
    assert.equal(sessionDataDir({ XDG_CACHE_HOME: '/c' }, 'linux', '/home/u'), '/c/Hearth');
    assert.equal(sessionDataDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Caches/Hearth');
    assert.equal(sessionDataDir({ LOCALAPPDATA: 'C:\\L' }, 'win32', 'C:\\Users\\u'), join('C:\\L', 'Hearth', 'Window'));
  });

  it('listen settings: defaults, desktop.json, then the environment; bad values are ignored with a warning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-desktop-'));
    try {
      const file = join(dir, 'desktop.json');
      const defaults = { host: '0.0.0.0', port: 9991, webPublicStreams: false };
      assert.deepEqual((await readDesktopSettings(file, {})).settings, defaults);
      await writeFile(file, JSON.stringify({ host: '127.0.0.1', port: 8080, webPublicStreams: true }));
      assert.deepEqual((await readDesktopSettings(file, {})).settings, { host: '127.0.0.1', port: 8080, webPublicStreams: true });
      assert.deepEqual((await readDesktopSettings(file, { HEARTH_PORT: '7000', HEARTH_WEB_PUBLIC_STREAMS: 'off' })).settings, {
        host: '127.0.0.1',
        port: 7000,
        webPublicStreams: false,
      });
      await writeFile(file, JSON.stringify({ host: 'evil host; rm -rf', port: 'x', webPublicStreams: 'yes' }));
      const bad = await readDesktopSettings(file, { HEARTH_PORT: '99999', HEARTH_WEB_PUBLIC_STREAMS: 'maybe' });
      assert.deepEqual(bad.settings, defaults);
      assert.equal(bad.warnings.length, 5);
      await writeFile(file, '{not json');
      assert.equal((await readDesktopSettings(file, {})).warnings.length, 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('start at login on Linux (Electron\'s login items are macOS and Windows only)', () => {
  it('the XDG autostart entry lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart', () => {
    assert.equal(linuxAutostartFile({ XDG_CONFIG_HOME: '/cfg' }, '/home/ada'), '/cfg/autostart/hearth.desktop');
    assert.equal(linuxAutostartFile({}, '/home/ada'), '/home/ada/.config/autostart/hearth.desktop');
    // A relative XDG_CONFIG_HOME is invalid by the specification and ignored.
    assert.equal(linuxAutostartFile({ XDG_CONFIG_HOME: 'cfg' }, '/home/ada'), '/home/ada/.config/autostart/hearth.desktop');
  });

  it('starts the AppImage file itself when running from one, else the executable; Exec is quoted as the spec asks', () => {
    assert.equal(autostartProgram({ APPIMAGE: '/home/ada/Apps/Hearth.AppImage' }, '/tmp/.mount_HeXyz/hearth'), '/home/ada/Apps/Hearth.AppImage');
    assert.equal(autostartProgram({}, '/opt/Hearth/hearth'), '/opt/Hearth/hearth');
    assert.equal(execArgument('/opt/Hearth/hearth'), '"/opt/Hearth/hearth"');
    assert.equal(execArgument('/home/a b/50% "x" $y'), '"/home/a b/50%% \\\\"x\\\\" \\\\$y"');
    const entry = linuxAutostartEntry('/opt/Hearth/hearth');
    assert.match(entry, /^\[Desktop Entry\]\n/);
    for (const line of ['Type=Application', 'Name=Hearth', 'Exec="/opt/Hearth/hearth"']) assert.ok(entry.split('\n').includes(line), line);
  });

  it('toggling writes and removes the entry; the tray reads its state from the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-autostart-'));
    try {
      const file = linuxAutostartFile({ XDG_CONFIG_HOME: dir });
      const item = linuxLoginItem(file, '/opt/Hearth/hearth');
      assert.equal(item.isEnabled(), false);
      item.setEnabled(true);
      assert.equal(item.isEnabled(), true);
      assert.equal(readFileSync(file, 'utf8'), linuxAutostartEntry('/opt/Hearth/hearth'));
      item.setEnabled(true);
      item.setEnabled(false);
      assert.equal(existsSync(file), false);
      item.setEnabled(false);
      assert.equal(item.isEnabled(), false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the shell uses it on Linux for the tray\'s "Start Hearth at login"', () => {
    const index = readFileSync(join(MAIN_DIR, 'index.ts'), 'utf8');
    assert.match(index, /process\.platform === 'linux'\s*\?\s*linuxLoginItem\(/);
    // Electron's own login items only behind the LoginItem chosen for the platform (once each).
    assert.equal(index.match(/app\.getLoginItemSettings\(/g)?.length, 1);
    assert.equal(index.match(/app\.setLoginItemSettings\(/g)?.length, 1);
  });
});

describe('window options, IPC channels, tray', () => {
  it('every window is isolated, sandboxed and without Node', () => {
    const prefs = secureWebPreferences('/app/main/preload.cjs');
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInSubFrames, false);
    assert.equal(prefs.webSecurity, true);
    assert.equal(prefs.webviewTag, false);
    const win = hearthWindowOptions('/p.cjs');
    assert.deepEqual(win.webPreferences, secureWebPreferences('/p.cjs'));
    assert.ok(win.minWidth >= 1024 && win.minHeight >= 768);
  });

  it('the CSP allows only the server’s own scripts and no framing', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('object-src'), ["'none'"]);
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
    assert.ok(!CONTENT_SECURITY_POLICY.includes('unsafe-eval'));
  });

  it('the window’s CSP is added to the server’s own, never replacing it', () => {
    const server = "default-src 'none'";
    const merged = withPolicy({ 'content-security-policy': [server], 'X-Other': ['1'] }, CONTENT_SECURITY_POLICY);
    assert.deepEqual(merged['content-security-policy'], [server, CONTENT_SECURITY_POLICY]);
    assert.deepEqual(merged['X-Other'], ['1']);
    assert.equal(Object.keys(merged).filter((k) => k.toLowerCase() === 'content-security-policy').length, 1);
    assert.deepEqual(withPolicy({}, 'x')['Content-Security-Policy'], ['x']);
  });

  it('the error page escapes what it shows', () => {
    const url = errorPageUrl('Port <b>', 'EACCES <script>alert(1)</script>');
    const html = decodeURIComponent(url.slice(url.indexOf(',') + 1));
    assert.ok(!html.includes('<script>'));
    assert.ok(html.includes('&lt;script&gt;'));
  });

  it('the starting page says so to a screen reader, runs no script and loads nothing', () => {
    const url = startingPageUrl();
    const html = decodeURIComponent(url.slice(url.indexOf(',') + 1));
    assert.ok(url.startsWith('data:text/html;charset=utf-8,'));
    assert.match(html, /<main role="status">[\s\S]*Starting Hearth…/);
    assert.ok(!/<script|src=|href=/i.test(html), 'no script, image or link');
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/);
  });

  it('IPC channels share one prefix, the preload uses exactly them, and senders are checked', () => {
    const channels = Object.values(IPC);
    for (const c of channels) assert.ok(c.startsWith(IPC_PREFIX), c);
    const preload = readFileSync(join(MAIN_DIR, 'preload.cts'), 'utf8');
    assert.ok(preload.includes(`const PREFIX = '${IPC_PREFIX}';`));
    const used = [...preload.matchAll(/`\$\{PREFIX\}([\w-]+)`/g)].map((m) => `${IPC_PREFIX}${m[1]}`);
    assert.deepEqual(used.sort(), [...channels].sort());
    assert.equal(isTrustedSender(`${ORIGIN}/admin/`, true, ORIGIN), true);
    assert.equal(isTrustedSender(`${ORIGIN}/admin/`, false, ORIGIN), false);
    assert.equal(isTrustedSender('https://evil.example/', true, ORIGIN), false);
    assert.equal(isTrustedSender(undefined, true, ORIGIN), false);
  });

  it('the tray shows status, LAN address, clients and the commands', () => {
    const items = trayMenuModel({ state: 'running', lanUrls: ['http://192.168.1.20:9991'], connectedClients: 3, openAtLogin: true });
    const labels = items.filter((i) => !i.separator).map((i) => i.label);
    assert.deepEqual(labels, [
      'Running',
      'Address: http://192.168.1.20:9991 (click to copy)',
      '3 clients connected',
      'Open Hearth',
      'Help',
      'Open data folder',
      'Start Hearth at login',
      'Quit Hearth',
    ]);
    assert.equal(items.find((i) => i.action === 'toggle-open-at-login')?.checked, true);
    assert.equal(items.find((i) => i.action === 'copy-url')?.url, 'http://192.168.1.20:9991');
    const failed = trayMenuModel({ state: 'failed', lanUrls: [], connectedClients: 0, openAtLogin: false, error: 'EACCES' });
    assert.equal(failed[0]!.label, 'Not running: EACCES');
    assert.match(trayTooltip({ state: 'running', lanUrls: ['http://a:1'], connectedClients: 1, openAtLogin: false }), /1 client connected/);
  });

  it('main/lib never imports electron; the electron-facing files stay thin', () => {
    for (const f of readdirSync(join(MAIN_DIR, 'lib'))) {
      assert.ok(!/from ['"]electron['"]/.test(readFileSync(join(MAIN_DIR, 'lib', f), 'utf8')), f);
    }
    for (const f of readdirSync(MAIN_DIR).filter((n) => /\.c?ts$/.test(n))) {
      assert.ok(readFileSync(join(MAIN_DIR, f), 'utf8').split('\n').length < 200, `${f} is not thin`);
    }
  });
});

describe('embedded server (the CLI’s start function, in process)', () => {
  const dirs: string[] = [];
  const servers: EmbeddedServer[] = [];
  after(async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('binds the next port when the configured one is taken, serves, and stops cleanly', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-embedded-'));
    dirs.push(dataDir);
    const first = await startEmbeddedServer({ dataDir, host: '127.0.0.1', port: 0, log: silentLogger });
    servers.push(first);
    const otherDir = await mkdtemp(join(tmpdir(), 'hearth-embedded-'));
    dirs.push(otherDir);
    const second = await startEmbeddedServer({ dataDir: otherDir, host: '127.0.0.1', port: first.port, log: silentLogger });
    servers.push(second);
    assert.equal(second.requestedPort, first.port);
    assert.ok(second.port > first.port);
    assert.ok(portNotice(second));
    assert.equal(second.url, `http://127.0.0.1:${second.port}`);

    // No organization yet: a setup token exists until setup is done.
    assert.match(second.setupToken ?? '', /^[\w-]{20,}$/);
    const setup = await fetch(`${second.url}/api/v1/hearth/setup`).then((r) => r.json());
    assert.equal(setup.needs_setup, true);
    assert.equal(second.status().hasOrganization, false);
    const body = new URLSearchParams({ realm_name: 'Desk', email: 'd@example.com', password: 'long enough pw' });
    const res = await fetch(`${second.url}/api/v1/hearth/setup`, { method: 'POST', body });
    assert.equal(res.status, 200);
    assert.equal(second.setupToken, null);
    assert.equal(second.status().hasOrganization, true);

    // Quit: stops accepting, writes are on disk, the data dir lock is released.
    await second.stop();
    assert.equal(existsSync(join(otherDir, 'hearth.lock')), false);
    await assert.rejects(fetch(`${second.url}/api/v1/server_settings`));
    const again = await startEmbeddedServer({
      dataDir: otherDir,
      host: '127.0.0.1',
      port: 0,
      log: silentLogger,
      config: { webPublicStreamsEnabled: true },
    });
    servers.push(again);
    assert.equal(again.running.server.app.config.webPublicStreamsEnabled, true);
    assert.equal(again.setupToken, null);
    assert.equal(again.status().hasOrganization, true);
  });
});
