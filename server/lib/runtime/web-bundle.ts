/**
 * The chat web client (renderer/chat/) as the server hands it out: one JavaScript and one
 * CSS file, named by a hash of their content so browsers may cache them for a year.
 *
 * A packaged app ships them prebuilt (`npm run build` writes `dist/web/` with a
 * `manifest.json`); from a source checkout the server bundles them with esbuild on the
 * first request (a development dependency, present after `npm ci`) and keeps them in memory.
 * No CDN: everything, Preact and DOMPurify included, is in the bundle, and so are KaTeX's
 * stylesheet (in the CSS) and its fonts (WOFF2 only, which every browser the client supports reads:
 * the WOFF and TTF fallbacks are taken out of the stylesheet), as content-hashed files beside them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from '../../context.js';
import type { PageName, StaticAsset, WebBundle } from './static-files.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CHAT_ENTRY = join(ROOT, 'renderer', 'chat', 'main.tsx');
/**
 * The web app's pages, each an entry of the one build: the chat (with its admin views, loaded when
 * opened), and the two pages that must stand alone: first-run setup (before any account exists) and
 * joining with an invite link (before the person has one). They share chunks and one stylesheet's rules.
 */
export const PAGE_ENTRIES: Readonly<Record<PageName, string>> = {
  chat: CHAT_ENTRY,
  setup: join(ROOT, 'renderer', 'setup', 'main.tsx'),
  join: join(ROOT, 'renderer', 'join', 'main.tsx'),
};
/** Where `npm run build` puts the prebuilt bundle: beside dist/app (packaged), or inside a test's build dir. */
const PREBUILT = [join(ROOT, '..', 'web'), join(ROOT, 'web')];

const hashOf = (body: Uint8Array) => createHash('sha256').update(body).digest('hex').slice(0, 12);

/** Content types of the bundle's files, by extension. */
const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  woff2: 'font/woff2',
};
export const assetType = (name: string): string | undefined => TYPES[name.slice(name.lastIndexOf('.') + 1)];

/** An esbuild plugin: KaTeX's stylesheet with only the WOFF2 source of each font (no WOFF or TTF files to ship). */
const katexWoff2Only = {
  name: 'katex-woff2-only',
  setup(build: { onLoad(o: { filter: RegExp }, cb: (a: { path: string }) => { contents: string; loader: 'css' }): void }) {
    build.onLoad({ filter: /[\\/]katex[\\/]dist[\\/]katex(\.min)?\.css$/ }, ({ path }) => ({
      contents: readFileSync(path, 'utf8').replace(/,url\([^)]*\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)/g, ''),
      loader: 'css',
    }));
  },
};

/** Bundles the web app with esbuild (minified, ES2020): per page one JS and one CSS file, plus the chunks they share. */
export async function buildWebBundle(opts: { minify?: boolean } = {}): Promise<WebBundle> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: PAGE_ENTRIES,
    bundle: true,
    splitting: true,
    write: false,
    format: 'esm',
    target: 'es2020',
    minify: opts.minify ?? true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: 'out',
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    legalComments: 'none',
    logLevel: 'silent',
    loader: { '.woff2': 'file' },
    assetNames: '[name]-[hash]',
    plugins: [katexWoff2Only],
  });
  const assets = new Map<string, StaticAsset>();
  const pages = {} as Record<PageName, { script: string; style: string }>;
  for (const name of Object.keys(PAGE_ENTRIES) as PageName[]) pages[name] = { script: '', style: '' };
  for (const file of out.outputFiles) {
    const body = Buffer.from(file.contents);
    const base = basename(file.path);
    const page = /^(\w+)\.(js|css)$/.exec(base);
    if (page && Object.hasOwn(PAGE_ENTRIES, page[1]!)) {
      // An entry: renamed by a hash of its content (nothing imports an entry, so the name is free).
      const name = `${page[1]}-${hashOf(body)}.${page[2]}`;
      pages[page[1] as PageName][page[2] === 'js' ? 'script' : 'style'] = name;
      assets.set(name, { body, type: TYPES[page[2]!]! });
    } else if (assetType(base)) {
      // Shared chunks (`chunk-HASH.js`, imported by name from the entries) and KaTeX's fonts, named by esbuild with a content hash.
      assets.set(base, { body, type: assetType(base)! });
    }
  }
  return { script: pages.chat.script, style: pages.chat.style, pages, assets };
}

/** A bundle `npm run build` wrote to `dir` (build-resources/scripts/build-web.ts), or null if there is none. */
export function readPrebuilt(dir: string): WebBundle | null {
  const manifest = join(dir, 'manifest.json');
  if (!existsSync(manifest)) return null;
  const { script, style, pages, files } = JSON.parse(readFileSync(manifest, 'utf8')) as Pick<WebBundle, 'script' | 'style' | 'pages'> & { files?: string[] };
  const assets = new Map<string, StaticAsset>();
  for (const name of files ?? [script, style]) {
    const type = assetType(name);
    if (type) assets.set(name, { body: readFileSync(join(dir, name)), type });
  }
  return { script, style, pages, assets };
}

/** The prebuilt bundle of a packaged app, if there is one. */
function prebuilt(): WebBundle | null {
  for (const dir of PREBUILT) {
    const bundle = readPrebuilt(dir);
    if (bundle) return bundle;
  }
  return null;
}

/** The bundle this server hands out (built once per server, in `app.staticFiles`; HEARTH_DEV_RENDERER=1 rebuilds each time). */
export function webBundle(app: App): Promise<WebBundle> {
  if (process.env.HEARTH_DEV_RENDERER === '1') return buildWebBundle({ minify: false });
  const files = app.staticFiles;
  let b = files.chatBundle;
  if (!b) {
    const ready = prebuilt();
    const building = ready ? Promise.resolve(ready) : buildWebBundle();
    building.catch((err: unknown) => {
      app.log.error('chat client failed to build', { error: String(err) });
      if (files.chatBundle === building) files.chatBundle = null;
    });
    files.chatBundle = b = building;
  }
  return b;
}
