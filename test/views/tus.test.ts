import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { doDeactivateUser } from '../../server/actions/users-activation.js';
import { pathIdFromReference } from '../../server/lib/uploads/names.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { fetchFile, restart } from '../helpers/uploads.js';
import { verifyAction } from '../helpers/verify-action.js';

const MiB = 1024 * 1024;
const b64 = (s: string) => Buffer.from(s).toString('base64');

function tusHeaders(client: Client, extra: Record<string, string> = {}): Record<string, string> {
  return { ...client.authHeader, 'Tus-Resumable': '1.0.0', ...extra };
}

async function create(client: Client, length: number, meta: Record<string, string> = {}, extra: Record<string, string> = {}) {
  const metadata = Object.entries(meta)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');
  return fetch(`${client.baseUrl}/api/v1/tus`, {
    method: 'POST',
    headers: tusHeaders(client, { 'Upload-Length': String(length), ...(metadata ? { 'Upload-Metadata': metadata } : {}), ...extra }),
  });
}

async function patch(client: Client, location: string, offset: number, bytes: Buffer) {
  return fetch(`${client.baseUrl}${location}`, {
    method: 'PATCH',
    headers: tusHeaders(client, { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }),
    body: new Uint8Array(bytes),
  });
}

async function head(client: Client, location: string) {
  return fetch(`${client.baseUrl}${location}`, { method: 'HEAD', headers: tusHeaders(client) });
}

/**
 * A PATCH whose connection drops halfway: announces `total` bytes, sends
 * `sent` of them, then closes the socket.
 */
async function interruptedPatch(client: Client, location: string, offset: number, bytes: Buffer, sent: number) {
  const { hostname, port } = new URL(client.baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.on('error', () => undefined);
  const headers = tusHeaders(client, {
    'Upload-Offset': String(offset),
    'Content-Type': 'application/offset+octet-stream',
    'Content-Length': String(bytes.length),
  });
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.write(`PATCH ${location} HTTP/1.1\r\nHost: ${hostname}\r\n${lines}\r\n`);
  await new Promise<void>((resolve) => socket.write(bytes.subarray(0, sent), () => resolve()));
  await sleep(150);
  socket.destroy();
}

describe('resumable uploads (/api/v1/tus)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('answers OPTIONS without credentials with the protocol capabilities', async () => {
    const res = await fetch(`${ts.url}/api/v1/tus`, { method: 'OPTIONS' });
    assert.equal(res.status, 204);
    assert.match(res.headers.get('tus-version') ?? '', /1\.0\.0/);
    assert.match(res.headers.get('tus-extension') ?? '', /creation/);
    assert.equal(res.headers.get('tus-max-size'), String(25 * MiB));
  });

  it('a complete upload becomes the same attachment and URL as the plain endpoint, answered as Zulip does', async () => {
    const data = randomBytes(300_000);
    let location = '';
    let body: { url: string; filename: string } = { url: '', filename: '' };
    const events = await verifyAction(ts.ownerClient, async () => {
      const created = await create(ts.ownerClient, data.length, { filename: 'big photo.png', filetype: 'image/png' });
      assert.equal(created.status, 201, await created.text());
      location = created.headers.get('location')!;
      assert.match(location, /^\/api\/v1\/tus\/\d+-[0-9a-f]{32}$/);
      const first = await patch(ts.ownerClient, location, 0, data.subarray(0, 100_000));
      assert.equal(first.status, 204);
      assert.equal(first.headers.get('upload-offset'), '100000');
      const last = await patch(ts.ownerClient, location, 100_000, data.subarray(100_000));
      assert.equal(last.status, 200);
      assert.match(last.headers.get('content-type') ?? '', /application\/json/);
      body = (await last.json()) as typeof body;
    });
    assert.deepEqual(Object.keys(body).sort(), ['filename', 'url']);
    assert.equal(body.filename, 'big photo.png');
    assert.match(body.url, /^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/big-photo\.png$/);
    const a = ts.store.attachments.byPathId(pathIdFromReference(body.url)!)!;
    assert.equal(a.size, data.length);
    assert.equal(a.content_type, 'image/png');
    assert.equal(a.owner_id, ts.owner.id);
    assert.deepEqual(await readFile(join(ts.dataDir, 'uploads', 'files', a.storage)), data);
    const stored = JSON.parse(await readFile(join(ts.dataDir, 'attachments.json'), 'utf8'));
    assert.ok(stored.attachments.some((x: { path_id: string }) => x.path_id === a.path_id));
    const served = await fetchFile(ts.ownerClient, body.url);
    assert.equal(served.status, 200);
    assert.deepEqual(served.body, data);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.deepEqual(
      events.filter((e) => e.type === 'attachment').map((e) => e.op),
      ['add'],
    );
    // The finished upload's bytes and tus record are gone from the tus directory.
    assert.deepEqual(await readdir(join(ts.dataDir, 'uploads', 'tus')), []);
    assert.equal((await head(ts.ownerClient, location)).status, 404);
  });

  it('the whole file in the creation request (creation-with-upload) also finishes', async () => {
    const data = Buffer.from('one shot');
    const res = await fetch(`${ts.url}/api/v1/tus`, {
      method: 'POST',
      headers: tusHeaders(ts.ownerClient, {
        'Upload-Length': String(data.length),
        'Upload-Metadata': `filename ${b64('one.txt')}`,
        'Content-Type': 'application/offset+octet-stream',
      }),
      body: new Uint8Array(data),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { url: string; filename: string };
    assert.equal(body.filename, 'one.txt');
    assert.equal((await fetchFile(ts.ownerClient, body.url)).body.toString(), 'one shot');
    assert.equal(ts.store.attachments.byPathId(pathIdFromReference(body.url)!)!.content_type, 'text/plain');
  });

  it('a zero-length upload finishes at creation', async () => {
    const res = await create(ts.ownerClient, 0, { filename: 'nothing.txt' });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { url: string; filename: string };
    assert.equal(body.filename, 'nothing.txt');
    const got = await fetchFile(ts.ownerClient, body.url);
    assert.equal(got.status, 200);
    assert.equal(got.body.length, 0);
  });

  it('refuses a declared length over max_file_upload_size_mib (413) and a deferred length (411)', async () => {
    const realm = ts.store.realm.data.realm!;
    realm.settings.max_file_upload_size_mib = 1;
    try {
      const before = await readdir(join(ts.dataDir, 'uploads', 'tus'));
      const big = await create(ts.ownerClient, MiB + 1, { filename: 'big.bin' });
      assert.equal(big.status, 413);
      assert.deepEqual(JSON.parse(await big.text()), { message: 'Uploaded file is larger than the allowed limit of 1 MiB' });
      const exact = await create(ts.ownerClient, MiB, { filename: 'exact.bin' });
      assert.equal(exact.status, 201);
      const deferred = await fetch(`${ts.url}/api/v1/tus`, {
        method: 'POST',
        headers: tusHeaders(ts.ownerClient, { 'Upload-Defer-Length': '1' }),
      });
      assert.equal(deferred.status, 411);
      const after = await readdir(join(ts.dataDir, 'uploads', 'tus'));
      assert.equal(after.length, before.length + 2, 'only the accepted upload (bytes and its record) was created');
      await fetch(`${ts.url}${exact.headers.get('location')}`, { method: 'DELETE', headers: tusHeaders(ts.ownerClient) });
    } finally {
      realm.settings.max_file_upload_size_mib = 25;
    }
  });

  it('nobody but its creator can see, continue or end an upload', async () => {
    const member = ts.client(await ts.addUser('Tess'));
    const created = await create(member, 10, { filename: 'mine.txt' });
    assert.equal(created.status, 201);
    const location = created.headers.get('location')!;
    assert.equal((await head(ts.ownerClient, location)).status, 404);
    assert.equal((await patch(ts.ownerClient, location, 0, Buffer.from('0123456789'))).status, 404);
    const del = await fetch(`${ts.url}${location}`, { method: 'DELETE', headers: tusHeaders(ts.ownerClient) });
    assert.equal(del.status, 404);
    const mine = await head(member, location);
    assert.equal(mine.status, 200);
    assert.equal(mine.headers.get('upload-offset'), '0');
    // A made-up or traversing ID is refused too.
    for (const bad of ['/api/v1/tus/..%2f..%2fusers.json', '/api/v1/tus/1-' + '0'.repeat(32), '/api/v1/tus/%2e%2e']) {
      const res = await head(member, bad);
      assert.equal(res.status, 404, bad);
    }
    const ended = await fetch(`${ts.url}${location}`, { method: 'DELETE', headers: tusHeaders(member) });
    assert.equal(ended.status, 204);
    assert.equal((await head(member, location)).status, 404);
  });

  it('answers at //api/v1/tus too (zulip-js with a realm URL ending in a slash)', async () => {
    const res = await fetch(`${ts.url}//api/v1/tus`, {
      method: 'POST',
      headers: tusHeaders(ts.ownerClient, { 'Upload-Length': '2', 'Upload-Metadata': `filename ${b64('s.txt')}`, 'Content-Type': 'application/offset+octet-stream' }),
      body: 'ok',
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { filename: string }).filename, 's.txt');
  });

  it('GET is not part of tus and never serves bytes', async () => {
    const res = await fetch(`${ts.url}/api/v1/tus/1-${'0'.repeat(32)}`, { headers: ts.ownerClient.authHeader });
    assert.equal(res.status, 405);
  });

  it('credentials: none, wrong or a deactivated account are refused', async () => {
    const none = await fetch(`${ts.url}/api/v1/tus`, { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '3' } });
    assert.equal(none.status, 401);
    const wrong = await fetch(`${ts.url}/api/v1/tus`, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '3',
        authorization: `Basic ${Buffer.from(`${ts.owner.email}:nope`).toString('base64')}`,
      },
    });
    assert.equal(wrong.status, 401);
    const gone = await ts.addUser('Gone');
    await doDeactivateUser(ts.app, ts.store.users.get(gone.id)!);
    const deact = await create(ts.client(gone), 3);
    assert.equal(deact.status, 401);
    assert.equal((await deact.json()).code, 'UNAUTHORIZED');
  });
});

describe('unfinished resumable uploads are deleted after a week', () => {
  it('a stale upload is swept (bytes and record) when a new upload starts after a restart', async () => {
    let ts = await startTestServer();
    try {
      const created = await create(ts.ownerClient, 10, { filename: 'stale.txt' });
      const location = created.headers.get('location')!;
      const id = location.split('/').pop()!;
      const infoFile = join(ts.dataDir, 'uploads', 'tus', `${id}.json`);
      const info = JSON.parse(await readFile(infoFile, 'utf8'));
      info.creation_date = new Date(Date.now() - 8 * 86_400_000).toISOString();
      await writeFile(infoFile, JSON.stringify(info));

      ts = await restart(ts);
      const fresh = await create(ts.ownerClient, 5, { filename: 'fresh.txt' });
      assert.equal(fresh.status, 201);
      const freshId = fresh.headers.get('location')!.split('/').pop()!;
      let left: string[] = [];
      for (let i = 0; i < 40; i++) {
        left = (await readdir(join(ts.dataDir, 'uploads', 'tus'))).sort();
        if (!left.some((f) => f.startsWith(id))) break;
        await sleep(25);
      }
      assert.deepEqual(left, [freshId, `${freshId}.json`].sort());
      assert.equal((await head(ts.ownerClient, location)).status, 404);
    } finally {
      await ts.stop();
    }
  });
});

describe('a resumable upload interrupted halfway resumes after a restart', () => {
  it('keeps the received bytes, reports the offset after the restart and finishes to a working URL', async () => {
    let ts = await startTestServer();
    try {
      const member = await ts.addUser('Resa');
      const data = randomBytes(2 * MiB + 12345);
      const created = await create(ts.client(member), data.length, { filename: 'video.mp4', filetype: 'video/mp4' });
      assert.equal(created.status, 201);
      const location = created.headers.get('location')!;

      // Half the bytes arrive, then the connection drops.
      await interruptedPatch(ts.client(member), location, 0, data, MiB);
      let offset = -1;
      for (let i = 0; i < 50; i++) {
        const h = await head(ts.client(member), location);
        offset = Number(h.headers.get('upload-offset'));
        if (offset > 0) break;
        await sleep(50);
      }
      assert.ok(offset > 0 && offset <= MiB, `offset after the interruption: ${offset}`);

      ts = await restart(ts);
      const h = await head(ts.client(member), location);
      assert.equal(h.status, 200);
      const resumeAt = Number(h.headers.get('upload-offset'));
      assert.equal(resumeAt, offset, 'the offset survives the restart');
      assert.equal(h.headers.get('upload-length'), String(data.length));
      assert.match(h.headers.get('upload-metadata') ?? '', new RegExp(`filename ${b64('video.mp4')}`));

      const wrongOffset = await patch(ts.client(member), location, 0, data);
      assert.equal(wrongOffset.status, 409, 'a PATCH at the wrong offset changes nothing');
      const done = await patch(ts.client(member), location, resumeAt, data.subarray(resumeAt));
      assert.equal(done.status, 200);
      const body = (await done.json()) as { url: string; filename: string };
      assert.equal(body.filename, 'video.mp4');
      const served = await fetchFile(ts.client(member), body.url);
      assert.equal(served.status, 200);
      assert.equal(served.body.length, data.length);
      assert.ok(served.body.equals(data), 'the resumed file is byte-for-byte the original');
      assert.equal(served.headers.get('content-type'), 'video/mp4');
      const a = ts.store.attachments.byPathId(pathIdFromReference(body.url)!)!;
      assert.equal(a.owner_id, member.id);
      assert.equal(a.size, data.length);
      // And the record is on disk, so it outlives another restart.
      ts = await restart(ts);
      assert.equal((await fetchFile(ts.client(member), body.url)).status, 200);
    } finally {
      await ts.stop();
    }
  });
});
