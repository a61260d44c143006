/**
 * The second half of `npm run build` (after tsc compiled main/, server/ and renderer/ TypeScript
 * to dist/app): copies what tsc does not emit — server/static and every non-TypeScript file of
 * renderer/ (HTML, CSS, JS, images, and the help center's Markdown pages in renderer/help/) — so dist/app
 * mirrors the source tree the server reads from.
 * Usage: copy-assets.ts [OUT_DIR] (default dist/app).
 */
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function copyAssets(outDir: string): void {
  const out = resolve(ROOT, outDir);
  // TypeScript is compiled (renderer/chat/ is bundled by build-web.ts instead).
  const skip = (src: string) =>
    /\.(c|m)?tsx?$/.test(src) && !src.endsWith('.d.ts') ? true : /[\\/](node_modules|test-results|tests?|chat)([\\/]|$)/.test(src);
  for (const dir of ['server/static', 'renderer']) {
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
