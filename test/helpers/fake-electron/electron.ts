/**
 * A stand-in for the `electron` module, enough to run main/index.ts under plain Node: it
 * records what the shell does (one JSON line per event on stdout, prefixed `fake-electron `)
 * and lets a test drive it: SIGUSR2 quits the app (as the tray's Quit does), and after the
 * window loads a URL the IPC handlers are invoked once from a trusted and an untrusted frame.
 */
import { EventEmitter } from 'node:events';

const report = (event: string, data: Record<string, unknown> = {}) =>
  process.stdout.write(`fake-electron ${JSON.stringify({ event, ...data })}\n`);

type Handler = (event: unknown, ...args: unknown[]) => unknown;
const handlers = new Map<string, Handler>();

class FakeApp extends EventEmitter {
  private readyResolve!: () => void;
  private readonly ready = new Promise<void>((r) => (this.readyResolve = r));
  private loginItem = { openAtLogin: false };
  readonly paths = new Map<string, string>([['userData', '/nonexistent/fake-user-data']]);

  constructor() {
    super();
    setTimeout(() => this.readyResolve(), 10);
    process.on('SIGUSR2', () => this.quit());
    // Electron's process lives until the app exits, whatever else is running: so does this one (else a shell whose
    // server failed to start ran out of work and exited by itself, and a test of Quit passed or not by timing).
    setInterval(() => undefined, 60_000);
  }
  whenReady() {
    return this.ready;
  }
  getPath(name: string) {
    return this.paths.get(name) ?? `/nonexistent/${name}`;
  }
  setPath(name: string, value: string) {
    this.paths.set(name, value);
    report('setPath', { name, value });
  }
  requestSingleInstanceLock() {
    // FAKE_ELECTRON_SECOND_INSTANCE=1: another Hearth already runs.
    const got = process.env.FAKE_ELECTRON_SECOND_INSTANCE !== '1';
    report('singleInstanceLock', { got });
    return got;
  }
  getLoginItemSettings() {
    return this.loginItem;
  }
  setLoginItemSettings(s: { openAtLogin: boolean }) {
    this.loginItem = s;
  }
  quit() {
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  }
  exit(code: number) {
    report('exit', { code });
    process.exit(code);
  }
}

export const app = new FakeApp();

class FakeWebContents extends EventEmitter {
  url = '';
  setWindowOpenHandler() {}
  getURL() {
    return this.url;
  }
}

export class BrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  constructor(readonly options: Record<string, unknown>) {
    super();
    report('window', { webPreferences: options.webPreferences });
    app.emit('web-contents-created', {}, this.webContents);
  }
  static fromWebContents() {
    return null;
  }
  async loadURL(url: string) {
    this.webContents.url = url;
    report('loadURL', { url });
    if (url.startsWith('http')) await invokeIpc(url);
  }
  isDestroyed() {
    return false;
  }
  show() {}
  hide() {}
  focus() {}
}

/** Calls every IPC handler as a page of the server would, then as a foreign page and a subframe. */
async function invokeIpc(pageUrl: string) {
  const asFrame = (url: string, isMain: boolean) => ({ senderFrame: { url, parent: isMain ? null : {} }, sender: {} });
  const call = async (channel: string, event: unknown, ...args: unknown[]) => {
    try {
      return { ok: true, value: await handlers.get(channel)!(event, ...args) };
    } catch (err) {
      return { ok: false, error: String(err) };
    }
  };
  report('ipc', {
    channels: [...handlers.keys()].sort(),
    trusted: await call('hearth:server-info', asFrame(pageUrl, true)),
    foreign: await call('hearth:server-info', asFrame('https://evil.example/', true)),
    subframe: await call('hearth:server-info', asFrame(pageUrl, false)),
    external: await call('hearth:open-external', asFrame(pageUrl, true), 'file:///etc/passwd'),
  });
  report('headers', { server: headersFor(pageUrl), foreign: headersFor('https://zulip.com/') });
}

export const ipcMain = {
  handle(channel: string, handler: Handler) {
    handlers.set(channel, handler);
  },
};

export const shell = {
  async openPath(p: string) {
    report('openPath', { path: p });
    return '';
  },
  async openExternal(url: string) {
    report('openExternal', { url });
  },
};

export const dialog = {
  async showMessageBox(_win: unknown, opts: { message: string }) {
    report('messageBox', { message: opts.message });
    return { response: 0 };
  },
  async showOpenDialog() {
    return { canceled: true, filePaths: [] };
  },
  showErrorBox(title: string, content: string) {
    report('errorBox', { title, content });
  },
};

type HeadersListener = (
  details: { url: string; responseHeaders: Record<string, string[]> },
  callback: (r: { responseHeaders: Record<string, string[]> }) => void,
) => void;
const headerListeners: HeadersListener[] = [];

/** What the installed header hook makes of a response from `url`. */
function headersFor(url: string): Record<string, string[]> {
  let out: Record<string, string[]> = {};
  for (const l of headerListeners) l({ url, responseHeaders: { 'content-security-policy': ["default-src 'none'"] } }, (r) => (out = r.responseHeaders));
  return out;
}

export const session = {
  defaultSession: {
    webRequest: {
      onHeadersReceived(listener: HeadersListener) {
        headerListeners.push(listener);
      },
    },
    setPermissionRequestHandler() {},
    setPermissionCheckHandler() {},
  },
};

export class Tray {
  setToolTip(text: string) {
    report('tray', { tooltip: text });
  }
  setContextMenu() {}
  on() {}
  destroy() {}
}

export const Menu = { buildFromTemplate: (t: unknown) => t };
export const nativeImage = { createFromPath: () => ({ resize: () => ({}) }) };
export const clipboard = { writeText() {} };
export type IpcMainInvokeEvent = unknown;
export type WebContents = FakeWebContents;
export type MenuItemConstructorOptions = Record<string, unknown>;
export type OpenDialogOptions = Record<string, unknown>;
