/**
 * The installer configuration (electron-builder.yml) and the build that feeds it: the YAML
 * parses, has every required key, validates against electron-builder's own JSON schema, names
 * files that exist, and `npm run build`'s output runs under plain Node (no tsx).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { copyAssets } from '../../build-resources/scripts/copy-assets.js';
import { buildWeb } from '../../build-resources/scripts/build-web.js';
import { LINUX_SIZES, encodePng, renderIcon } from '../../build-resources/scripts/generate-icons.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const readJson = (p: string) => JSON.parse(readFileSync(join(ROOT, p), 'utf8'));
// biome-ignore lint/suspicious/noExplicitAny: electron-builder.yml as parsed YAML, read key by key
const config: any = parseYaml(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'));
const pkg = readJson('package.json');

/** Width and height of a PNG file (from its IHDR), after checking the signature. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  assert.ok(b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${file} is not a PNG`);
  assert.equal(b.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it('has the required keys and targets', () => {
    assert.match(config.appId, /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i);
    assert.equal(config.productName, 'Hearth');
    assert.equal(config.asar, true);
    // sharp's native addon and libvips' libraries cannot be loaded from inside the asar archive.
    assert.deepEqual(config.asarUnpack, ['**/node_modules/sharp/**/*', '**/node_modules/@img/**/*']);
    assert.ok(existsSync(join(ROOT, 'node_modules', 'sharp', 'package.json')), 'sharp is a dependency');
    assert.deepEqual(config.linux.target, ['AppImage', 'deb']);
    assert.deepEqual(config.win.target, ['nsis']);
    assert.deepEqual(config.mac.target, ['dmg']);
    assert.ok(config.linux.maintainer, 'deb packages need a maintainer');
    for (const part of ['main', 'server', 'renderer']) {
      assert.ok(config.files.includes(`dist/app/${part}/**/*`), `files must include the compiled ${part}/`);
    }
    assert.ok(config.files.includes('package.json'));
  });

  it('validates against electron-builder’s own schema (and that check rejects a broken config)', () => {
    const schemaFile = createRequire(import.meta.url).resolve('app-builder-lib/scheme.json');
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    assert.equal(validate(config), true, JSON.stringify(validate.errors, null, 1));
    assert.equal(validate({ ...config, asar: 'yes', notAnOption: 1 }), false);
  });

  it('loads and validates through electron-builder’s own configuration code (no Electron binary needed)', async () => {
    const require = createRequire(import.meta.url);
    const builderLib = dirname(require.resolve('app-builder-lib/package.json'));
    const { getConfig, validateConfiguration } = require(join(builderLib, 'out', 'util', 'config', 'config.js'));
    const builderUtil = dirname(createRequire(join(builderLib, 'package.json')).resolve('builder-util/package.json'));
    const { DebugLogger } = require(join(builderUtil, 'out', 'DebugLogger.js'));
    const loaded = await getConfig(ROOT, 'electron-builder.yml', null);
    await validateConfiguration(loaded, new DebugLogger(false));
    assert.equal(loaded.productName, 'Hearth');
    await assert.rejects(validateConfiguration({ ...loaded, notAnOption: true }, new DebugLogger(false)), /unknown property/);
  });

  it('ships emojibase-data\'s English data only: every other locale directory is excluded', () => {
    const config = parseYaml(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'));
    const rule = (config.files as string[]).find((f) => f.startsWith('!**/node_modules/emojibase-data/{'));
    assert.ok(rule, 'an exclusion rule for emojibase-data locales');
    const excluded = new Set(rule.slice(rule.indexOf('{') + 1, rule.indexOf('}')).split(','));
    const dir = join(ROOT, 'node_modules', 'emojibase-data');
    const locales = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    for (const name of locales) {
      if (['en', 'meta', 'versions'].includes(name)) assert.ok(!excluded.has(name), `${name} is needed`);
      else assert.ok(excluded.has(name), `locale ${name} would be shipped: add it to the exclusion rule`);
    }
    // What the server reads is in what is kept.
    const emojiSource = readFileSync(join(ROOT, 'server', 'lib', 'emoji', 'unicode.ts'), 'utf8');
    for (const [, path] of emojiSource.matchAll(/'emojibase-data\/([^']+)'/g)) {
      assert.ok(!excluded.has(path!.split('/')[0]!), `${path} must ship`);
    }
  });

  it('names files that exist: build resources and icons of the sizes each platform needs', () => {
    assert.ok(existsSync(join(ROOT, config.directories.buildResources)));
    const big = pngSize(join(ROOT, config.mac.icon));
    assert.ok(big.width >= 512 && big.width === big.height, 'macOS needs a square icon of at least 512 px');
    const win = pngSize(join(ROOT, config.win.icon));
    assert.ok(win.width >= 256 && win.width === win.height, 'Windows needs a square icon of at least 256 px');
    for (const n of LINUX_SIZES) assert.deepEqual(pngSize(join(ROOT, config.linux.icon, `${n}x${n}.png`)), { width: n, height: n });
  });

  it('the committed icons are what the generator draws', () => {
    for (const n of [16, 32, 48]) {
      assert.ok(encodePng(n, renderIcon(n)).equals(readFileSync(join(ROOT, 'build-resources', 'icons', `${n}x${n}.png`))), `${n}px`);
    }
  });

  it('the app entry point is the compiled main/index.ts, and the scripts build then pack', () => {
    assert.equal(config.extraMetadata.main, 'dist/app/main/index.js');
    assert.equal(pkg.main, config.extraMetadata.main);
    const build = readJson('tsconfig.build.json');
    assert.equal(build.compilerOptions.outDir, 'dist/app');
    assert.equal(build.compilerOptions.rootDir, '.');
    assert.ok(existsSync(join(ROOT, 'main', 'index.ts')));
    assert.match(pkg.scripts.build, /tsc -p tsconfig\.build\.json/);
    assert.match(pkg.scripts.dist, /^npm run build && node --import tsx build-resources\/scripts\/ensure-electron\.ts && electron-builder --config electron-builder\.yml$/);
    assert.match(pkg.scripts.desktop, /^npm run build && node --import tsx build-resources\/scripts\/ensure-electron\.ts && electron \.$/);
  });
});

describe('installing with only the npm registry (no github.com)', () => {
  it('no install script runs (.npmrc), and CI installs without ELECTRON_SKIP_BINARY_DOWNLOAD', () => {
    assert.match(readFileSync(join(ROOT, '.npmrc'), 'utf8'), /^ignore-scripts=true$/m);
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    assert.doesNotMatch(ci, /^\s*export ELECTRON_SKIP_BINARY_DOWNLOAD/m);
    assert.match(ci, /^npm ci\b/m);
  });

  const ensure = (dir: string) =>
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'build-resources', 'scripts', 'ensure-electron.ts'), dir], { cwd: ROOT }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it('npm run desktop/dist: a failed download of the binary says what is needed, without a stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-electron-'));
    try {
      await writeFile(join(dir, 'package.json'), '{"name":"electron","version":"0.0.0"}');
      await writeFile(join(dir, 'install.js'), 'console.error("RequestError: getaddrinfo ENOTFOUND github.com"); process.exit(1);');
      const r = await ensure(dir);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /needs Electron's binary, which could not be downloaded/);
      assert.match(r.stderr, /ELECTRON_MIRROR/);
      assert.match(r.stderr, /npm start/);
      assert.match(r.stderr, /The download said: RequestError: getaddrinfo ENOTFOUND github\.com/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('with the binary in place nothing is downloaded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-electron-'));
    try {
      await writeFile(join(dir, 'package.json'), '{"name":"electron","version":"0.0.0"}');
      await writeFile(join(dir, 'install.js'), 'process.exit(3);');
      await writeFile(join(dir, 'path.txt'), 'electron');
      await mkdir(join(dir, 'dist'));
      await writeFile(join(dir, 'dist', 'electron'), '');
      const r = await ensure(dir);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /Downloading/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run build output', { timeout: 180_000 }, () => {
  it('compiles main/ and server/ to JS that runs under plain Node', async () => {
    // Inside the repo (dist/ is git-ignored) so the compiled code finds node_modules, as when packed.
    await mkdir(join(ROOT, 'dist'), { recursive: true });
    const out = await mkdtemp(join(ROOT, 'dist', 'build-test-'));
    try {
      await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', out], {
        cwd: ROOT,
      });
      copyAssets(out);
      await buildWeb(join(out, 'web'));
      assert.ok(!existsSync(join(out, 'renderer', 'chat')), 'the web app is bundled, not shipped as files');
      for (const f of ['main/index.js', 'main/preload.cjs', 'main/lib/url-policy.js', 'server/start.js', 'server/static/hearth-icon.png']) {
        assert.ok(existsSync(join(out, f)), f);
      }
      // Of renderer/ only the help center's pages ship as files (the server renders them); the web app is in web/.
      assert.deepEqual(readdirSync(join(out, 'renderer')), ['help']);
      for (const name of readdirSync(join(ROOT, 'renderer', 'help'))) assert.ok(existsSync(join(out, 'renderer', 'help', name)), `renderer/help/${name}`);
      // The sandboxed preload must be CommonJS.
      assert.match(readFileSync(join(out, 'main', 'preload.cjs'), 'utf8'), /require\("electron"\)/);
      // The compiled server starts and answers without tsx (what the packaged app runs).
      const script = `
        const { startServer } = await import(${JSON.stringify(join(out, 'server', 'start.js'))});
        const { mkdtempSync, rmSync } = await import('node:fs');
        const dir = mkdtempSync(${JSON.stringify(join(tmpdir(), 'hearth-built-'))});
        const quiet = { info() {}, warn() {}, error() {} };
        const s = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: quiet, setupToken: true });
        const body = await fetch(s.url + '/api/v1/hearth/setup').then((r) => r.json());
        const manifest = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(join(out, 'web', 'manifest.json'))}, 'utf8'));
        const chat = await fetch(s.url + '/static/web/' + manifest.script);
        body.chat = { status: chat.status, cache: chat.headers.get('cache-control'), bytes: (await chat.arrayBuffer()).byteLength };
        const help = await fetch(s.url + '/help/admin-guide');
        body.help = { status: help.status, html: await help.text() };
        await s.stop();
        rmSync(dir, { recursive: true, force: true });
        process.stdout.write(JSON.stringify(body));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir() });
      const answer = JSON.parse(stdout);
      assert.equal(answer.needs_setup, true);
      // The chat client ships prebuilt, content-hashed, cacheable for a year.
      assert.equal(answer.chat.status, 200);
      assert.match(answer.chat.cache, /max-age=31536000, immutable/);
      assert.ok(answer.chat.bytes > 10_000);
      // The help center's pages ship with the app and are served from there.
      for (const page of readdirSync(join(ROOT, 'renderer', 'help'))) assert.ok(existsSync(join(out, 'renderer', 'help', page)), `renderer/help/${page}`);
      assert.equal(answer.help.status, 200);
      assert.match(answer.help.html, /<title>Admin guide · Hearth help<\/title>/);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
