/**
 * The CI and release workflow (.github/workflows/, issue 35), checked without GitHub: every workflow
 * file validates against GitHub's workflow schema (@action-validator/cli, which also refuses a broken
 * one); actions are pinned to full commit SHAs with the release in a comment; jobs get the least
 * permissions; the desktop builds run npm ci, npm run dist and the packaged app's smoke test on the
 * three systems and keep the installers; a version tag releases them with SHA-256 sums; signing reads
 * secrets and falls back to unsigned. And the smoke test walks through the first run the README describes.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKFLOWS = join(ROOT, '.github', 'workflows');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const run = promisify(execFile);
/** A GitHub expression as written in a workflow, `${{ … }}` (built, so it reads as no template placeholder). */
const expr = (inner: string) => `$${'{{'} ${inner} }}`;
const VALIDATOR = join(ROOT, 'node_modules', '@action-validator', 'cli', 'cli.mjs');

const validate = (file: string) =>
  run(process.execPath, [VALIDATOR, file], { cwd: ROOT }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );

const workflowFiles = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
// biome-ignore lint/suspicious/noExplicitAny: a workflow as parsed YAML, read key by key
const ci: any = parseYaml(read('.github/workflows/ci.yml'));
// biome-ignore lint/suspicious/noExplicitAny: steps as parsed YAML
type Step = Record<string, any>;
const steps = (job: string): Step[] => ci.jobs[job].steps;
const runs = (job: string) => steps(job).map((s) => String(s.run ?? '')).join('\n');
const uses = (job: string) => steps(job).map((s) => String(s.uses ?? '').split('@')[0]).filter(Boolean);

describe('.github/workflows', () => {
  it('every workflow file validates against GitHub’s workflow schema', { timeout: 60_000 }, async () => {
    assert.ok(workflowFiles.includes('ci.yml'));
    for (const f of workflowFiles) {
      const r = await validate(join(WORKFLOWS, f));
      assert.equal(r.code, 0, `${f}: ${r.out}`);
    }
  });

  it('the validator refuses a broken workflow (so the check above checks something)', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-workflow-'));
    try {
      const bad = join(dir, 'bad.yml');
      await writeFile(bad, 'on: push\npermissions:\n  contents: sideways\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n');
      const r = await validate(bad);
      assert.notEqual(r.code, 0);
      assert.match(r.out, /\/permissions\/contents/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('pins every action to a full commit SHA with its release in a comment', () => {
    for (const f of workflowFiles) {
      const lines = read(`.github/workflows/${f}`).split('\n').filter((l) => /^\s*(-\s+)?uses:/.test(l));
      assert.ok(lines.length > 0);
      for (const l of lines) assert.match(l, /uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/, `${f}: ${l.trim()}`);
    }
  });

  it('runs on push and pull request, and releases only on a version tag', () => {
    assert.deepEqual(Object.keys(ci.on).sort(), ['pull_request', 'push']);
    assert.deepEqual(ci.on.push.tags, ['v*']);
    assert.equal(ci.jobs.release.if, "startsWith(github.ref, 'refs/tags/v')");
    assert.deepEqual(ci.jobs.release.needs, ['test', 'desktop']);
  });

  it('gives each job the least permissions: nothing by default, read for the builds, write only to release', () => {
    assert.deepEqual(ci.permissions, {});
    assert.deepEqual(ci.jobs.test.permissions, { contents: 'read' });
    assert.deepEqual(ci.jobs.desktop.permissions, { contents: 'read' });
    assert.deepEqual(ci.jobs.release.permissions, { contents: 'write' });
    for (const job of ['test', 'desktop']) {
      const checkout = steps(job).find((s) => String(s.uses).startsWith('actions/checkout@'));
      assert.equal(checkout?.with?.['persist-credentials'], false, `${job} keeps no token in .git`);
    }
  });

  it('the test job is .ci/run (npm test) in Debian, with Debian’s Chromium', () => {
    assert.match(ci.jobs.test.container, /^node:\d+-(bookworm|trixie)$/);
    assert.match(runs('test'), /^\.ci\/run$/m);
    assert.match(read('.ci/run'), /apt-get install -y -qq chromium/);
    assert.match(read('.ci/run'), /^npm test$/m);
  });

  it('builds on Linux, Windows and macOS: npm ci, npm run dist, the smoke test, the installers kept', () => {
    const matrix: Step[] = ci.jobs.desktop.strategy.matrix.include;
    assert.deepEqual(matrix.map((m) => m.os), ['ubuntu-latest', 'windows-latest', 'macos-latest']);
    const script = runs('desktop');
    const order = ['npm ci', 'npm run dist', 'npx playwright test -c test/desktop'].map((c) => script.indexOf(c));
    assert.ok(order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1]!)), `in order: ${order}`);
    const upload = steps('desktop').find((s) => String(s.uses).startsWith('actions/upload-artifact@') && !s.if);
    assert.equal(upload?.with?.['if-no-files-found'], 'error');
    // Each system's installers, and the executable its smoke test launches (as electron-builder names them).
    const builder = parseYaml(read('electron-builder.yml'));
    const installers = matrix.map((m) => String(m.installers));
    assert.match(installers[0]!, /\*\.AppImage/);
    assert.match(installers[0]!, /\*\.deb/);
    assert.match(installers[1]!, /\*\.exe/);
    assert.match(installers[2]!, /\*\.dmg/);
    assert.equal(matrix[0]!.app, `dist/installers/linux-unpacked/${builder.linux.executableName}`);
    assert.equal(matrix[1]!.app, `dist/installers/win-unpacked/${builder.productName}.exe`);
    assert.equal(matrix[2]!.app, `dist/installers/mac-arm64/${builder.productName}.app/Contents/MacOS/${builder.productName}`);
    assert.equal(builder.directories.output, 'dist/installers');
    const smoke = steps('desktop').find((s) => String(s.run ?? '').includes('test/desktop'));
    assert.equal(smoke?.env?.HEARTH_APP_EXECUTABLE, `${expr('github.workspace')}/${expr('matrix.app')}`);
  });

  it('caches npm’s downloads and Electron’s, per system', () => {
    assert.equal(steps('desktop').find((s) => String(s.uses).startsWith('actions/setup-node@'))?.with?.cache, 'npm');
    const paths = ci.jobs.desktop.strategy.matrix.include.map((m: Step) => String(m['electron-cache']));
    assert.match(paths[0], /~\/\.cache\/electron\n~\/\.cache\/electron-builder/);
    assert.match(paths[1], /AppData\/Local\/electron\/Cache\n.*AppData\/Local\/electron-builder\/Cache/);
    assert.match(paths[2], /Library\/Caches\/electron\n.*Library\/Caches\/electron-builder/);
    assert.ok(steps('desktop').some((s) => String(s.uses).startsWith('actions/cache@') && s.with.path === expr('matrix.electron-cache')));
    assert.ok(uses('test').includes('actions/cache'));
  });

  it('signs with certificates from secrets when there are any, and builds unsigned otherwise', () => {
    const dist = steps('desktop').find((s) => String(s.run ?? '').includes('npm run dist'))!;
    for (const name of ['CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID', 'WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD']) {
      assert.match(String(dist.env[name]), /^\$\{\{ runner\.os == '(macOS|Windows)' && secrets\.\w+ \|\| '' \}\}$/, name);
    }
    assert.match(dist.run, /export CSC_IDENTITY_AUTO_DISCOVERY=false/);
    assert.match(dist.run, /--publish never/);
  });

  it('a release gets every system’s installers and their SHA-256 sums', () => {
    const download = steps('release').find((s) => String(s.uses).startsWith('actions/download-artifact@'));
    assert.deepEqual(download?.with, { pattern: 'hearth-*', path: 'installers', 'merge-multiple': true });
    assert.match(runs('release'), /sha256sum -- \* > SHA256SUMS\.txt/);
    assert.match(runs('release'), /gh release create "\$TAG" .*installers\/\*/);
    assert.equal(steps('release').find((s) => String(s.run ?? '').startsWith('gh release'))?.env?.GH_TOKEN, expr('github.token'));
  });
});

describe('the packaged app’s smoke test', () => {
  it('walks through the first run exactly as the README describes it, in order', () => {
    const spec = read('test/desktop/smoke.spec.ts');
    const stepTitles = [...spec.matchAll(/test\.step\('([^']+)'/g)].map((m) => m[1]);
    const readme = read('README.md').split('\n');
    const intro = readme.findIndex((l) => l.startsWith('What the first run does') && l.includes('test/desktop/smoke.spec.ts'));
    assert.ok(intro >= 0, 'README says what the first run does, naming the smoke test');
    const list: string[] = [];
    for (let i = intro + 2; i < readme.length && /^\d+\. /.test(readme[i]!); i++) list.push(readme[i]!.replace(/^\d+\. /, ''));
    assert.ok(list.length >= 6, `the README's list: ${list}`);
    assert.deepEqual(stepTitles, list);
    // What the issue asks of it: setup, the chat, one instance, the LAN, a thumbnail (sharp's native module), quit.
    for (const word of [/setup page/, /organization/, /chat/, /second copy/, /LAN/, /thumbnails/, /unlocked/]) {
      assert.ok(list.some((l) => word.test(l)), String(word));
    }
  });

  it('is not one of npm test’s browser specs: its own Playwright config, which the test job does not run', async () => {
    const e2e = (await import('../e2e/playwright.config.js')).default;
    assert.equal(e2e.testDir, '.');
    assert.ok(!readdirSync(join(ROOT, 'test', 'e2e')).some((f) => f.includes('smoke')));
    const desktop = (await import('../desktop/playwright.config.js')).default;
    assert.equal(String(desktop.testMatch), String(/smoke\.spec\.ts$/));
    const pkg = JSON.parse(read('package.json'));
    assert.doesNotMatch(pkg.scripts.test, /test\/desktop/);
    assert.doesNotMatch(pkg.scripts['test:browser'], /test\/desktop/);
  });

  it('@action-validator/cli is an exact devDependency, and the lock agrees', () => {
    const pkg = JSON.parse(read('package.json'));
    const lock = JSON.parse(read('package-lock.json'));
    const version = pkg.devDependencies['@action-validator/cli'];
    assert.match(version, /^\d+\.\d+\.\d+$/);
    assert.equal(lock.packages[''].devDependencies['@action-validator/cli'], version);
    assert.equal(lock.packages['node_modules/@action-validator/cli'].version, version);
    assert.ok(lock.packages['node_modules/@action-validator/core'], 'its peer, the validator itself');
  });
});
