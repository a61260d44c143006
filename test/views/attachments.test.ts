import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { commit } from '../../server/actions/commit.js';
import { relinkAttachments, releaseAttachments } from '../../server/actions/attachment-links.js';
import { pathIdFromReference } from '../../server/lib/uploads/names.js';
import type { AttachmentRecord } from '../../server/store/attachment-records.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { CALLERS, castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ensureClaimed, fetchFile, uploadFiles, uploadOne } from '../helpers/uploads.js';
import { verifyAction } from '../helpers/verify-action.js';

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

const record = (ts: TestServer, url: string): AttachmentRecord | undefined =>
  ts.store.attachments.byPathId(pathIdFromReference(url)!);

async function storedIds(ts: TestServer): Promise<number[]> {
  const doc = JSON.parse(await readFile(join(ts.dataDir, 'attachments.json'), 'utf8'));
  return doc.attachments.map((a: { id: number }) => a.id);
}

describe('role matrix over the upload and attachment endpoints', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
  });
  after(() => ts.stop());

  const refusedAuth = (caller: string, res: { status: number; body: { code?: string } }) => {
    assert.equal(res.status, 401, caller);
    assert.equal(res.body.code, caller === 'deactivated' ? 'UNAUTHORIZED' : 'UNAUTHORIZED', caller);
  };

  it('POST /user_uploads: every active account (bots and guests too); not deactivated or anonymous', async () => {
    for (const caller of CALLERS) {
      const res = await uploadFiles(cast.client(caller), [{ name: `${caller}.txt`, content: caller }]);
      if (caller === 'deactivated' || caller === 'anonymous') {
        refusedAuth(caller, res);
        continue;
      }
      assert.equal(res.status, 200, `${caller}: ${JSON.stringify(res.body)}`);
      const a = record(ts, res.body.url)!;
      assert.equal(a.owner_id, cast[caller].id, caller);
      assert.ok((await storedIds(ts)).includes(a.id), caller);
    }
    const deact = cast.deactivated.id;
    assert.equal(ts.store.attachments.ownedBy(deact).length, 0);
  });

  it('GET /user_uploads/... (plain, /download/, /thumbnail/) and /api/v1/user_uploads/...: the uploader only, before the file is shared', async () => {
    // A real PNG (so it gets a thumbnail), with bytes after its end that a leak would show.
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c33' } }).png().toBuffer();
    const png = Buffer.concat([image, Buffer.from('member only')]);
    const url = await uploadOne(cast.client('member'), 'private.png', png, 'image/png');
    const views = [url, url.replace('/user_uploads/', '/user_uploads/download/'), url.replace('/user_uploads/', '/user_uploads/thumbnail/') + '/840x560.webp'];
    let temporary = '';
    for (const caller of CALLERS) {
      const temp = await cast.client(caller).call('GET', url);
      for (const view of views) {
        const file = await fetchFile(cast.client(caller), view);
        if (caller === 'member') {
          assert.equal(file.status, 200, view);
          if (view.includes('/thumbnail/')) assert.equal(file.headers.get('content-type'), 'image/webp', view);
          else assert.deepEqual(file.body, png, view);
        } else if (caller === 'deactivated' || caller === 'anonymous') {
          assert.equal(file.status, 401, `${caller} ${view}`);
        } else {
          assert.equal(file.status, 403, `${caller} ${view}`);
          assert.equal(file.body.includes(Buffer.from('member only')), false, caller);
        }
      }
      if (caller === 'member') {
        assert.equal(temp.status, 200);
        assert.match(temp.body.url, /^\/user_uploads\/temporary\//);
        temporary = temp.body.url;
      } else if (caller === 'deactivated' || caller === 'anonymous') {
        refusedAuth(caller, temp);
      } else {
        assert.equal(temp.status, 403, caller);
        assert.equal(temp.body.url, undefined, caller);
      }
    }
    // The temporary URL is its own credential: it opens the file for anyone holding it, whoever they are.
    for (const caller of CALLERS) {
      const file = await fetchFile(cast.client(caller), temporary);
      assert.equal(file.status, 200, caller);
      assert.deepEqual(file.body, png, caller);
    }
  });

  it('GET /attachments: each account sees only its own uploads', async () => {
    for (const caller of CALLERS) {
      const res = await cast.client(caller).get('/attachments');
      if (caller === 'deactivated' || caller === 'anonymous') {
        refusedAuth(caller, res);
        continue;
      }
      assert.equal(res.status, 200, caller);
      const mine = ts.store.attachments.ownedBy(cast[caller].id).map((a) => a.id);
      assert.deepEqual(res.body.attachments.map((a: { id: number }) => a.id), mine, caller);
      assert.ok(mine.length >= 1, caller);
      assert.equal(res.body.upload_space_used, ts.store.attachments.totalSize(), caller);
    }
  });

  it('DELETE /attachments/{id}: only the uploader (not administrators or owners)', async () => {
    const url = await uploadOne(cast.client('member'), 'doomed.txt', 'bye');
    const a = record(ts, url)!;
    const onDisk = join(ts.dataDir, 'uploads', 'files', a.storage);
    const order = CALLERS.filter((c) => c !== 'member');
    for (const caller of [...order, 'member' as const]) {
      const res = await cast.client(caller).delete(`/attachments/${a.id}`);
      if (caller === 'member') {
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(await exists(onDisk), false);
        assert.equal((await storedIds(ts)).includes(a.id), false);
        assert.equal((await fetchFile(cast.client('member'), url)).status, 404);
      } else if (caller === 'deactivated' || caller === 'anonymous') {
        refusedAuth(caller, res);
      } else {
        assert.equal(res.status, 400, caller);
        assert.equal(res.body.msg, 'Invalid attachment', caller);
        assert.equal(await exists(onDisk), true, caller);
        assert.ok((await storedIds(ts)).includes(a.id), caller);
      }
    }
    // Unknown and malformed IDs.
    for (const id of ['999999', '0', 'abc', '-1']) {
      const res = await cast.client('member').delete(`/attachments/${id}`);
      assert.equal(res.status, 400, id);
      assert.equal(res.body.msg, 'Invalid attachment', id);
    }
  });

  it('POST /api/v1/tus: every active account; not deactivated or anonymous', async () => {
    for (const caller of CALLERS) {
      const res = await fetch(`${ts.url}/api/v1/tus`, {
        method: 'POST',
        headers: { ...cast.client(caller).authHeader, 'Tus-Resumable': '1.0.0', 'Upload-Length': '5' },
      });
      if (caller === 'deactivated' || caller === 'anonymous') {
        assert.equal(res.status, 401, caller);
        continue;
      }
      assert.equal(res.status, 201, caller);
      const id = cast[caller].id;
      assert.match(res.headers.get('location')!, new RegExp(`^/api/v1/tus/${id}-[0-9a-f]{32}$`), caller);
    }
  });
});

describe('attachments and messages', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    await createChannel(ts, ts.ownerClient, 'general');
  });
  after(() => ts.stop());

  it('a message linking the file is listed under messages, with attachment op update (verifyAction)', async () => {
    const url = await uploadOne(ts.ownerClient, 'shared.txt', 'share me');
    let id = 0;
    const events = await verifyAction(ts.ownerClient, async () => {
      id = await sendStream(ts.ownerClient, 'general', 'files', `[shared.txt](${url})`);
      await ensureClaimed(ts, ts.owner.id, id, url);
    });
    const upd = events.filter((e) => e.type === 'attachment');
    assert.equal(upd.length, 1);
    assert.equal(upd[0]!.op, 'update');
    const a = record(ts, url)!;
    const m = ts.store.messages.get(id)!;
    const expected = {
      id: a.id,
      name: 'shared.txt',
      path_id: a.path_id,
      size: 8,
      create_time: Math.floor(a.create_time / 1000),
      message_ids: [id],
      messages: [{ id, date_sent: m.timestamp }],
    };
    assert.deepEqual(upd[0]!.attachment, expected);
    const list = await ts.ownerClient.get('/attachments');
    assert.deepEqual(list.body.attachments.find((x: { id: number }) => x.id === a.id), expected);
    const doc = JSON.parse(await readFile(join(ts.dataDir, 'attachments.json'), 'utf8'));
    assert.deepEqual(doc.attachments.find((x: { id: number }) => x.id === a.id).message_ids, [id]);
  });

  it('DELETE /attachments/{id} sends op remove with the new upload_space_used (verifyAction)', async () => {
    const url = await uploadOne(ts.ownerClient, 'remove-me.txt', '12345');
    const a = record(ts, url)!;
    const before = ts.store.attachments.totalSize();
    const events = await verifyAction(ts.ownerClient, async () => {
      const res = await ts.ownerClient.delete(`/attachments/${a.id}`);
      assert.equal(res.status, 200);
    });
    assert.deepEqual(
      events.filter((e) => e.type === 'attachment'),
      [{ type: 'attachment', op: 'remove', attachment: { id: a.id }, upload_space_used: before - 5, id: events.find((e) => e.type === 'attachment')!.id }],
    );
  });

  it('an edit that drops a link unlinks the message; one that adds a link claims it', async () => {
    const first = await uploadOne(ts.ownerClient, 'first.txt', '1');
    const second = await uploadOne(ts.ownerClient, 'second.txt', '2');
    const id = await sendStream(ts.ownerClient, 'general', 'edit', `see ${first}`);
    await ensureClaimed(ts, ts.owner.id, id, first);
    const events = await verifyAction(ts.ownerClient, () =>
      commit(ts.app, (tx) => relinkAttachments(ts.app, tx, ts.owner.id, id, [second])),
    );
    assert.deepEqual(record(ts, first)!.message_ids, []);
    assert.deepEqual(record(ts, second)!.message_ids, [id]);
    assert.deepEqual(
      events.filter((e) => e.type === 'attachment').map((e) => [e.op, (e.attachment as { name: string }).name]),
      [
        ['update', 'first.txt'],
        ['update', 'second.txt'],
      ],
    );
    // The unlinked file stays (Zulip asks the author before deleting it).
    assert.equal((await fetchFile(ts.ownerClient, first)).status, 200);
  });

  it('deleting the last message that links a file deletes the file; an earlier one only unlinks', async () => {
    const member = await ts.addUser('Del');
    const url = await uploadOne(ts.ownerClient, 'twice.txt', 'twice');
    const m1 = await sendDirect(ts.ownerClient, [member.id], url);
    const m2 = await sendDirect(ts.ownerClient, [member.id], `again ${url}`);
    await ensureClaimed(ts, ts.owner.id, m1, url);
    await ensureClaimed(ts, ts.owner.id, m2, url);
    const a = record(ts, url)!;
    const onDisk = join(ts.dataDir, 'uploads', 'files', a.storage);

    const first = await verifyAction(ts.ownerClient, () => commit(ts.app, (tx) => releaseAttachments(ts.app, tx, [m1])));
    assert.deepEqual(
      first.filter((e) => e.type === 'attachment').map((e) => e.op),
      ['update'],
    );
    assert.deepEqual(a.message_ids, [m2]);
    assert.equal(await exists(onDisk), true);

    const last = await verifyAction(ts.ownerClient, () => commit(ts.app, (tx) => releaseAttachments(ts.app, tx, [m2])));
    assert.deepEqual(
      last.filter((e) => e.type === 'attachment').map((e) => e.op),
      ['remove'],
    );
    assert.equal(record(ts, url), undefined);
    assert.equal(await exists(onDisk), false, 'the bytes are deleted once the record removal is durable');
    assert.equal((await storedIds(ts)).includes(a.id), false);
    assert.equal((await fetchFile(ts.client(member), url)).status, 404);
    // Releasing messages that link nothing is a no-op.
    const none = await verifyAction(ts.ownerClient, () => commit(ts.app, (tx) => releaseAttachments(ts.app, tx, [m1, m2, 424242])));
    assert.deepEqual(none.filter((e) => e.type === 'attachment'), []);
  });

  it('references are recognised absolute or relative, encoded or not; junk is ignored', async () => {
    const url = await uploadOne(ts.ownerClient, 'naïve.txt', 'n');
    const pathId = pathIdFromReference(url)!;
    assert.ok(pathId.endsWith('/naïve.txt'));
    assert.equal(pathIdFromReference(`http://chat.example:8080${url}?x=1#frag`), pathId);
    assert.equal(pathIdFromReference(`/user_uploads/${pathId}`), pathId);
    for (const junk of ['/user_uploads/1/../../users.json', '/user_uploads/%E0%A4%A', 'https://evil/x', '/user_uploads/1/ab/short/x']) {
      assert.equal(pathIdFromReference(junk), null, junk);
    }
  });
});
