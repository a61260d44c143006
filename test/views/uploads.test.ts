import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { displayName, pathIdFromReference, safeName } from '../../server/lib/uploads/names.js';
import type { AttachmentsDoc } from '../../server/store/attachment-records.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fetchFile, restart, uploadFiles, uploadOne } from '../helpers/uploads.js';
import { verifyAction } from '../helpers/verify-action.js';

const MiB = 1024 * 1024;
const URL_SHAPE = /^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/[^/]+$/;

async function storedDoc(ts: TestServer): Promise<AttachmentsDoc> {
  return JSON.parse(await readFile(join(ts.dataDir, 'attachments.json'), 'utf8')) as AttachmentsDoc;
}

async function filesOnDisk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(join(e.parentPath, e.name));
  }
  return out;
}

describe('POST /user_uploads', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('stores the file under the data dir, records it durably and answers url, uri and filename', async () => {
    const res = await uploadFiles(ts.ownerClient, [{ field: 'anything', name: 'notes.txt', content: 'hello hearth', type: 'text/plain' }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result, 'success');
    assert.match(res.body.url, URL_SHAPE);
    assert.equal(res.body.uri, res.body.url);
    assert.equal(res.body.filename, 'notes.txt');
    assert.ok(res.body.url.endsWith('/notes.txt'));

    const doc = await storedDoc(ts);
    const rec = doc.attachments.find((a) => `/user_uploads/${a.path_id}` === res.body.url);
    assert.ok(rec, 'record written to attachments.json before the answer');
    assert.equal(rec.owner_id, ts.owner.id);
    assert.equal(rec.size, 12);
    assert.equal(rec.content_type, 'text/plain');
    assert.equal(rec.file_name, 'notes.txt');
    assert.deepEqual(rec.message_ids, []);
    const bytes = await readFile(join(ts.dataDir, 'uploads', 'files', rec.storage), 'utf8');
    assert.equal(bytes, 'hello hearth');
    // The spooled copy is gone.
    assert.deepEqual(await filesOnDisk(join(ts.dataDir, 'uploads', 'tmp')), []);
  });

  it('an empty file is a file too', async () => {
    const url = await uploadOne(ts.ownerClient, 'empty.txt', '');
    const got = await fetchFile(ts.ownerClient, url);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-length'), '0');
    assert.equal(got.body.length, 0);
    assert.equal(ts.store.attachments.byPathId(pathIdFromReference(url)!)!.size, 0);
  });

  it('refuses no file and several files, storing nothing', async () => {
    const before = (await storedDoc(ts)).attachments.length;
    const none = await ts.ownerClient.post('/user_uploads', {});
    assert.equal(none.status, 400);
    assert.equal(none.body.msg, 'You must specify a file to upload');
    const two = await uploadFiles(ts.ownerClient, [
      { name: 'a.txt', content: 'a' },
      { name: 'b.txt', content: 'b' },
    ]);
    assert.equal(two.status, 400);
    assert.equal(two.body.msg, 'You may only upload one file at a time');
    assert.equal((await storedDoc(ts)).attachments.length, before);
    assert.deepEqual(await filesOnDisk(join(ts.dataDir, 'uploads', 'tmp')), []);
  });

  it('makes a safe URL name and keeps the display name without directories or control characters', async () => {
    const cases: [string, RegExp, string][] = [
      ['../../etc/passwd', /\/passwd$/, 'passwd'],
      ['..\\..\\boot.ini', /\/boot\.ini$/, 'boot.ini'],
      ['my file (1).png', /\/my-file-1\.png$/, 'my file (1).png'],
      ['..', /\/uploaded-file$/, 'uploaded-file'],
      ['.hidden', /\/hidden$/, '.hidden'],
      ['naïve résumé.pdf', /\/na%C3%AFve-r%C3%A9sum%C3%A9\.pdf$/, 'naïve résumé.pdf'],
      ['a\u0001b\u007f.txt', /\/ab\.txt$/, 'ab.txt'],
      ['<script>.html', /\/script\.html$/, '<script>.html'],
    ];
    for (const [name, url, filename] of cases) {
      const res = await uploadFiles(ts.ownerClient, [{ name, content: 'x' }]);
      assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.url, url, name);
      assert.match(res.body.url, URL_SHAPE, name);
      assert.equal(res.body.filename, filename, name);
      // The URL as given opens the file.
      const got = await fetchFile(ts.ownerClient, res.body.url);
      assert.equal(got.status, 200, name);
    }
    // What multipart clients escape on the way (NUL, CR, LF) is stripped just the same.
    assert.equal(displayName('a\u0000b\r\n.txt'), 'ab.txt');
    assert.equal(safeName('a\u0000b\r\n.txt'), 'ab.txt');
    assert.equal(displayName('C:\\Users\\me\\x.txt'), 'x.txt');
  });

  it('announces max_file_upload_size_mib (25, Zulip\'s default) and realm_upload_quota_mib in register', async () => {
    const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.max_file_upload_size_mib, 25);
    assert.equal(reg.body.realm_upload_quota_mib, 10_240, "the organization's quota (hearth_upload_quota_mib), 10 GiB by default");
    const users = await ts.ownerClient.post('/register', { fetch_event_types: ['realm_user'] });
    assert.equal('max_file_upload_size_mib' in users.body, false, 'only with the realm section');
  });

  it('refuses a file over max_file_upload_size_mib with a clear error and keeps nothing', async () => {
    const realm = ts.store.realm.data.realm!;
    realm.settings.max_file_upload_size_mib = 1;
    try {
      const before = (await storedDoc(ts)).attachments.length;
      const filesBefore = (await filesOnDisk(join(ts.dataDir, 'uploads', 'files'))).length;
      const big = await uploadFiles(ts.ownerClient, [{ name: 'big.bin', content: Buffer.alloc(MiB + 1, 7) }]);
      assert.equal(big.status, 400);
      assert.equal(big.body.code, 'BAD_REQUEST');
      assert.equal(big.body.msg, "File is larger than this server's configured maximum upload size (1 MiB).");
      assert.equal((await storedDoc(ts)).attachments.length, before);
      assert.equal((await filesOnDisk(join(ts.dataDir, 'uploads', 'files'))).length, filesBefore);
      assert.deepEqual(await filesOnDisk(join(ts.dataDir, 'uploads', 'tmp')), []);

      const exact = await uploadFiles(ts.ownerClient, [{ name: 'exact.bin', content: Buffer.alloc(MiB, 7) }]);
      assert.equal(exact.status, 200, 'exactly the limit is allowed');
      const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['realm'] });
      assert.equal(reg.body.max_file_upload_size_mib, 1);
    } finally {
      realm.settings.max_file_upload_size_mib = 25;
    }
  });

  it('a file over the server-wide file ceiling is a 413 JSON error, not a crash', async () => {
    const small = await startTestServer({ config: { fileLimitBytes: 64 * 1024 } });
    try {
      const res = await uploadFiles(small.ownerClient, [{ name: 'big.bin', content: Buffer.alloc(200 * 1024, 1) }]);
      assert.equal(res.status, 413);
      assert.equal(res.body.result, 'error');
      assert.equal(small.store.attachments.ownedBy(small.owner.id).length, 0);
    } finally {
      await small.stop();
    }
  });

  it('sends attachment op add to the uploader only (verifyAction)', async () => {
    const other = ts.client(await ts.addUser('Watcher'));
    const otherReg = await other.post('/register', { event_types: ['attachment'] });
    let url = '';
    const events = await verifyAction(ts.ownerClient, async () => {
      url = await uploadOne(ts.ownerClient, 'event.txt', 'evt');
    });
    const adds = events.filter((e) => e.type === 'attachment');
    assert.equal(adds.length, 1);
    const e = adds[0]!;
    assert.equal(e.op, 'add');
    const rec = ts.store.attachments.byPathId(pathIdFromReference(url)!)!;
    assert.deepEqual(e.attachment, {
      id: rec.id,
      name: 'event.txt',
      path_id: rec.path_id,
      size: 3,
      create_time: Math.floor(rec.create_time / 1000),
      message_ids: [],
      messages: [],
    });
    assert.equal(e.upload_space_used, ts.store.attachments.totalSize());
    const list = await ts.ownerClient.get('/attachments');
    assert.deepEqual(list.body.attachments.find((a: { id: number }) => a.id === rec.id), e.attachment);
    const seen = await other.get('/events', { queue_id: otherReg.body.queue_id, last_event_id: -1, dont_block: true });
    assert.deepEqual(seen.body.events, [], 'nobody else hears of the upload');
  });
});

describe('an upload whose record the disk refuses', () => {
  it('answers 503 and keeps neither the record nor the bytes', async () => {
    const ts = await startTestServer();
    try {
      const table = ts.store.attachments;
      const realSave = table.save.bind(table);
      table.save = () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
      try {
        const res = await uploadFiles(ts.ownerClient, [{ name: 'lost.txt', content: 'lost' }]);
        assert.equal(res.status, 503);
        assert.equal(res.body.code, 'STORAGE_FAILED');
      } finally {
        table.save = realSave;
      }
      // The store is rolled back to the disk (server/lib/runtime/storage-health.ts); writes resume after it.
      await ts.app.storageHealth.recovered;
      assert.equal(ts.store.attachments.totalSize(), 0);
      assert.deepEqual(ts.store.attachments.ownedBy(ts.owner.id), []);
      assert.deepEqual(await filesOnDisk(join(ts.dataDir, 'uploads', 'files')), []);
      const ok = await uploadOne(ts.ownerClient, 'kept.txt', 'kept');
      assert.equal((await fetchFile(ts.ownerClient, ok)).status, 200);
      assert.deepEqual((await storedDoc(ts)).attachments.map((a) => a.file_name), ['kept.txt']);
    } finally {
      await ts.stop();
    }
  });
});

describe('uploads survive a restart', () => {
  it('the file, its record and its URL are there after the server restarts', async () => {
    let ts = await startTestServer();
    try {
      const url = await uploadOne(ts.ownerClient, 'keep.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 'image/png');
      ts = await restart(ts);
      const got = await fetchFile(ts.ownerClient, url);
      assert.equal(got.status, 200);
      assert.deepEqual([...got.body], [0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      assert.equal(got.headers.get('content-type'), 'image/png');
      const list = await ts.ownerClient.get('/attachments');
      assert.equal(list.body.attachments.length, 1);
      assert.equal(list.body.attachments[0].name, 'keep.png');
      assert.equal(list.body.upload_space_used, 7);
      // New uploads after the restart never reuse an ID.
      await uploadOne(ts.ownerClient, 'next.txt', 'n');
      const ids = ts.store.attachments.ownedBy(ts.owner.id).map((a) => a.id);
      assert.deepEqual(ids, [1, 2]);
    } finally {
      await ts.stop();
    }
  });
});

describe('uploads a page could run', () => {
  it('script, style and WebAssembly uploads are served as bytes, never with a type a page would run; the stored type stays', async () => {
    const ts = await startTestServer();
    try {
      for (const [name, type] of [
        ['x.js', 'text/javascript'],
        ['y.mjs', 'application/javascript'],
        ['z.css', 'text/css'],
        ['w.wasm', 'application/wasm'],
        ['t.xsl', 'text/xsl'],
      ] as const) {
        const url = await uploadOne(ts.ownerClient, name, 'window.__xss = 1', type);
        const got = await fetchFile(ts.ownerClient, url);
        assert.equal(got.status, 200);
        assert.equal(got.headers.get('content-type'), 'application/octet-stream', name);
        assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
        assert.match(got.headers.get('content-disposition') ?? '', /^attachment/);
      }
      const stored = (await storedDoc(ts)).attachments.map((a) => a.content_type).sort();
      assert.deepEqual(stored, ['application/javascript', 'application/wasm', 'text/css', 'text/javascript', 'text/xsl']);
      // Ordinary types are served as stored.
      const png = await uploadOne(ts.ownerClient, 'p.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
      assert.equal((await fetchFile(ts.ownerClient, png)).headers.get('content-type'), 'image/png');
    } finally {
      await ts.stop();
    }
  });
});
