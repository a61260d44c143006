import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The desktop app's data dir: `HEARTH_DATA_DIR` when set (tests, portable installs; relative
 * paths resolve against the working directory), else Electron's `userData` folder, which for
 * an app named Hearth is the same folder `hearth serve` uses by default (server/config.ts), so
 * the CLI and the app share one organization.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv, userDataPath: string, cwd = process.cwd()): string {
  const override = env.HEARTH_DATA_DIR?.trim();
  if (override) return isAbsolute(override) ? override : resolve(cwd, override);
  return userDataPath;
}

/** The app's name on disk: Electron's userData is `<appData>/Hearth`, as `hearth serve` expects. */
export const APP_FOLDER = 'Hearth';

/**
 * The userData folder, pinned to `<appData>/Hearth` whatever name Electron derives (a dev run
 * from package.json would use `hearth`), so the desktop app and the CLI always agree.
 */
export const userDataDir = (appDataPath: string): string => join(appDataPath, APP_FOLDER);

/**
 * Where Chromium keeps the window's own state (caches, local storage). Kept out of the data dir
 * so that backups and the store size hold only Hearth's data: the platform's cache folder.
 */
export function sessionDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = env.HOME ?? homedir(),
): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'Hearth', 'Window');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'Hearth');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'Hearth');
}
