/**
 * The organization's upload quota (`hearth_upload_quota_mib`, owners; `realm_upload_quota_mib`
 * in register, `upload_quota_mib` in realm update_dict events), guests' daily allowance and the
 * disk's free-space reserve, over real HTTP: the plain endpoint and tus.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AttachmentsDoc } from '../../server/store/attachment-records.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { uploadFiles } from '../helpers/uploads.js';
import { verifyAction } from '../helpers/verify-action.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const QUOTA_MSG = "Upload would exceed your organization's upload quota.";

const storedCount = async (ts: TestServer) =>
  (JSON.parse(await readFile(join(ts.dataDir, 'attachments.json'), 'utf8')) as AttachmentsDoc).attachments.length;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (e.isFile()) out.push(join(e.parentPath, e.name));
  }
  return out;
}

/** Everything the uploads leave on disk: stored files, spooled bodies, unfinished tus uploads. */
const uploadFilesOnDisk = async (ts: TestServer) => ({
  files: (await filesUnder(join(ts.dataDir, 'uploads', 'files'))).length,
  tmp: (await filesUnder(join(ts.dataDir, 'uploads', 'tmp'))).length,
  tus: (await filesUnder(join(ts.dataDir, 'uploads', 'tus'))).length,
});

const upload = (client: Client, bytes: number, name = 'blob.bin') => uploadFiles(client, [{ name, content: randomBytes(bytes) }]);

function tusCreate(client: Client, length: number) {
  return fetch(`${client.baseUrl}/api/v1/tus`, {
    method: 'POST',
    headers: { ...client.authHeader, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(length), 'Upload-Metadata': `filename ${Buffer.from('t.bin').toString('base64')}` },
  });
}

function tusPatch(client: Client, location: string, bytes: Buffer) {
  return fetch(`${client.baseUrl}${location}`, {
    method: 'PATCH',
    headers: { ...client.authHeader, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: new Uint8Array(bytes),
  });
}

describe('the organization upload quota', () => {
  let ts: TestServer;
  let admin: Client;
  let member: Client;
  before(async () => {
    ts = await startTestServer();
    admin = ts.client(await ts.addUser('Ada', 200));
    member = ts.client(await ts.addUser('Mo'));
  });
  after(() => ts.stop());

  it('register shows realm_upload_quota_mib: 10240 MiB by default', async () => {
    const reg = await member.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_upload_quota_mib, 10_240);
    assert.equal('realm_hearth_upload_quota_mib' in reg.body, false);
    assert.equal('realm_hearth_guest_upload_mib_per_day' in reg.body, false, 'the guest allowance is never announced');
  });

  it('owners set it with PATCH /realm hearth_upload_quota_mib; clients hear realm update_dict upload_quota_mib', async () => {
    const events = await verifyAction(
      member,
      async () => {
        const res = await ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: 2 });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.hearth_upload_quota_mib, 2);
      },
      { fetch_event_types: ['realm'], event_types: ['realm'] },
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'realm').map(({ id: _id, ...e }) => e),
      [{ type: 'realm', op: 'update_dict', property: 'default', data: { upload_quota_mib: 2 } }],
    );
    assert.equal(ts.store.realm.data.realm!.settings.hearth_upload_quota_mib, 2);
    // null: no quota (announced as null, as Zulip's "no limit").
    const events2 = await verifyAction(member, () => ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: null }), {
      fetch_event_types: ['realm'],
      event_types: ['realm'],
    });
    assert.deepEqual(events2.filter((e) => e.type === 'realm').map((e) => e.data), [{ upload_quota_mib: null }]);
    assert.equal((await member.post('/register', { fetch_event_types: ['realm'] })).body.realm_upload_quota_mib, null);
    await ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: 10_240 });
  });

  it('administrators and members may not change it; bad values are refused', async () => {
    const byAdmin = await admin.patch('/realm', { hearth_upload_quota_mib: 1 });
    assert.equal(byAdmin.status, 400);
    assert.equal(byAdmin.body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.equal(byAdmin.body.msg, 'Must be an organization owner');
    const byMember = await member.patch('/realm', { hearth_upload_quota_mib: 1 });
    assert.equal(byMember.status, 400);
    assert.equal(byMember.body.msg, 'Must be an organization administrator');
    for (const bad of [-1, 1.5, 'lots', 2 ** 40]) {
      const res = await ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: bad });
      assert.equal(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
    }
    assert.equal(ts.store.realm.data.realm!.settings.hearth_upload_quota_mib, 10_240);
  });

  it('an upload that would go over it is refused as Zulip does (400 REALM_UPLOAD_QUOTA) and nothing is kept', async () => {
    const used = ts.store.attachments.totalSize();
    // Room for 600 KiB more, not 1,200.
    const quotaMib = Math.ceil((used + 700 * KiB) / MiB);
    const room = quotaMib * MiB - used;
    assert.equal((await ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: quotaMib })).status, 200);
    try {
      const first = await upload(member, room - 100 * KiB);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const count = await storedCount(ts);
      const disk = await uploadFilesOnDisk(ts);
      for (const who of [member, admin, ts.ownerClient]) {
        const over = await upload(who, 200 * KiB);
        assert.equal(over.status, 400);
        assert.deepEqual(over.body, { result: 'error', msg: QUOTA_MSG, code: 'REALM_UPLOAD_QUOTA' });
      }
      assert.equal(await storedCount(ts), count, 'no record');
      assert.deepEqual(await uploadFilesOnDisk(ts), disk, 'no bytes, no spooled copy');
      // What still fits goes in.
      assert.equal((await upload(member, 50 * KiB)).status, 200);
      // No quota: anything within the per-file limit.
      await ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: null });
      assert.equal((await upload(member, 200 * KiB)).status, 200);
    } finally {
      await ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: 10_240 });
    }
  });

  it('tus: a declared length over the quota is refused at creation (413, Zulip\'s message); two uploads cannot both squeeze in', async () => {
    const used = ts.store.attachments.totalSize();
    const quotaMib = Math.ceil((used + 700 * KiB) / MiB);
    const room = quotaMib * MiB - used;
    await ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: quotaMib });
    try {
      const disk = await uploadFilesOnDisk(ts);
      const over = await tusCreate(member, room + 1);
      assert.equal(over.status, 413);
      assert.deepEqual(JSON.parse(await over.text()), { message: QUOTA_MSG });
      assert.deepEqual(await uploadFilesOnDisk(ts), disk, 'no upload created');

      // Each fits alone: an unfinished upload's declared length counts against the next one's start
      // (unfinished uploads were counted only once finished, so never-finished ones filled the disk).
      const size = Math.floor(room * 0.6);
      const [a, b] = await Promise.all([tusCreate(member, size), tusCreate(member, size)]);
      assert.deepEqual([a.status, b.status].sort(), [201, 413], 'two starting together: one refused');
      const [started, refused] = a.status === 201 ? [a, b] : [b, a];
      assert.deepEqual(JSON.parse(await refused.text()), { message: QUOTA_MSG });
      const half = Math.floor(size / 2);
      assert.equal((await tusPatch(member, started.headers.get('location')!, randomBytes(half))).status, 204);
      assert.equal((await tusCreate(member, size)).status, 413, 'the half-sent upload still counts whole');
      // Whichever finishes second is refused and removed: here a plain upload takes the room first.
      const count = await storedCount(ts);
      assert.equal((await upload(member, size)).status, 200);
      const late = await fetch(`${member.baseUrl}${started.headers.get('location')}`, {
        method: 'PATCH',
        headers: { ...member.authHeader, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(half), 'Content-Type': 'application/offset+octet-stream' },
        body: new Uint8Array(randomBytes(size - half)),
      });
      assert.equal(late.status, 413);
      assert.deepEqual(JSON.parse(await late.text()), { message: QUOTA_MSG });
      assert.equal(await storedCount(ts), count + 1);
      assert.equal((await uploadFilesOnDisk(ts)).tus, disk.tus, 'the refused upload is gone from uploads/tus');
      const gone = await fetch(`${member.baseUrl}${started.headers.get('location')}`, { method: 'HEAD', headers: { ...member.authHeader, 'Tus-Resumable': '1.0.0' } });
      assert.equal(gone.status, 404);
    } finally {
      await ts.ownerClient.patch('/realm', { hearth_upload_quota_mib: 10_240 });
    }
  });
});

describe("guests' daily upload allowance", () => {
  let now = Date.parse('2025-03-03T09:00:00Z');
  let ts: TestServer;
  let guest: Client;
  let member: Client;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now }, config: { guestUploadMibPerDay: 1 } });
    guest = ts.client(await ts.addUser('Gil', 600));
    member = ts.client(await ts.addUser('Mel'));
  });
  after(() => ts.stop());

  it('a guest may upload the server default (here 1 MiB) in 24 hours; the next file is refused and not kept', async () => {
    assert.equal((await upload(guest, 600 * KiB)).status, 200);
    const count = await storedCount(ts);
    const disk = await uploadFilesOnDisk(ts);
    const over = await upload(guest, 600 * KiB);
    assert.equal(over.status, 400);
    assert.equal(over.body.code, 'BAD_REQUEST');
    assert.equal(over.body.msg, 'Guests may upload at most 1 MiB in 24 hours. Try again later, or ask an organization owner.');
    assert.equal(await storedCount(ts), count);
    assert.deepEqual(await uploadFilesOnDisk(ts), disk);
    // tus: refused on the declared length.
    const tus = await tusCreate(guest, 600 * KiB);
    assert.equal(tus.status, 413);
    assert.match(JSON.parse(await tus.text()).message, /^Guests may upload at most 1 MiB in 24 hours/);
    // An unfinished resumable upload counts: a guest cannot keep a week of never-finished ones.
    now += 86_400_000 + 1000;
    const first = await tusCreate(guest, 600 * KiB);
    assert.equal(first.status, 201);
    assert.equal((await tusPatch(guest, first.headers.get('location')!, randomBytes(100 * KiB))).status, 204);
    const second = await tusCreate(guest, 600 * KiB);
    assert.equal(second.status, 413);
    assert.match(JSON.parse(await second.text()).message, /^Guests may upload at most 1 MiB in 24 hours/);
    assert.equal((await tusCreate(guest, 300 * KiB)).status, 201, 'what is left of the allowance is still open');
    // Nor can tiny never-finished uploads pile up: at most 50 unfinished at once.
    const tiny = [];
    for (let i = 0; i < 48; i++) tiny.push((await tusCreate(guest, 1)).status);
    assert.deepEqual(tiny, Array(48).fill(201));
    const fiftyFirst = await tusCreate(guest, 1);
    assert.equal(fiftyFirst.status, 429);
    assert.match(JSON.parse(await fiftyFirst.text()).message, /^At most 50 uploads may be unfinished at once/);
    // Members are not limited so.
    assert.equal((await upload(member, 600 * KiB)).status, 200);
    assert.equal((await upload(member, 600 * KiB)).status, 200);
    // A day later the guest may upload again.
    now += 86_400_000 + 1000;
    assert.equal((await upload(guest, 600 * KiB)).status, 200);
    // Deleting a file does not give its bytes back for the day (delete and upload again, forever).
    const mine = (await guest.get('/attachments')).body.attachments as { id: number; create_time: number }[];
    const newest = mine.reduce((a, b) => (a.create_time > b.create_time ? a : b));
    assert.equal((await guest.delete(`/attachments/${newest.id}`)).status, 200);
    assert.equal((await upload(guest, 600 * KiB)).status, 400, 'the deleted file still counts today');
    now += 86_400_000 + 1000;
    assert.equal((await upload(guest, 600 * KiB)).status, 200, 'and no longer tomorrow');
  });

  it('owners change it (hearth_guest_upload_mib_per_day, never announced; GET /hearth/status shows it); 0: guests upload nothing', async () => {
    const byAdmin = await ts.client(await ts.addUser('Ad', 200)).patch('/realm', { hearth_guest_upload_mib_per_day: 50 });
    assert.equal(byAdmin.body.msg, 'Must be an organization owner');
    const events = await verifyAction(member, () => ts.ownerClient.patch('/realm', { hearth_guest_upload_mib_per_day: 50 }), {
      fetch_event_types: ['realm'],
      event_types: ['realm'],
    });
    assert.deepEqual(events.filter((e) => e.type === 'realm'), []);
    assert.equal((await upload(guest, 600 * KiB)).status, 200);
    const status = await ts.ownerClient.get('/hearth/status');
    assert.equal(status.body.guest_upload_mib_per_day, 50);
    assert.equal(status.body.upload_quota_mib, 10_240);
    assert.equal(status.body.upload_space_used, ts.store.attachments.totalSize());
    assert.equal((await ts.ownerClient.patch('/realm', { hearth_guest_upload_mib_per_day: -1 })).status, 400);
    await ts.ownerClient.patch('/realm', { hearth_guest_upload_mib_per_day: 0 });
    assert.equal((await upload(guest, 1)).status, 400);
  });
});

describe('the free space uploads leave on the disk', () => {
  it('an upload is refused when the disk would keep less than the reserve', async () => {
    // A reserve larger than any disk: every upload would eat into it.
    const ts = await startTestServer({ config: { uploadDiskReserveMib: 2 ** 40 } });
    try {
      const res = await upload(ts.ownerClient, 10);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'REALM_UPLOAD_QUOTA');
      assert.match(res.body.msg, /disk is nearly full/);
      assert.deepEqual(await uploadFilesOnDisk(ts), { files: 0, tmp: 0, tus: 0 });
      const tus = await tusCreate(ts.ownerClient, 10);
      assert.equal(tus.status, 413);
      assert.match(JSON.parse(await tus.text()).message, /disk is nearly full/);
      assert.equal(ts.store.attachments.totalSize(), 0);
      assert.deepEqual(await uploadFilesOnDisk(ts), { files: 0, tmp: 0, tus: 0 });
    } finally {
      await ts.stop();
    }
  });
});
