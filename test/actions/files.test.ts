/**
 * Every received file reaches its place through one action (server/actions/files.ts):
 * uploads, avatars (users' and bots'), the organization icon and custom emoji land
 * on disk equal to what was sent, and the file and each folder from its own up to
 * the data dir are fsynced (file first) before the answer.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FileHandle } from 'node:fs/promises';
import { placeFile } from '../../server/actions/files.js';
import type { App } from '../../server/context.js';
import { pathIdFromReference } from '../../server/lib/uploads/names.js';
import { uploadOne } from '../helpers/uploads.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';

/** A 1×1 PNG; each test appends random bytes (only the first bytes are sniffed), so each upload is unique. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const uniquePng = () => Buffer.concat([PNG, randomBytes(32)]);

/** Paths fsynced through node:fs/promises `open(...).sync()`, in order (named imports follow the patch). */
const synced: string[] = [];
const fsp = createRequire(import.meta.url)('node:fs/promises') as { open: (...a: unknown[]) => Promise<FileHandle> };
const realOpen = fsp.open;

before(() => {
  fsp.open = async (...args: unknown[]) => {
    const handle = await realOpen(...args);
    const sync = handle.sync.bind(handle);
    handle.sync = async () => {
      await sync();
      synced.push(resolve(String(args[0])));
    };
    return handle;
  };
  syncBuiltinESMExports();
});
after(() => {
  fsp.open = realOpen;
  syncBuiltinESMExports();
});
beforeEach(() => {
  synced.length = 0;
});

/** The file was fsynced, then every folder from its own up to `root`. */
function assertDurable(file: string, root: string) {
  const at = synced.lastIndexOf(resolve(file));
  assert.ok(at >= 0, `${file} fsynced`);
  for (let dir = dirname(resolve(file)); ; dir = dirname(dir)) {
    assert.ok(synced.indexOf(dir, at) > at, `${dir} fsynced after ${file}`);
    if (dir === resolve(root)) break;
  }
}

async function multipart(client: Client, method: string, path: string, data: Buffer, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'image.png');
  const res = await fetch(`${client.baseUrl}/api/v1${path}`, { method, headers: client.authHeader, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('placeFile', () => {
  it('moves the file into new folders (0700), fsyncs it and each folder up to the data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-place-'));
    try {
      const from = join(dataDir, 'spool-1');
      await writeFile(from, 'bytes');
      const to = join(dataDir, 'a', 'b', 'c', 'file');
      await placeFile({ config: { dataDir } } as unknown as App, from, to);
      assert.equal(await readFile(to, 'utf8'), 'bytes');
      assert.ok(!existsSync(from));
      for (const dir of ['a', 'a/b', 'a/b/c']) assert.equal(statSync(join(dataDir, dir)).mode & 0o777, 0o700, dir);
      assertDurable(to, dataDir);
      assert.ok(!synced.includes(resolve(dirname(dataDir))), 'nothing above the data dir');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('received files land on disk durably, equal to the upload', () => {
  let ts: TestServer;
  let member: Client;
  let memberId: number;
  before(async () => {
    ts = await startTestServer();
    const account = await ts.addUser('Mia');
    memberId = account.id;
    member = ts.client(account);
  });
  after(() => ts.stop());

  it('POST /user_uploads', async () => {
    const data = randomBytes(1000);
    const url = await uploadOne(member, 'notes.bin', data);
    const file = join(ts.dataDir, 'uploads', 'files', ts.store.attachments.byPathId(pathIdFromReference(url)!)!.storage);
    assert.ok((await readFile(file)).equals(data));
    assertDurable(file, ts.dataDir);
  });

  it('POST /users/me/avatar', async () => {
    const data = uniquePng();
    const res = await multipart(member, 'POST', '/users/me/avatar', data);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const file = join(ts.dataDir, 'avatars', ts.store.users.get(memberId)!.avatar!.file);
    assert.ok((await readFile(file)).equals(data));
    assertDurable(file, ts.dataDir);
  });

  it('POST /bots and PATCH /bots/{id} with an avatar', async () => {
    const data = uniquePng();
    const res = await multipart(member, 'POST', '/bots', data, { full_name: 'Pic Bot', short_name: 'picture' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const bot = ts.store.users.get(res.body.user_id as number)!;
    const file = join(ts.dataDir, 'avatars', bot.avatar!.file);
    assert.ok((await readFile(file)).equals(data));
    assertDurable(file, ts.dataDir);

    synced.length = 0;
    const next = uniquePng();
    const patched = await multipart(member, 'PATCH', `/bots/${bot.id}`, next);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const nextFile = join(ts.dataDir, 'avatars', ts.store.users.get(bot.id)!.avatar!.file);
    assert.notEqual(nextFile, file);
    assert.ok((await readFile(nextFile)).equals(next));
    assertDurable(nextFile, ts.dataDir);
  });

  it('POST /realm/icon', async () => {
    const data = uniquePng();
    const res = await multipart(ts.ownerClient, 'POST', '/realm/icon', data);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const file = join(ts.dataDir, 'realm', ts.store.realm.data.realm!.settings.icon!.file);
    assert.ok((await readFile(file)).equals(data));
    assertDurable(file, ts.dataDir);
  });

  it('POST /realm/emoji/{name}', async () => {
    const data = uniquePng();
    const res = await multipart(ts.ownerClient, 'POST', '/realm/emoji/placed', data);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const emoji = ts.store.emoji.data.emoji.find((e) => e.name === 'placed')!;
    const file = join(ts.dataDir, 'emoji', emoji.file);
    assert.ok((await readFile(file)).equals(data));
    assertDurable(file, ts.dataDir);
  });
});
