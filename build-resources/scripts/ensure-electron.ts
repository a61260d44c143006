/**
 * `npm run desktop` and `npm run dist` need Electron's binary (about 100 MB from github.com),
 * which `npm ci` does not fetch here: the project's .npmrc sets ignore-scripts, so installing
 * works wherever only the npm registry is reachable (an office mirror, no internet). This
 * script fetches the binary on first use through electron's own installer (which honours
 * ELECTRON_MIRROR) and, when that fails, says plainly
 * what is needed instead of a stack trace. Exit code 0 when the binary is there. An argument
 * names another electron package folder (the tests use a stand-in).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ELECTRON = join(ROOT, 'node_modules', 'electron');

/** The installed binary's path, or null. */
export function electronBinary(dir = ELECTRON): string | null {
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

export const HELP = `Hearth's desktop app needs Electron's binary, which could not be downloaded.
It comes from github.com (about 100 MB); npm install does not fetch it, so that installing
works with only the npm registry. To get it, any one of:
  - run this again on a network that reaches github.com;
  - set ELECTRON_MIRROR to a mirror of Electron's GitHub releases (an office file server holding
    v<version>/electron-v<version>-<platform>-<arch>.zip will do), then run it again.
The server alone needs none of this: npm start (or npx hearth serve) runs Hearth in the browser.`;

export function ensureElectron(dir = ELECTRON): number {
  if (!existsSync(join(dir, 'package.json'))) {
    process.stderr.write(`Electron is not installed (${dir}); run npm ci first.\n`);
    return 1;
  }
  if (electronBinary(dir)) return 0;
  process.stdout.write("Downloading Electron's binary for the desktop app (first time only)…\n");
  const r = spawnSync(process.execPath, [join(dir, 'install.js')], { stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' } });
  if (r.status === 0 && electronBinary(dir)) return 0;
  const why = (r.stderr?.toString() ?? '').split('\n').find((l) => l.trim()) ?? `exit code ${r.status}`;
  process.stderr.write(`\n${HELP}\n(The download said: ${why.trim()})\n`);
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = ensureElectron(process.argv[2] ?? ELECTRON);
