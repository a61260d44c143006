import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Schema migrations, applied in order at start to bring a data dir up to
 * CURRENT_SCHEMA_VERSION. Each one edits files in place before any collection
 * is opened; the manifest's version is bumped after each step lands.
 */
export interface Migration {
  to: number;
  describe: string;
  run(dataDir: string): Promise<void>;
}

export const migrations: Migration[] = [
  // Version 1 is the first layout; later versions add steps here, for example:
  // { to: 2, describe: 'add users[].timezone', run: async (dir) => { ... } },
];

export const CURRENT_SCHEMA_VERSION = 1 + migrations.length;

/** Helper for migrations: rewrite one JSON file through a function. */
export async function rewriteJson<T>(dataDir: string, name: string, fn: (doc: T) => T): Promise<void> {
  const file = join(dataDir, name);
  const doc = JSON.parse(await readFile(file, 'utf8')) as T;
  await writeFile(file, JSON.stringify(fn(doc)), { mode: 0o600 });
}
