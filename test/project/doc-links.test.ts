/**
 * Every relative link in the project's Markdown (the README, the help center's pages in
 * renderer/help/, the developer notes beside the code) points to a file that exists, and a link
 * to a heading (`file.md#anchor`, `#anchor`) to a heading that exists, with GitHub's anchors (the
 * ones the help center gives its headings too). Links inside code are not links.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import { headingSlug } from '../../server/lib/runtime/help-pages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', 'test-results', '.git', 'data']);

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...markdownFiles(path));
    else if (name.endsWith('.md')) out.push(path);
  }
  return out;
}

/** The text without fenced blocks (and, for finding links, code spans). */
const unfenced = (text: string) => text.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
const prose = (text: string) => unfenced(text).replace(/(`+)[\s\S]*?\1/g, '');

/** The anchors of a file's headings, as GitHub (and the help center) make them. */
function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of unfenced(readFileSync(path, 'utf8')).matchAll(/^#{1,6} +(.+?)#*$/gm)) {
    const text = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();
    const slug = headingSlug(text);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

it('every relative link in the Markdown files and the README resolves, anchors included', () => {
  const files = markdownFiles(ROOT);
  assert.ok(files.some((f) => f.endsWith(join('renderer', 'help', 'index.md'))), 'the help pages are checked');
  const broken: string[] = [];
  let checked = 0;
  for (const file of files) {
    for (const m of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
      checked++;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const dest = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
      const where = `${relative(ROOT, file)}: ${target}`;
      if (!existsSync(dest)) broken.push(`${where} (no such file)`);
      else if (anchor !== undefined && dest.endsWith('.md') && !anchorsOf(dest).has(anchor)) broken.push(`${where} (no such heading)`);
    }
  }
  assert.ok(checked > 30, `only ${checked} links`);
  assert.deepEqual(broken, []);
});
