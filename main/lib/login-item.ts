import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * "Start Hearth at login". Electron's app.setLoginItemSettings works on macOS and Windows only;
 * on Linux (the AppImage and deb installers) the tray option would do nothing, so there it is
 * an XDG autostart entry: `$XDG_CONFIG_HOME/autostart/hearth.desktop` (default `~/.config`),
 * which every freedesktop session (GNOME, KDE, Xfce...) starts at login.
 */
export interface LoginItem {
  isEnabled(): boolean;
  setEnabled(on: boolean): void;
}

export function linuxAutostartFile(env: NodeJS.ProcessEnv = process.env, home = env.HOME ?? homedir()): string {
  const config = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(config, 'autostart', 'hearth.desktop');
}

/**
 * One Exec argument, quoted as the Desktop Entry Specification asks: inside double quotes,
 * `"`, `` ` ``, `$` and `\` are backslash-escaped, `%` is doubled (field codes); then the
 * whole value's own escape rule doubles every backslash again.
 */
export function execArgument(arg: string): string {
  const quoted = `"${arg.replace(/["`$\\]/g, (c) => `\\${c}`).replace(/%/g, '%%')}"`;
  return quoted.replace(/\\/g, '\\\\');
}

/**
 * The program the session starts: the AppImage file itself when running from one
 * (`process.execPath` is then inside a mount that changes on every run), else the executable.
 */
export const autostartProgram = (env: NodeJS.ProcessEnv, execPath: string): string => env.APPIMAGE || execPath;

export function linuxAutostartEntry(program: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Hearth',
    'Comment=Team chat server for the office',
    `Exec=${execArgument(program)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** The Linux login item: present when the autostart entry exists; toggling writes or removes it. */
export function linuxLoginItem(file: string, program: string): LoginItem {
  return {
    isEnabled: () => existsSync(file),
    setEnabled(on) {
      if (!on) {
        rmSync(file, { force: true });
        return;
      }
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, linuxAutostartEntry(program), { mode: 0o644 });
    },
  };
}
