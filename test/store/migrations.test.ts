import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CURRENT_SCHEMA_VERSION, rewriteJson, type Migration } from '../../server/store/migrations.js';
import type { UsersDoc } from '../../server/store/records.js';
import { Store } from '../../server/store/store.js';

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
    const [next, after] = [CURRENT_SCHEMA_VERSION + 1, CURRENT_SCHEMA_VERSION + 2];
    const migrations: Migration[] = [
      {
        to: next,
        describe: 'rename users to U',
        run: async (d) => {
          ran.push(next);
          await rewriteJson<UsersDoc>(d, 'users.json', (doc) => ({
            ...doc,
            users: doc.users.map((u) => ({ ...u, full_name: u.full_name.toUpperCase() + '!' })),
          }));
        },
      },
      { to: after, describe: 'no-op', run: async () => void ran.push(after) },
    ];
    const migrated = await Store.open(dir, { migrations });
    assert.deepEqual(ran, [next, after]);
    assert.equal(migrated.manifest.data.schemaVersion, after);
    assert.equal(migrated.users.all()[0]!.full_name, 'A!');
    await migrated.close();
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.schemaVersion, after);

    // Already applied: nothing runs again.
    const again = await Store.open(dir, { migrations });
    assert.deepEqual(ran, [next, after]);
    await again.close();

    // This build's real list stops before them: it refuses the newer dir and says why.
    await assert.rejects(Store.open(dir), new RegExp(`newer Hearth \\(schema ${after}`));
  });

  it("version 2: the invite-link permission is stored under Zulip's name, create_multiuse_invite_group", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-mig-'));
    dirs.push(dir);
    const store = await Store.open(dir);
    await store.close();
    const realm = { realm: { id: 1, name: 'Old', settings: { can_create_multiuse_invite_group: 12, enable_read_receipts: false } } };
    await writeFile(join(dir, 'realm.json'), JSON.stringify(realm));
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ schemaVersion: 1, createdAt: '2026-01-01T00:00:00.000Z' }));
    const migrated = await Store.open(dir);
    await migrated.close();
    const settings = JSON.parse(await readFile(join(dir, 'realm.json'), 'utf8')).realm.settings;
    assert.deepEqual(settings, { create_multiuse_invite_group: 12, enable_read_receipts: false });
    assert.equal(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')).schemaVersion, CURRENT_SCHEMA_VERSION);
  });

  it('version 3: a data dir whose segments may hold later copies of messages is marked so older builds refuse it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-mig-'));
    dirs.push(dir);
    await (await Store.open(dir)).close();
    assert.ok(CURRENT_SCHEMA_VERSION >= 3);
    assert.equal(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')).schemaVersion, CURRENT_SCHEMA_VERSION);
  });
});
