/**
 * Electron main process: a thin shell. It starts the same server as `hearth serve`
 * (server/start.ts) in this process, opens it in one guarded window (the chat at /, or the first-run setup), and
 * keeps a tray icon. Everything with logic lives in main/lib (tested under plain Node).
 */
import { type BrowserWindow, app, dialog, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleLogger } from '../server/log.js';
import { DESKTOP_SETTINGS_FILE, readDesktopSettings } from './lib/desktop-settings.js';
import { resolveDataDir, sessionDataDir, userDataDir } from './lib/data-paths.js';
import { portNotice, startEmbeddedServer, type EmbeddedServer } from './lib/embedded-server.js';
import { originOf, startUrl } from './lib/url-policy.js';
import { autostartProgram, linuxAutostartFile, linuxLoginItem, type LoginItem } from './lib/login-item.js';
import { errorPageUrl, startingPageUrl } from './lib/window-options.js';
import type { TrayAction, TrayStatus } from './lib/tray-model.js';
import { registerIpc } from './ipc-handlers.js';
import { HearthTray } from './tray.js';
import { createHearthWindow, installGuards } from './window.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const PRELOAD = join(here, 'preload.cjs');
const ICON = fileURLToPath(new URL('../server/static/hearth-icon.png', import.meta.url));

const state: {
  server: EmbeddedServer | null;
  window: BrowserWindow | null;
  tray: HearthTray | null;
  status: TrayStatus['state'];
  error: string | undefined;
  quitting: boolean;
  stopped: boolean;
} = { server: null, window: null, tray: null, status: 'starting', error: undefined, quitting: false, stopped: false };

const origin = () => (state.server ? originOf(state.server.url) : null);
const lanOrigins = () => (state.server ? state.server.lanUrls.map(originOf) : []);

function showError(title: string, err: unknown): void {
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  consoleLogger.error(title, { error: detail });
  state.status = 'failed';
  state.error = err instanceof Error ? err.message : String(err);
  updateTray();
  const win = ensureWindow();
  void win.loadURL(errorPageUrl(title, detail));
  win.show();
}

function ensureWindow(): BrowserWindow {
  if (state.window && !state.window.isDestroyed()) return state.window;
  const win = createHearthWindow(PRELOAD, ICON);
  // Closing the window keeps the server running (it serves the LAN); Quit is in the tray.
  win.on('close', (event) => {
    if (!state.quitting) {
      event.preventDefault();
      win.hide();
    }
  });
  win.webContents.on('render-process-gone', (_e, details) => showError('The Hearth window stopped', details.reason));
  state.window = win;
  return win;
}

function openWindow(): void {
  const win = ensureWindow();
  if (state.server && state.status === 'running') {
    const url = win.webContents.getURL();
    if (!url || !url.startsWith('http')) void win.loadURL(startUrl(state.server.url, state.server.setupToken));
  }
  win.show();
  win.focus();
}

/** The help center (/help/) in the window. */
function openHelp(): void {
  const win = ensureWindow();
  if (state.server && state.status === 'running') void win.loadURL(new URL('/help/', originOf(state.server.url)).toString());
  win.show();
  win.focus();
}

function updateTray(): void {
  if (!state.tray) return;
  const live = state.server?.status();
  state.tray.update({
    state: state.status,
    lanUrls: state.server?.lanUrls ?? [],
    connectedClients: live?.connectedClients ?? 0,
    openAtLogin: loginItem.isEnabled(),
    error: state.error,
  });
}

function onTrayAction(action: TrayAction): void {
  if (action === 'open-window') openWindow();
  else if (action === 'open-help') openHelp();
  else if (action === 'open-data-folder') void shell.openPath(dataDir);
  else if (action === 'toggle-open-at-login') {
    try {
      loginItem.setEnabled(!loginItem.isEnabled());
    } catch (err) {
      void dialog.showMessageBox({ type: 'error', title: 'Hearth', message: `Could not change the start-at-login setting: ${String(err)}` });
    }
    updateTray();
  } else if (action === 'quit') app.quit();
}

/** Quit: stop accepting, flush every write, then exit (the data dir lock is released). */
async function shutdown(): Promise<void> {
  state.status = 'stopping';
  updateTray();
  try {
    await state.server?.stop();
  } catch (err) {
    consoleLogger.error('error while stopping', { error: String(err) });
  }
  state.stopped = true;
  state.tray?.destroy();
  app.exit(0);
}

async function startServerAndWindow(): Promise<void> {
  const { settings, warnings } = await readDesktopSettings(join(dataDir, DESKTOP_SETTINGS_FILE));
  for (const w of warnings) consoleLogger.warn(w);
  // The window opens at once, saying Hearth is starting, then shows the chat once the server answers
  // (loading the chat over it aborts this load: not an error).
  ensureWindow().loadURL(startingPageUrl()).catch(() => undefined);
  const server = await startEmbeddedServer({
    dataDir,
    host: settings.host,
    port: settings.port,
    log: consoleLogger,
    config: { webPublicStreamsEnabled: settings.webPublicStreams },
  });
  state.server = server;
  state.status = 'running';
  updateTray();
  const win = ensureWindow();
  await win.loadURL(startUrl(server.url, server.setupToken));
  const notice = portNotice(server);
  if (notice) void dialog.showMessageBox(win, { type: 'warning', title: 'Hearth', message: notice });
}

// Electron's login items exist on macOS and Windows only; Linux gets an XDG autostart entry.
const loginItem: LoginItem =
  process.platform === 'linux'
    ? linuxLoginItem(linuxAutostartFile(), autostartProgram(process.env, process.execPath))
    : { isEnabled: () => app.getLoginItemSettings().openAtLogin, setEnabled: (on) => app.setLoginItemSettings({ openAtLogin: on }) };

app.setPath('userData', userDataDir(app.getPath('appData')));
const dataDir = resolveDataDir(process.env, app.getPath('userData'));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Chromium's own files go to the cache folder, so the data dir holds only Hearth's data.
  app.setPath('sessionData', sessionDataDir());
  app.on('second-instance', () => openWindow());
  app.on('window-all-closed', () => {
    /* keep serving from the tray */
  });
  app.on('before-quit', (event) => {
    state.quitting = true;
    if (!state.stopped) {
      event.preventDefault();
      if (state.status !== 'stopping') void shutdown();
    }
  });
  process.on('uncaughtException', (err) => showError('Hearth hit an unexpected error', err));
  process.on('unhandledRejection', (err) => showError('Hearth hit an unexpected error', err));

  void app.whenReady().then(async () => {
    installGuards(origin, lanOrigins);
    registerIpc(() => state.server, dataDir);
    state.tray = new HearthTray(ICON, { onAction: onTrayAction });
    updateTray();
    setInterval(updateTray, 5000).unref();
    try {
      await startServerAndWindow();
    } catch (err) {
      showError('Hearth could not start its server', err);
    }
  });
}
