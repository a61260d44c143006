/**
 * The Hearth window's preload (sandboxed, so CommonJS and only `electron`): exposes
 * `window.hearth` with four calls and nothing else. Channel names match main/lib/ipc.ts
 * (checked by test/main/desktop-main.test.ts); the main side checks each sender's origin.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopBridge, DesktopServerInfo } from '../server/protocol/desktop-bridge.js' with { 'resolution-mode': 'import' };

const PREFIX = 'hearth:';

const api: DesktopBridge = {
  /** Where the server runs (URLs, port, data folder) and the setup token while setup is pending. */
  serverInfo: (): Promise<DesktopServerInfo> => ipcRenderer.invoke(`${PREFIX}server-info`),
  /** Opens the data folder in the file manager. */
  openDataFolder: (): Promise<void> => ipcRenderer.invoke(`${PREFIX}open-data-folder`),
  /** Opens an allow-listed https URL (or the server's own LAN address) in the system browser. */
  openExternal: (url: string): Promise<boolean> => ipcRenderer.invoke(`${PREFIX}open-external`, String(url)),
  /** Asks the user for a folder (for "Back up now"); null when cancelled. */
  chooseFolder: (): Promise<string | null> => ipcRenderer.invoke(`${PREFIX}choose-folder`),
};

contextBridge.exposeInMainWorld('hearth', Object.freeze(api));
