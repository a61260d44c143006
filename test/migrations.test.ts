import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { rewriteJson, type Migration } from '../server/store/migrations.js';
import type { UsersDoc } from '../server/store/records.js';
import { Store } from '../server/store/store.js';

describe('schema migrations', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('runs pending migrations in order at start, records the version, and refuses an older Hearth afterwards', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-mig-'));
    dirs.push(dir);
    const first = await Store.open(dir);
    first.users.add({
      email: 'a@example.com',
      full_name: 'A',
      role: 400,
      is_active: true,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      api_key: 'k'.repeat(32),
      password_hash: null,
      date_joined: new Date(0).toISOString(),
      timezone: '',
      avatar_version: 1,
      is_imported_stub: false,
    });
    await first.users.collection.save();
    await first.close();

    const ran: number[] = [];
    const migrations: Migration[] = [
      {
        to: 2,
        describe: 'rename users to U',
        run: async (d) => {
          ran.push(2);
          await rewriteJson<UsersDoc>(d, 'users.json', (doc) => ({
            ...doc,
            users: doc.users.map((u) => ({ ...u, full_name: u.full_name.toUpperCase() + '!' })),
          }));
        },
      },
      { to: 3, describe: 'no-op', run: async () => void ran.push(3) },
    ];
    const migrated = await Store.open(dir, { migrations });
    assert.deepEqual(ran, [2, 3]);
    assert.equal(migrated.manifest.data.schemaVersion, 3);
    assert.equal(migrated.users.all()[0]!.full_name, 'A!');
    await migrated.close();
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.schemaVersion, 3);

    // Already applied: nothing runs again.
    const again = await Store.open(dir, { migrations });
    assert.deepEqual(ran, [2, 3]);
    await again.close();

    // This build's real list knows only version 1: it refuses the newer dir and says why.
    await assert.rejects(Store.open(dir), /newer Hearth \(schema 3/);
  });
});
