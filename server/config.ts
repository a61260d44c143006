import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The per-user app-data folder Electron's `app.getPath('userData')` uses for
 * an app named Hearth, so `hearth serve` and the desktop app share data.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.HEARTH_DATA_DIR) return env.HEARTH_DATA_DIR;
  const home = env.HOME ?? homedir();
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Hearth');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Hearth');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Hearth');
}

export const DEFAULT_HOST = '0.0.0.0';
export const DEFAULT_PORT = 9991;
/** HTTPS with this installation's own authority (server/tls/). */
export const DEFAULT_HTTPS_PORT = 9443;
