/**
 * Temp directories for one test file: `const tempDir = tempDirs('hearth-x-')` at the top level, then
 * `await tempDir()` makes one; every one made is removed once the file's tests are done.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

export function tempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  return async () => {
    const d = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}
