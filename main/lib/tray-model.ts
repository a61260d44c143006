/** What the tray shows, as plain data (main/tray.ts turns it into an Electron menu). */
export interface TrayStatus {
  state: 'starting' | 'running' | 'failed' | 'stopping';
  lanUrls: string[];
  connectedClients: number;
  openAtLogin: boolean;
  error?: string;
}

export type TrayAction = 'open-window' | 'open-help' | 'open-data-folder' | 'toggle-open-at-login' | 'copy-url' | 'quit';

export interface TrayItem {
  label: string;
  enabled: boolean;
  action?: TrayAction;
  checkbox?: boolean;
  checked?: boolean;
  separator?: boolean;
  /** For `copy-url`: the address to copy. */
  url?: string;
}

export function trayTooltip(s: TrayStatus): string {
  if (s.state === 'running') return `Hearth: running at ${s.lanUrls[0] ?? ''}, ${clientsLabel(s.connectedClients)}`;
  if (s.state === 'failed') return `Hearth: not running (${s.error ?? 'error'})`;
  return `Hearth: ${s.state}`;
}

const clientsLabel = (n: number) => (n === 1 ? '1 client connected' : `${n} clients connected`);

export function trayMenuModel(s: TrayStatus): TrayItem[] {
  const status =
    s.state === 'running' ? 'Running' : s.state === 'failed' ? `Not running: ${s.error ?? 'error'}` : s.state === 'starting' ? 'Starting…' : 'Stopping…';
  const items: TrayItem[] = [{ label: status, enabled: false }];
  if (s.state === 'running') {
    for (const url of s.lanUrls) items.push({ label: `Address: ${url} (click to copy)`, enabled: true, action: 'copy-url', url });
    items.push({ label: clientsLabel(s.connectedClients), enabled: false });
  }
  items.push(
    { label: '', enabled: false, separator: true },
    { label: 'Open Hearth', enabled: s.state !== 'stopping', action: 'open-window' },
    // The help center (/help/, renderer/help/), in the window.
    { label: 'Help', enabled: s.state === 'running', action: 'open-help' },
    { label: 'Open data folder', enabled: true, action: 'open-data-folder' },
    { label: 'Start Hearth at login', enabled: true, action: 'toggle-open-at-login', checkbox: true, checked: s.openAtLogin },
    { label: '', enabled: false, separator: true },
    { label: 'Quit Hearth', enabled: s.state !== 'stopping', action: 'quit' },
  );
  return items;
}
