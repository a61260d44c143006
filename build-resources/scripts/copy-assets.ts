/**
 * The second step of `npm run build` (after tsc compiled main/ and server/ to dist/app): copies what
 * the server reads at run time and tsc does not emit — server/static and the help center's Markdown
 * pages (renderer/help/) — so dist/app mirrors the source tree the server reads from. The web app
 * itself is bundled by build-web.ts (dist/web), so none of renderer/'s code ships as files.
 * Usage: copy-assets.ts [OUT_DIR] (default dist/app).
 */
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function copyAssets(outDir: string): void {
  const out = resolve(ROOT, outDir);
  const skip = (src: string) => /\.(c|m)?tsx?$/.test(src) || /[\\/](node_modules|test-results|tests?)([\\/]|$)/.test(src);
  for (const dir of ['server/static', 'renderer/help']) {
    const from = join(ROOT, dir);
    if (!existsSync(from)) continue;
    mkdirSync(join(out, dir), { recursive: true });
    cpSync(from, join(out, dir), { recursive: true, filter: (src) => !skip(src.slice(ROOT.length)) });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  copyAssets(process.argv[2] ?? 'dist/app');
  process.stdout.write('assets copied\n');
}
