/**
 * Response compression: JSON and pages of 1 KiB or more are gzip-compressed for clients that
 * accept it (and decompress to the same answer); small answers, images, uploads (streamed,
 * Range requests) and clients that do not ask are served as they are.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(url: string, headers: Record<string, string>, method = 'GET', form?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const r = request(url, { method, headers: { ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    r.on('error', reject);
    r.end(form);
  });
}

describe('response compression', () => {
  let ts: TestServer;
  let auth: string;
  before(async () => {
    ts = await startTestServer();
    auth = `Basic ${Buffer.from(`${ts.owner.email}:${ts.owner.apiKey}`).toString('base64')}`;
    for (let i = 0; i < 30; i++) await ts.addUser(`Person ${i}`);
  });
  after(() => ts.stop());

  it('gzips a large JSON answer for a client that accepts it; the same JSON decompressed', async () => {
    const zipped = await raw(`${ts.url}/api/v1/register`, { authorization: auth, 'accept-encoding': 'gzip, deflate, br' }, 'POST', 'fetch_event_types=%5B%22realm_user%22%5D');
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.match(String(zipped.headers.vary), /Accept-Encoding/i);
    const json = JSON.parse(gunzipSync(zipped.body).toString());
    assert.equal(json.realm_users.length, 31);
    assert.ok(zipped.body.length < gunzipSync(zipped.body).length / 3, `${zipped.body.length} bytes`);
    const plain = await raw(`${ts.url}/api/v1/users`, { authorization: auth });
    assert.equal(plain.headers['content-encoding'], undefined, 'not asked: not compressed');
    assert.equal(JSON.parse(plain.body.toString()).members.length, 31);
    const users = await raw(`${ts.url}/api/v1/users`, { authorization: auth, 'accept-encoding': 'gzip' });
    assert.deepEqual(JSON.parse(gunzipSync(users.body).toString()), JSON.parse(plain.body.toString()));
  });

  it('leaves small answers, images and uploads alone (Range still works)', async () => {
    const small = await raw(`${ts.url}/api/v1/server_settings`, { 'accept-encoding': 'gzip' });
    assert.ok(small.body.length < 1024 || small.headers['content-encoding'] === 'gzip');
    const me = await raw(`${ts.url}/api/v1/users/me`, { authorization: auth, 'accept-encoding': 'gzip' });
    assert.equal(me.headers['content-encoding'], undefined, `${me.body.length} bytes`);
    const avatar = await raw(`${ts.url}/avatar/${ts.owner.id}`, { 'accept-encoding': 'gzip' });
    assert.equal(avatar.headers['content-type'], 'image/png');
    assert.equal(avatar.headers['content-encoding'], undefined);
    const form = new FormData();
    form.set('file', new Blob(['x'.repeat(5000)], { type: 'text/plain' }), 'notes.txt');
    const up = await fetch(`${ts.url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth }, body: form });
    const url = ((await up.json()) as { url: string }).url;
    const file = await raw(`${ts.url}${url}`, { authorization: auth, 'accept-encoding': 'gzip' });
    assert.equal(file.status, 200);
    assert.equal(file.headers['content-encoding'], undefined);
    assert.equal(file.body.length, 5000);
    const part = await raw(`${ts.url}${url}`, { authorization: auth, 'accept-encoding': 'gzip', range: 'bytes=0-99' });
    assert.equal(part.status, 206);
    assert.equal(part.body.length, 100);
  });

  it('gzips the chat page’s script bundle', async () => {
    const page = (await raw(`${ts.url}/`, {})).body.toString();
    const script = /src="(\/static\/[^"]+\.js)"/.exec(page)?.[1] ?? /src="([^"]+\.js)"/.exec(page)?.[1];
    assert.ok(script, page.slice(0, 300));
    const js = await raw(`${ts.url}${script}`, { 'accept-encoding': 'gzip' });
    assert.equal(js.status, 200);
    assert.equal(js.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(js.body).length > js.body.length * 2);
  });
});
