/**
 * What the Electron window's preload offers its pages as `window.hearth` (main/preload.cts
 * satisfies it; renderer/desktop.ts reads it). Absent in a browser.
 */

/** Where the embedded server runs, and its setup token while setup is pending. */
export interface DesktopServerInfo {
  url: string;
  lanUrls: string[];
  dataDir: string;
  port: number;
  /** Set when the configured port was taken and the server moved to the next free one. */
  requestedPort: number;
  /** The one-time setup token while there is no organization (the setup page sends it). */
  setupToken: string | null;
  version: string;
}

export interface DesktopBridge {
  /** Where the server runs (URLs, port, data folder) and the setup token while setup is pending. */
  serverInfo(): Promise<DesktopServerInfo>;
  /** Opens the data folder in the file manager. */
  openDataFolder(): Promise<void>;
  /** Opens an allow-listed https URL (or the server's own LAN address) in the system browser. */
  openExternal(url: string): Promise<boolean>;
  /** Asks the user for a folder (for "Back up now"); null when cancelled. */
  chooseFolder(): Promise<string | null>;
}
