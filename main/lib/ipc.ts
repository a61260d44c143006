import type { DesktopServerInfo } from '../../server/protocol/desktop-bridge.js';
import { isServerUrl } from './url-policy.js';

/** Every IPC channel starts with this prefix; the preload (main/preload.cts) uses the same names. */
export const IPC_PREFIX = 'hearth:';

export const IPC = {
  serverInfo: `${IPC_PREFIX}server-info`,
  openDataFolder: `${IPC_PREFIX}open-data-folder`,
  openExternal: `${IPC_PREFIX}open-external`,
  chooseFolder: `${IPC_PREFIX}choose-folder`,
} as const;

export type IpcChannel = (typeof IPC)[keyof typeof IPC];

/** What the preload's `serverInfo()` returns to the page (server/protocol/desktop-bridge.ts). */
export type ServerInfo = DesktopServerInfo;

/**
 * Whether an IPC message may be answered: it comes from the main frame of our window
 * (`senderUrl` is the frame's URL), showing the embedded server's origin.
 */
export function isTrustedSender(senderUrl: string | undefined, isMainFrame: boolean, serverOrigin: string): boolean {
  return isMainFrame && typeof senderUrl === 'string' && isServerUrl(senderUrl, serverOrigin);
}
