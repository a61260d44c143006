import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { it } from 'node:test';
import { Store } from '../../server/store/store.js';

/** server/store/README.md's data-directory table names every file the store keeps, so an operator knows what each holds. */
it("the data-directory table (server/store/README.md) lists every collection file of the store", async () => {
  const readme = readFileSync(new URL('../../server/store/README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Data directory'), readme.indexOf('\n## ', readme.indexOf('## Data directory') + 3));
  const listed = new Set([...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
  const dir = await mkdtemp(join(tmpdir(), 'hearth-readme-'));
  try {
    const store = await Store.open(dir);
    const files = store.collections().map((c) => basename(c.file));
    await store.close();
    assert.ok(files.length >= 8, `collections: ${files.join(', ')}`);
    const missing = files.filter((f) => !listed.has(f));
    assert.deepEqual(missing, [], `server/store/README.md's data-directory table lacks ${missing.join(', ')}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
