import { BrowserWindow, dialog, ipcMain, shell, type IpcMainInvokeEvent, type OpenDialogOptions } from 'electron';
import { HEARTH_VERSION } from '../server/version.js';
import type { EmbeddedServer } from './lib/embedded-server.js';
import { IPC, isTrustedSender, type ServerInfo } from './lib/ipc.js';
import { isAllowedExternalUrl, originOf } from './lib/url-policy.js';

/** Registers the IPC handlers; each refuses senders that are not the main frame of a page of this server. */
export function registerIpc(getServer: () => EmbeddedServer | null, dataDir: string): void {
  const guard = (event: IpcMainInvokeEvent): EmbeddedServer => {
    const server = getServer();
    const frame = event.senderFrame;
    if (!server || !frame || !isTrustedSender(frame.url, frame.parent === null, originOf(server.url))) {
      throw new Error('refused: not a Hearth page');
    }
    return server;
  };
  ipcMain.handle(IPC.serverInfo, (event): ServerInfo => {
    const s = guard(event);
    return {
      url: s.url,
      lanUrls: s.lanUrls,
      dataDir,
      port: s.port,
      requestedPort: s.requestedPort,
      setupToken: s.setupToken,
      version: HEARTH_VERSION,
    };
  });
  ipcMain.handle(IPC.openDataFolder, async (event) => {
    guard(event);
    const err = await shell.openPath(dataDir);
    if (err) throw new Error(err);
  });
  ipcMain.handle(IPC.chooseFolder, async (event) => {
    guard(event);
    const options: OpenDialogOptions = {
      title: 'Choose a folder for the backup',
      properties: ['openDirectory', 'createDirectory'],
    };
    const win = BrowserWindow.fromWebContents(event.sender);
    const result = await (win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options));
    return result.canceled ? null : (result.filePaths[0] ?? null);
  });
  ipcMain.handle(IPC.openExternal, async (event, url: unknown) => {
    const s = guard(event);
    if (typeof url !== 'string' || !isAllowedExternalUrl(url, s.lanUrls.map(originOf))) return false;
    await shell.openExternal(url);
    return true;
  });
}
