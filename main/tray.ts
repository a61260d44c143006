import { Menu, Tray, clipboard, nativeImage, type MenuItemConstructorOptions } from 'electron';
import { trayMenuModel, trayTooltip, type TrayAction, type TrayStatus } from './lib/tray-model.js';

export interface TrayHandlers {
  onAction(action: TrayAction): void;
}

/** The tray icon: status, LAN address, clients connected, and the app's few commands. */
export class HearthTray {
  private readonly tray: Tray;

  constructor(iconPath: string, private readonly handlers: TrayHandlers) {
    this.tray = new Tray(nativeImage.createFromPath(iconPath).resize({ width: 16, height: 16 }));
    this.tray.on('click', () => handlers.onAction('open-window'));
  }

  update(status: TrayStatus): void {
    this.tray.setToolTip(trayTooltip(status));
    const template: MenuItemConstructorOptions[] = trayMenuModel(status).map((item) =>
      item.separator
        ? { type: 'separator' }
        : {
            label: item.label,
            enabled: item.enabled,
            type: item.checkbox ? 'checkbox' : 'normal',
            checked: item.checked,
            click: () => {
              if (item.action === 'copy-url' && item.url) clipboard.writeText(item.url);
              else if (item.action) this.handlers.onAction(item.action);
            },
          },
    );
    this.tray.setContextMenu(Menu.buildFromTemplate(template));
  }

  destroy(): void {
    this.tray.destroy();
  }
}
