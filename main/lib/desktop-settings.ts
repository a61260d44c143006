import { readFile } from 'node:fs/promises';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../server/config.js';
import { parsePort } from './ports.js';

/** `desktop.json` in the data dir: where the desktop app's server listens, and its server-level switches. */
export interface DesktopSettings {
  host: string;
  port: number;
  /** Zulip's WEB_PUBLIC_STREAMS_ENABLED (`hearth serve --web-public-streams`): needed for public access. */
  webPublicStreams: boolean;
}

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, '1': true, yes: true, on: true, false: false, '0': false, no: false, off: false };

export const DESKTOP_SETTINGS_FILE = 'desktop.json';

const HOST_RE = /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-fA-F:]+|localhost)$/;

/**
 * Reads the server settings: defaults `0.0.0.0:9991` without web-public channels, then
 * `desktop.json` (if present and valid), then `HEARTH_HOST`/`HEARTH_PORT`/`HEARTH_WEB_PUBLIC_STREAMS`. Invalid values are reported in `warnings` and
 * ignored rather than stopping the app.
 */
export async function readDesktopSettings(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ settings: DesktopSettings; warnings: string[] }> {
  const settings: DesktopSettings = { host: DEFAULT_HOST, port: DEFAULT_PORT, webPublicStreams: false };
  const warnings: string[] = [];
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') warnings.push(`cannot read ${file}: ${err.message}`);
    return null;
  });
  if (text !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      warnings.push(`${file} is not valid JSON; using the defaults`);
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const { host, port, webPublicStreams } = parsed as Record<string, unknown>;
      if (webPublicStreams !== undefined) {
        if (typeof webPublicStreams === 'boolean') settings.webPublicStreams = webPublicStreams;
        else warnings.push(`${file}: ignoring invalid webPublicStreams ${JSON.stringify(webPublicStreams)}`);
      }
      if (host !== undefined) {
        if (typeof host === 'string' && HOST_RE.test(host)) settings.host = host;
        else warnings.push(`${file}: ignoring invalid host ${JSON.stringify(host)}`);
      }
      if (port !== undefined) {
        const p = typeof port === 'number' ? parsePort(String(port)) : null;
        if (p !== null) settings.port = p;
        else warnings.push(`${file}: ignoring invalid port ${JSON.stringify(port)}`);
      }
    }
  }
  if (env.HEARTH_HOST) {
    if (HOST_RE.test(env.HEARTH_HOST)) settings.host = env.HEARTH_HOST;
    else warnings.push(`ignoring invalid HEARTH_HOST ${JSON.stringify(env.HEARTH_HOST)}`);
  }
  if (env.HEARTH_PORT) {
    const p = parsePort(env.HEARTH_PORT);
    if (p !== null) settings.port = p;
    else warnings.push(`ignoring invalid HEARTH_PORT ${JSON.stringify(env.HEARTH_PORT)}`);
  }
  if (env.HEARTH_WEB_PUBLIC_STREAMS) {
    const b = BOOLEAN_TEXT[env.HEARTH_WEB_PUBLIC_STREAMS.trim().toLowerCase()];
    if (b !== undefined) settings.webPublicStreams = b;
    else warnings.push(`ignoring invalid HEARTH_WEB_PUBLIC_STREAMS ${JSON.stringify(env.HEARTH_WEB_PUBLIC_STREAMS)}`);
  }
  return { settings, warnings };
}
