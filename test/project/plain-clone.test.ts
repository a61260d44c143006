/**
 * A plain clone has no `../shared` (Zulip's OpenAPI file sits beside the repository only in
 * CI): the tests that read it skip with a printed notice instead of failing. The repository's
 * files are copied to a temporary folder with nothing beside it (node_modules linked), and the
 * four test files that read the reference run there.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READERS = [
  'test/conformance/channels-event-shapes.test.ts',
  'test/conformance/openapi.test.ts',
  'test/conformance/openapi-routes.test.ts',
  'test/conformance/fuzz-routes.test.ts',
];

/** The environment without the test runner's marker (else the child refuses to run files). */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

describe('npm test on a clone without ../shared', { timeout: 120_000 }, () => {
  it("the tests that read Zulip's OpenAPI file skip with a notice, and pass", async () => {
    const top = await mkdtemp(join(tmpdir(), 'hearth-clone-'));
    const repo = join(top, 'hearth');
    try {
      for (const part of ['package.json', 'tsconfig.json', 'server', 'renderer', 'test']) {
        await cp(join(ROOT, part), join(repo, part), { recursive: true, filter: (src) => !src.includes('test-results') });
      }
      await symlink(join(ROOT, 'node_modules'), join(repo, 'node_modules'), 'dir');
      assert.equal(existsSync(join(top, 'shared')), false);
      const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...READERS], { cwd: repo, maxBuffer: 32 << 20, env: childEnv() }, (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
      assert.equal(out.code, 0, `${out.stdout.slice(-2000)}\n${out.stderr.slice(-2000)}`);
      assert.match(out.stdout + out.stderr, /notice: .*zulip-openapi\.yaml not found/);
      assert.equal(out.stdout.match(/^ok \d+ - .* # SKIP .*zulip-openapi\.yaml not found/gm)?.length, READERS.length);
      assert.match(out.stdout, /^# fail 0$/m);
    } finally {
      await rm(top, { recursive: true, force: true });
    }
  });
});
