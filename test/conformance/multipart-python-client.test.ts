/**
 * Multipart bodies as the Zulip Python library sends them (python-requests with
 * `files=[fp]`): the part has a `filename` but no Content-Type of its own, and its
 * field name is the file's path. Zulip (Django) treats every part with a filename as
 * a file; formidable alone would take it for a text field. Covers every endpoint that
 * takes a file: uploads, custom emoji (then the attachment list and emoji deletion the
 * library's examples go on with), avatars, the organization icon and bot avatars.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { fetchFile } from '../helpers/uploads.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface RawPart {
  /** The whole Content-Disposition header value. */
  disposition: string;
  /** A Content-Type header for the part; none when absent (python-requests' file parts). */
  type?: string;
  data: Buffer | string;
}

/** POSTs a hand-built multipart body, byte for byte as given (fetch's FormData always adds a part type). */
async function postRaw(client: Client, path: string, parts: RawPart[], method = 'POST') {
  const boundary = randomBytes(16).toString('hex'); // python-requests: 32 hex digits
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: ${p.disposition}\r\n`;
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await fetch(`${client.baseUrl}/api/v1${path}`, {
    method,
    headers: {
      ...client.authHeader,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'user-agent': 'ZulipPython/0.9.0 (Linux; Python 3.11)',
    },
    body: Buffer.concat(chunks),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The part `zulip.Client.upload_file(open('/tmp/hearth/notes.txt', 'rb'))` sends. */
const pythonFilePart = (path: string, data: Buffer | string): RawPart => ({
  disposition: `form-data; name="${path}"; filename="${path.slice(path.lastIndexOf('/') + 1)}"`,
  data,
});

describe('multipart parts with a filename and no Content-Type (the Python library)', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('POST /user_uploads stores the file, typed by its name, and GET /attachments lists it', async () => {
    const res = await postRaw(ts.ownerClient, '/user_uploads', [pythonFilePart('/tmp/hearth/notes.txt', 'hello from python')]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.filename, 'notes.txt');
    const url = res.body.url as string;
    const got = await fetchFile(ts.ownerClient, url);
    assert.equal(got.status, 200);
    assert.equal(got.body.toString(), 'hello from python');
    assert.match(got.headers.get('content-type') ?? '', /^text\/plain/);

    const list = await ts.ownerClient.get('/attachments');
    assert.equal(list.status, 200);
    const a = (list.body.attachments as { path_id: string; name: string; size: number }[]).find((x) => url.endsWith(x.path_id));
    assert.ok(a, 'the upload is listed');
    assert.equal(a.name, 'notes.txt');
    assert.equal(a.size, 17);
  });

  it('a filename given only in RFC 5987 form counts, decoded', async () => {
    const res = await postRaw(ts.ownerClient, '/user_uploads', [
      { disposition: `form-data; name="file"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`, data: 'cv' },
    ]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.filename, 'résumé.txt');
  });

  it('plain fields stay fields, and a part with an empty filename (no file chosen) is no file, as in Django', async () => {
    const res = await postRaw(ts.ownerClient, '/user_uploads', [
      { disposition: 'form-data; name="note"', data: 'just text' },
      { disposition: 'form-data; name="file"; filename=""', type: 'application/octet-stream', data: '' },
    ]);
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'You must specify a file to upload');

    // A multipart send: every part is a field.
    await createChannel(ts, ts.ownerClient, 'multipart');
    const sent = await postRaw(ts.ownerClient, '/messages', [
      { disposition: 'form-data; name="type"', data: 'channel' },
      { disposition: 'form-data; name="to"', data: 'multipart' },
      { disposition: 'form-data; name="topic"', data: 'multipart' },
      { disposition: 'form-data; name="content"', data: 'sent as multipart' },
    ]);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
  });

  it('custom emoji: upload_custom_emoji, then the emoji list and deletion', async () => {
    const res = await postRaw(ts.ownerClient, '/realm/emoji/python_emoji', [pythonFilePart('/home/me/emoji.png', PNG)]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const list = await ts.ownerClient.get('/realm/emoji');
    const emoji = Object.values(list.body.emoji as Record<string, { name: string; deactivated: boolean }>);
    assert.ok(emoji.some((e) => e.name === 'python_emoji' && !e.deactivated));
    const del = await ts.ownerClient.delete('/realm/emoji/python_emoji');
    assert.equal(del.status, 200, JSON.stringify(del.body));
  });

  it('avatars, the organization icon and bot avatars take the same parts', async () => {
    const avatar = await postRaw(ts.ownerClient, '/users/me/avatar', [pythonFilePart('/home/me/me.png', PNG)]);
    assert.equal(avatar.status, 200, JSON.stringify(avatar.body));
    const me = await ts.ownerClient.get('/users/me');
    assert.match(String(me.body.avatar_url), /\?v=2$/, 'the avatar was set (version 2)');

    const icon = await postRaw(ts.ownerClient, '/realm/icon', [pythonFilePart('/home/me/icon.png', PNG)]);
    assert.equal(icon.status, 200, JSON.stringify(icon.body));
    const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_icon_source, 'U', 'the uploaded icon is in place');

    const bot = await postRaw(ts.ownerClient, '/bots', [
      { disposition: 'form-data; name="full_name"', data: 'Python Bot' },
      { disposition: 'form-data; name="short_name"', data: 'pybot' },
      pythonFilePart('/home/me/bot.png', PNG),
    ]);
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    assert.match(String(bot.body.avatar_url), /\?v=2$/, 'the avatar was set (version 2)');
  });
});
