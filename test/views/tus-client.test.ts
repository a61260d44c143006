/**
 * /api/v1/tus driven by tus-js-client, the tus client Zulip's web app uses
 * (through Uppy): chunked upload, resume after a server restart, limit errors.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { Upload, type DetailedError, type UploadOptions } from 'tus-js-client';
import { pathIdFromReference } from '../../server/lib/uploads/names.js';
import { startTestServer, type Account, type TestServer } from '../helpers/server.js';
import { fetchFile, restart } from '../helpers/uploads.js';

const KiB = 1024;

function options(ts: TestServer, account: Account, extra: UploadOptions = {}): UploadOptions {
  const token = Buffer.from(`${account.email}:${account.apiKey}`).toString('base64');
  return {
    endpoint: `${ts.url}/api/v1/tus`,
    headers: { Authorization: `Basic ${token}` },
    chunkSize: 256 * KiB,
    retryDelays: null,
    storeFingerprintForResuming: false,
    ...extra,
  };
}

/** Runs an upload to its end; resolves with the final response body, rejects with the client's error. */
function run(file: Buffer, opts: UploadOptions): Promise<{ body: string; upload: Upload }> {
  return new Promise((resolve, reject) => {
    const upload: Upload = new Upload(file, {
      ...opts,
      onSuccess: ({ lastResponse }) => resolve({ body: lastResponse.getBody(), upload }),
      onError: reject,
    });
    upload.start();
  });
}

describe('tus-js-client against /api/v1/tus', () => {
  it('uploads in chunks and gets Zulip\'s {url, filename} from the last response', async () => {
    const ts = await startTestServer();
    try {
      const data = randomBytes(1200 * KiB);
      const chunks: number[] = [];
      const { body } = await run(
        data,
        options(ts, ts.owner, {
          metadata: { filename: 'report.pdf', filetype: 'application/pdf' },
          onChunkComplete: (size) => chunks.push(size),
        }),
      );
      assert.ok(chunks.length >= 5, `sent in ${chunks.length} chunks`);
      const res = JSON.parse(body) as { url: string; filename: string };
      assert.equal(res.filename, 'report.pdf');
      const got = await fetchFile(ts.ownerClient, res.url);
      assert.equal(got.status, 200);
      assert.ok(got.body.equals(data));
      assert.equal(got.headers.get('content-type'), 'application/pdf');
      assert.match(got.headers.get('content-disposition')!, /^attachment;/);
      assert.equal(ts.store.attachments.byPathId(pathIdFromReference(res.url)!)!.size, data.length);
    } finally {
      await ts.stop();
    }
  });

  it('an upload aborted partway resumes against the restarted server from its offset', async () => {
    let ts = await startTestServer();
    try {
      const member = await ts.addUser('Client');
      const data = randomBytes(1500 * KiB);
      const firstUrl = await new Promise<string>((resolve, reject) => {
        let done = 0;
        const upload: Upload = new Upload(data, {
          ...options(ts, member, { metadata: { filename: 'movie.webm', filetype: 'video/webm' } }),
          onChunkComplete: () => {
            if (++done === 2) upload.abort().then(() => resolve(upload.url!), reject);
          },
          onSuccess: () => reject(new Error('should not finish')),
          onError: reject,
        });
        upload.start();
      });
      const path = new URL(firstUrl).pathname;
      assert.match(path, new RegExp(`^/api/v1/tus/${member.id}-[0-9a-f]{32}$`));

      ts = await restart(ts);
      const requests: string[] = [];
      const { body } = await run(
        data,
        options(ts, member, {
          uploadUrl: `${ts.url}${path}`,
          onBeforeRequest: (req) => {
            requests.push(`${req.getMethod()} ${req.getHeader('Upload-Offset') ?? ''}`.trim());
          },
        }),
      );
      // It asked where to go on (HEAD) and went on from two chunks in, not from zero.
      assert.equal(requests[0], 'HEAD');
      assert.equal(requests[1], `PATCH ${512 * KiB}`);
      assert.ok(!requests.includes('POST'));
      const res = JSON.parse(body) as { url: string; filename: string };
      assert.equal(res.filename, 'movie.webm');
      const got = await fetchFile(ts.client(member), res.url);
      assert.equal(got.status, 200);
      assert.ok(got.body.equals(data), 'byte-for-byte the original');
      const a = ts.store.attachments.byPathId(pathIdFromReference(res.url)!)!;
      assert.equal(a.owner_id, member.id);
      assert.equal(a.content_type, 'video/webm');
    } finally {
      await ts.stop();
    }
  });

  it('a file over the limit fails with 413 and Zulip\'s message; no credentials fail with 401', async () => {
    const ts = await startTestServer();
    try {
      ts.store.realm.data.realm!.settings.max_file_upload_size_mib = 1;
      const big = await run(randomBytes(1024 * KiB + 1), options(ts, ts.owner, { metadata: { filename: 'big.bin' } })).catch(
        (e: DetailedError) => e,
      );
      assert.ok(big instanceof Error);
      const res = (big as DetailedError).originalResponse!;
      assert.equal(res.getStatus(), 413);
      assert.deepEqual(JSON.parse(res.getBody()), { message: 'Uploaded file is larger than the allowed limit of 1 MiB' });

      const anon = await run(randomBytes(10), { ...options(ts, ts.owner), headers: {} }).catch((e: DetailedError) => e);
      assert.ok(anon instanceof Error);
      assert.equal((anon as DetailedError).originalResponse!.getStatus(), 401);
      assert.equal(ts.store.attachments.totalSize(), 0);
    } finally {
      await ts.stop();
    }
  });
});
