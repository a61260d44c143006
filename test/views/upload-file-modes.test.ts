/**
 * Every received file under the data dir is mode 0600 in a 0700 folder (server/store/README.md):
 * plain uploads (and their spooled bodies), tus uploads finished or not, avatars, custom emoji,
 * the organization icon; files left 0644 by older versions are closed at start.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { restart, uploadFiles } from '../helpers/uploads.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** Asserts `file` is 0600 and every folder from it up to the data dir 0700. */
async function assertPrivate(ts: TestServer, file: string): Promise<void> {
  assert.equal((await modeOf(file)).toString(8), '600', file);
  for (let dir = join(file, '..'); dir.length > ts.dataDir.length; dir = join(dir, '..')) {
    assert.equal((await modeOf(dir)).toString(8), '700', dir);
  }
}

async function postImage(client: Client, path: string, name = 'a.png') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), name);
  const res = await fetch(`${client.baseUrl}/api/v1${path}`, { method: 'POST', headers: client.authHeader, body: form });
  return { status: res.status, body: await res.json() };
}

const tusHeaders = (client: Client, extra: Record<string, string>) => ({ ...client.authHeader, 'Tus-Resumable': '1.0.0', ...extra });

describe('received files are 0600 in 0700 folders', { skip: process.platform === 'win32' }, () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('POST /user_uploads: the stored file', async () => {
    const res = await uploadFiles(ts.ownerClient, [{ name: 'notes.txt', content: 'private' }]);
    assert.equal(res.status, 200);
    const a = ts.store.attachments.ownedBy(ts.owner.id).at(-1)!;
    await assertPrivate(ts, join(ts.dataDir, 'uploads', 'files', a.storage));
  });

  it('a multipart body spooling to uploads/tmp', async () => {
    const { hostname, port } = new URL(ts.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const boundary = 'hearthboundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const total = head.length + 100_000 + `\r\n--${boundary}--\r\n`.length;
    const auth = ts.ownerClient.authHeader.authorization!;
    socket.write(
      `POST /api/v1/user_uploads HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${auth}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${total}\r\n\r\n${head}${'x'.repeat(50_000)}`,
    );
    const tmp = join(ts.dataDir, 'uploads', 'tmp');
    let spooled: string[] = [];
    for (let i = 0; i < 100 && !spooled.length; i++) {
      await sleep(20);
      spooled = await readdir(tmp);
    }
    try {
      assert.equal(spooled.length, 1, 'the body is spooling');
      await assertPrivate(ts, join(tmp, spooled[0]!));
    } finally {
      socket.destroy();
    }
  });

  it('tus: the unfinished upload and its record, then the stored file', async () => {
    const created = await fetch(`${ts.url}/api/v1/tus`, {
      method: 'POST',
      headers: tusHeaders(ts.ownerClient, { 'Upload-Length': '10', 'Upload-Metadata': `filename ${Buffer.from('t.txt').toString('base64')}` }),
    });
    assert.equal(created.status, 201);
    const location = created.headers.get('location')!;
    const id = location.slice(location.lastIndexOf('/') + 1);
    const tus = join(ts.dataDir, 'uploads', 'tus');
    const send = (offset: number, text: string) =>
      fetch(`${ts.url}${location}`, {
        method: 'PATCH',
        headers: tusHeaders(ts.ownerClient, { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }),
        body: text,
      });
    assert.equal((await send(0, 'hello')).status, 204);
    await assertPrivate(ts, join(tus, id));
    await assertPrivate(ts, join(tus, `${id}.json`));
    const done = await send(5, 'world');
    assert.equal(done.status, 200);
    const a = ts.store.attachments.ownedBy(ts.owner.id).at(-1)!;
    assert.equal(a.file_name, 't.txt');
    await assertPrivate(ts, join(ts.dataDir, 'uploads', 'files', a.storage));
  });

  it('avatars, custom emoji and the organization icon', async () => {
    assert.equal((await postImage(ts.ownerClient, '/users/me/avatar')).status, 200);
    await assertPrivate(ts, join(ts.dataDir, 'avatars', ts.store.users.get(ts.owner.id)!.avatar!.file));
    const emoji = await postImage(ts.ownerClient, '/realm/emoji/hearth_test');
    assert.equal(emoji.status, 200, JSON.stringify(emoji.body));
    const emojiFiles = await readdir(join(ts.dataDir, 'emoji'));
    assert.equal(emojiFiles.length, 1);
    await assertPrivate(ts, join(ts.dataDir, 'emoji', emojiFiles[0]!));
    assert.equal((await postImage(ts.ownerClient, '/realm/icon')).status, 200);
    await assertPrivate(ts, join(ts.dataDir, 'realm', ts.store.realm.data.realm!.settings.icon!.file));
  });

  it('files an older version left open are closed at start; others are left alone', async () => {
    const oldDir = join(ts.dataDir, 'uploads', 'files', 'zz');
    await mkdir(oldDir, { mode: 0o755 });
    await chmod(oldDir, 0o755);
    const oldFile = join(oldDir, 'old');
    await writeFile(oldFile, 'x', { mode: 0o644 });
    await chmod(oldFile, 0o644);
    const avatar = join(ts.dataDir, 'avatars', 'old.png');
    await writeFile(avatar, 'x', { mode: 0o644 });
    await chmod(avatar, 0o644);
    await chmod(join(ts.dataDir, 'avatars'), 0o755);
    const cert = join(ts.dataDir, 'tls-like.crt');
    await writeFile(cert, 'x', { mode: 0o644 });
    await chmod(cert, 0o644);
    ts = await restart(ts);
    await assertPrivate(ts, oldFile);
    await assertPrivate(ts, avatar);
    assert.equal((await modeOf(cert)).toString(8), '644', 'outside the received files: untouched');
  });
});
