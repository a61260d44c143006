/**
 * The third step of `npm run build`: bundles the chat web client (renderer/chat/) into
 * `dist/web/` as content-hashed files (script, stylesheet, KaTeX's fonts) plus `manifest.json`, which the packaged server
 * serves instead of bundling at run time (server/lib/runtime/web-bundle.ts).
 * Usage: build-web.ts [OUT_DIR] (default dist/web).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebBundle } from '../../server/lib/runtime/web-bundle.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function buildWeb(outDir: string): Promise<string[]> {
  const out = resolve(ROOT, outDir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const bundle = await buildWebBundle();
  for (const [name, asset] of bundle.assets) writeFileSync(join(out, name), asset.body);
  writeFileSync(join(out, 'manifest.json'), JSON.stringify({ script: bundle.script, style: bundle.style, pages: bundle.pages, files: [...bundle.assets.keys()] }));
  return [...bundle.assets.keys()];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const names = await buildWeb(process.argv[2] ?? 'dist/web');
  process.stdout.write(`chat client bundled: ${names.join(', ')}\n`);
}
