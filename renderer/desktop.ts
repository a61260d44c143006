/**
 * What the Electron window's preload offers (`window.hearth`, see main/preload.cts); absent in a
 * browser, where every feature here falls back to plain web behaviour.
 */
export interface DesktopBridge {
  openDataFolder?: () => Promise<void>;
  openExternal?: (url: string) => Promise<boolean>;
  chooseFolder?: () => Promise<string | null>;
}

export const desktop = (): DesktopBridge | null =>
  ((window as unknown as { hearth?: DesktopBridge }).hearth ?? null);

/** Links that leave the admin page: in the desktop window they open in the system browser. */
export function externalLink(a: HTMLAnchorElement): HTMLAnchorElement {
  a.addEventListener('click', (ev) => {
    const open = desktop()?.openExternal;
    if (!open) return;
    ev.preventDefault();
    void open(a.href);
  });
  return a;
}
