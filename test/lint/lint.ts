/**
 * Project rules no off-the-shelf linter knows (run by `npm run lint`, and by `npm test`):
 * - server/ never imports electron (it runs headless under plain Node);
 * - no module-level mutable state in server/ (state lives in instances passed in): no `let`/`var`,
 *   and no module-level Map/Set/WeakMap/WeakSet but read-only tables (./module-state.ts);
 * - server/ keeps to its layers and has no import cycle (./layers.ts);
 * - views and actions throw only HearthError (through server/errors.ts);
 * - files stay small and named for the one thing they hold (server/ and renderer/);
 * - renderer/ (the web app): no module-level mutable state, signals only in the store modules,
 *   the network only from the API modules, the store below the UI (./renderer-rules.ts).
 * Biome (biome.jsonc) runs first, in `npm run lint`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lintLayers } from './layers.js';
import { moduleStateProblems, staleMemoTables } from './module-state.js';
import { rendererProblems, STORE_MODULES, staleStoreModules } from './renderer-rules.js';

const root = new URL('../..', import.meta.url).pathname;
const MAX_LINES = 400;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|tsx|js)$/.test(name)) yield p;
  }
}

const problems: string[] = [];
const memoTablesUsed = new Set<string>();
for (const file of files(join(root, 'server'))) {
  const rel = relative(root, file);
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  if (/from\s+['"]electron['"]|require\(['"]electron['"]\)|import\(['"]electron['"]\)/.test(text)) {
    problems.push(`${rel}: server/ must not import electron`);
  }
  lines.forEach((line, i) => {
    if (/^(export\s+)?(let|var)\s/.test(line)) problems.push(`${rel}:${i + 1}: module-level mutable state`);
  });
  if (rel.endsWith('.ts')) problems.push(...moduleStateProblems(rel, text, memoTablesUsed));
  if (/^server\/(views|actions)\//.test(rel) && /throw new (?!HearthError)\w*Error\(/.test(text)) {
    problems.push(`${rel}: views and actions throw only HearthError (use errors.* from server/errors.ts)`);
  }
  if (lines.length > MAX_LINES) problems.push(`${rel}: ${lines.length} lines (keep files under ${MAX_LINES})`);
}
const storesUsed = new Set<string>();
for (const file of files(join(root, 'renderer'))) {
  const rel = relative(root, file);
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length;
  if (lines > MAX_LINES) problems.push(`${rel}: ${lines} lines (keep files under ${MAX_LINES})`);
  if (!(rel in STORE_MODULES)) problems.push(...moduleStateProblems(rel, text, memoTablesUsed));
  problems.push(...rendererProblems(rel, text, storesUsed));
}
problems.push(...staleMemoTables(memoTablesUsed), ...staleStoreModules(storesUsed), ...lintLayers());

if (problems.length) {
  process.stderr.write(`lint: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('lint: ok\n');
