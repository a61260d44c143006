import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { doDeactivateUser } from '../../server/actions/users-activation.js';
import { pathIdFromReference } from '../../server/lib/uploads/names.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { ensureClaimed, fetchFile, rawGet, uploadOne } from '../helpers/uploads.js';

const status = async (c: Client, url: string) => (await fetchFile(c, url)).status;

describe('who may open an uploaded file', () => {
  let ts: TestServer;
  let member: Account;
  let other: Account;
  let guest: Account;
  let late: Account;
  const c = (a: Account) => ts.client(a);
  before(async () => {
    ts = await startTestServer();
    member = await ts.addUser('Mem');
    other = await ts.addUser('Oth');
    guest = await ts.addUser('Gue', 600);
    late = await ts.addUser('Late');
  });
  after(() => ts.stop());

  it('only the uploader until a message links it', async () => {
    const url = await uploadOne(c(member), 'secret.txt', 'top secret');
    const got = await fetchFile(c(member), url);
    assert.equal(got.status, 200);
    assert.equal(got.body.toString(), 'top secret');
    assert.equal(await status(c(other), url), 403);
    assert.equal((await fetchFile(c(other), url)).body.includes(Buffer.from('top secret')), false);
    assert.equal(await status(ts.ownerClient, url), 403, 'administrators get no special access');
    assert.equal(await status(ts.anonymous, url), 401);
    // The API path gives a temporary URL only to the same people.
    assert.equal((await c(other).call('GET', url)).status, 403);
    assert.equal((await ts.anonymous.call('GET', url)).status, 401);
  });

  it('a public channel message: every member who can read it, not a guest outside the channel', async () => {
    await createChannel(ts, ts.ownerClient, 'general', { principals: JSON.stringify([ts.owner.id, member.id]) });
    const url = await uploadOne(c(member), 'plan.txt', 'the plan');
    const id = await sendStream(c(member), 'general', 'files', `[plan.txt](${url})`);
    await ensureClaimed(ts, member.id, id, url);
    assert.deepEqual(ts.store.attachments.byPathId(pathIdFromReference(url)!)!.message_ids, [id]);
    assert.equal(await status(c(other), url), 200, 'a member who is not subscribed reads public history');
    assert.equal(await status(ts.ownerClient, url), 200);
    assert.equal(await status(c(guest), url), 403);
    assert.equal(await status(ts.anonymous, url), 401, 'no spectators without web-public access');
  });

  it('a private channel with protected history: those who received the message', async () => {
    await createChannel(ts, ts.ownerClient, 'inner', {
      invite_only: true,
      history_public_to_subscribers: false,
      principals: JSON.stringify([ts.owner.id, member.id]),
    });
    const url = await uploadOne(c(member), 'inner.txt', 'inner');
    const id = await sendStream(c(member), 'inner', 't', `[inner.txt](${url})`);
    await ensureClaimed(ts, member.id, id, url);
    assert.equal(await status(ts.ownerClient, url), 200);
    assert.equal(await status(c(other), url), 403);
    const sub = await ts.ownerClient.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'inner' }]),
      principals: JSON.stringify([late.id]),
    });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    assert.equal(await status(c(late), url), 403, 'subscribed after the message: history is protected');
  });

  it('a direct message: its participants only; resharing by a reader extends access', async () => {
    const url = await uploadOne(c(member), 'dm.txt', 'for your eyes');
    const id = await sendDirect(c(member), [other.id], `[dm.txt](${url})`);
    await ensureClaimed(ts, member.id, id, url);
    assert.equal(await status(c(other), url), 200);
    assert.equal(await status(c(guest), url), 403);
    // `other` can open it, so sharing it onward (Zulip allows resharing) lets the guest in.
    const id2 = await sendDirect(c(other), [guest.id], `look ${url}`);
    await ensureClaimed(ts, other.id, id2, url);
    assert.equal(await status(c(guest), url), 200);
  });

  it('linking a file one cannot open shares nothing (a guessed link in a message)', async () => {
    const url = await uploadOne(c(member), 'mine.txt', 'mine');
    const id = await sendDirect(c(other), [guest.id], `stolen? ${url}`);
    await ensureClaimed(ts, other.id, id, url).catch(() => undefined);
    const a = ts.store.attachments.byPathId(pathIdFromReference(url)!)!;
    assert.deepEqual(a.message_ids, [], 'the message did not claim it');
    assert.equal(await status(c(guest), url), 403);
    assert.equal(await status(c(other), url), 403);
  });

  it('a deactivated uploader is refused (401)', async () => {
    const gone = await ts.addUser('Gone');
    const url = await uploadOne(c(gone), 'g.txt', 'g');
    await doDeactivateUser(ts.app, ts.store.users.get(gone.id)!);
    assert.equal(await status(c(gone), url), 401);
  });

  it('guessed URLs are 404s: another token, bucket, realm or name', async () => {
    const url = await uploadOne(c(member), 'real.txt', 'real');
    const [, , realm, bucket, token, name] = url.split('/') as string[];
    const guesses = [
      `/user_uploads/${realm}/${bucket}/${'A'.repeat(24)}/${name}`,
      `/user_uploads/${realm}/${bucket === '00' ? '01' : '00'}/${token}/${name}`,
      `/user_uploads/2/${bucket}/${token}/${name}`,
      `/user_uploads/${realm}/${bucket}/${token}/other.txt`,
      `/user_uploads/${realm}/${bucket}/${token}`,
      `/user_uploads/${realm}/${bucket}/${token}/${name}/extra`,
    ];
    for (const g of guesses) {
      const res = await fetchFile(c(member), g);
      assert.ok([404, 405].includes(res.status), `${g}: ${res.status}`);
      assert.equal(res.body.includes(Buffer.from('real')) && !res.body.includes(Buffer.from('"result"')), false, g);
    }
  });

  it('no path traversal in any form (raw HTTP, nothing normalised on the way)', async () => {
    const url = await uploadOne(c(member), 'base.txt', 'base');
    const [, , realm, bucket, token] = url.split('/') as string[];
    const secret = JSON.parse(await readFile(join(ts.dataDir, 'attachments.json'), 'utf8')).secret as string;
    const usersFile = await readFile(join(ts.dataDir, 'users.json'), 'utf8');
    const apiKey = JSON.parse(usersFile).users[0].api_key as string;
    const auth = { authorization: c(member).authHeader.authorization! };
    const attempts = [
      `/user_uploads/${realm}/../../attachments.json`,
      `/user_uploads/${realm}/${bucket}/${token}/../../../../attachments.json`,
      `/user_uploads/${realm}/${bucket}/${token}/..%2F..%2F..%2F..%2Fattachments.json`,
      `/user_uploads/${realm}/${bucket}/${token}/%2e%2e%2f%2e%2e%2f%2e%2e%2fusers.json`,
      `/user_uploads/${realm}/${bucket}/%2e%2e/users.json`,
      `/user_uploads/${realm}/%2e%2e/%2e%2e/users.json`,
      `/user_uploads/${realm}/${bucket}/${token}/..\\..\\..\\users.json`,
      `/user_uploads/${realm}/${bucket}/${token}/..%5c..%5c..%5cusers.json`,
      `/user_uploads/${realm}/${bucket}/${token}/%2fetc%2fpasswd`,
      `/user_uploads//etc/passwd`,
      `/user_uploads/${realm}/${bucket}/${token}/base.txt%00.png`,
      `/user_uploads/${realm}/${bucket}/${token}/base.txt%00`,
      `/user_uploads/${realm}/${bucket}/${token}/%252e%252e%252fusers.json`,
      `/user_uploads/download/${realm}/../../users.json`,
      `/user_uploads/temporary/..%2f..%2fusers.json/users.json`,
      `/api/v1/user_uploads/${realm}/${bucket}/${token}/..%2f..%2fusers.json`,
      `/user_uploads/../users.json`,
      `/user_uploads/${realm}/${bucket}/${token}/%c0%ae%c0%ae%c0%afusers.json`,
    ];
    for (const path of attempts) {
      for (const headers of [auth, {}]) {
        const res = await rawGet(ts.url, path, headers);
        assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
        assert.equal(res.text.includes(secret), false, path);
        assert.equal(res.text.includes(apiKey), false, path);
        assert.equal(res.text.includes('"password_hash"'), false, path);
      }
    }
    // The real file through the same raw client still works, so the probes above were heard.
    const ok = await rawGet(ts.url, url, auth);
    assert.equal(ok.status, 200);
    assert.ok(ok.text.endsWith('base'));
  });
});

describe('how files are served', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

  it('safe images inline; HTML, SVG and unknown types as downloads; always nosniff and a sandboxing CSP', async () => {
    const cases: [string, Buffer | string, string | undefined, string, 'inline' | 'attachment'][] = [
      ['pic.png', png, 'image/png', 'image/png', 'inline'],
      ['pic2.png', png, undefined, 'image/png', 'inline'],
      ['page.html', '<script>alert(1)</script>', 'text/html', 'text/html', 'attachment'],
      ['draw.svg', '<svg onload="alert(1)"/>', 'image/svg+xml', 'image/svg+xml', 'attachment'],
      ['blob', 'xx', 'application/octet-stream', 'application/octet-stream', 'attachment'],
      ['notes.txt', 'plain', 'text/plain', 'text/plain', 'attachment'],
    ];
    for (const [name, content, type, servedType, disposition] of cases) {
      const url = await uploadOne(ts.ownerClient, name, content, type);
      const res = await fetchFile(ts.ownerClient, url);
      assert.equal(res.status, 200, name);
      assert.equal(res.headers.get('content-type'), servedType, name);
      assert.match(res.headers.get('content-disposition')!, new RegExp(`^${disposition}; filename="${name}"`), name);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', name);
      const csp = res.headers.get('content-security-policy')!;
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /sandbox/);
      assert.doesNotMatch(csp, /script-src/);
      assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(content)));
      // /download/ always forces a download.
      const dl = await fetchFile(ts.ownerClient, url.replace('/user_uploads/', '/user_uploads/download/'));
      assert.equal(dl.status, 200);
      assert.match(dl.headers.get('content-disposition')!, /^attachment;/);
      assert.deepEqual(dl.body, res.body);
    }
  });

  it('HEAD answers the headers without the body', async () => {
    const url = await uploadOne(ts.ownerClient, 'h.png', png, 'image/png');
    const res = await fetchFile(ts.ownerClient, url, 'HEAD');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.body.length, 0);
  });

  it('non-ASCII names get an RFC 8187 filename*', async () => {
    const url = await uploadOne(ts.ownerClient, 'Übersicht "Q1".png', png, 'image/png');
    const res = await fetchFile(ts.ownerClient, url);
    assert.equal(
      res.headers.get('content-disposition'),
      `inline; filename="_bersicht _Q1_.png"; filename*=UTF-8''%C3%9Cbersicht%20%22Q1%22.png`,
    );
  });

  it('byte ranges (seeking in audio and video): 206 with Content-Range, suffix ranges, 416 past the end', async () => {
    const data = Buffer.from('0123456789abcdef');
    const url = await uploadOne(ts.ownerClient, 'clip.mp4', data, 'video/mp4');
    const get = (range: string) =>
      fetch(`${ts.url}${url}`, { headers: { ...ts.ownerClient.authHeader, range } }).then(async (r) => ({
        status: r.status,
        headers: r.headers,
        body: Buffer.from(await r.arrayBuffer()).toString(),
      }));
    const mid = await get('bytes=2-5');
    assert.equal(mid.status, 206);
    assert.equal(mid.body, '2345');
    assert.equal(mid.headers.get('content-range'), 'bytes 2-5/16');
    assert.equal(mid.headers.get('content-length'), '4');
    assert.equal(mid.headers.get('accept-ranges'), 'bytes');
    assert.equal((await get('bytes=10-')).body, 'abcdef');
    assert.equal((await get('bytes=-3')).body, 'def');
    assert.equal((await get('bytes=14-99')).body, 'ef');
    const past = await get('bytes=16-');
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), 'bytes */16');
    const junk = await get('pages=1-2');
    assert.equal(junk.status, 200);
    assert.equal(junk.body, data.toString());
  });

  it('thumbnail URLs of files that are not decodable images are 404 (thumbnails: test/views/thumbnails.test.ts)', async () => {
    // Only the PNG signature: no image in it, so no thumbnail is ever made.
    const img = await uploadOne(ts.ownerClient, 't.png', png, 'image/png');
    const thumb = img.replace('/user_uploads/', '/user_uploads/thumbnail/') + '/840x560.webp';
    assert.equal((await fetchFile(ts.ownerClient, thumb)).status, 404);
    const member = ts.client(await ts.addUser('Thumbless'));
    assert.equal((await fetchFile(member, thumb)).status, 403, 'the same access rules');
    const doc = await uploadOne(ts.ownerClient, 'd.html', '<b>x</b>', 'text/html');
    const none = doc.replace('/user_uploads/', '/user_uploads/thumbnail/') + '/840x560.webp';
    assert.equal((await fetchFile(ts.ownerClient, none)).status, 404);
  });

  it('a file missing on disk is a 404, not a crash', async () => {
    const url = await uploadOne(ts.ownerClient, 'gone.txt', 'gone');
    const a = ts.store.attachments.byPathId(pathIdFromReference(url)!)!;
    const { rm } = await import('node:fs/promises');
    await rm(join(ts.dataDir, 'uploads', 'files', a.storage));
    assert.equal((await fetchFile(ts.ownerClient, url)).status, 404);
  });
});

describe('temporary URLs (GET /api/v1/user_uploads/...)', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 0, 1);
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
  });
  after(() => ts.stop());

  it('open the file without credentials for a minute, and only that file', async () => {
    const url = await uploadOne(ts.ownerClient, 'temp.txt', 'temporary');
    const res = await ts.ownerClient.call('GET', url);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const temp = res.body.url as string;
    assert.match(temp, /^\/user_uploads\/temporary\/[0-9A-F]+\/temp\.txt$/);
    const got = await fetchFile(ts.anonymous, temp);
    assert.equal(got.status, 200);
    assert.equal(got.body.toString(), 'temporary');

    const [, , , token] = temp.split('/') as string[];
    assert.equal((await fetchFile(ts.anonymous, `/user_uploads/temporary/${token}/other.txt`)).status, 400);
    const flipped = token!.slice(0, -2) + (token!.endsWith('00') ? '11' : '00');
    assert.equal((await fetchFile(ts.anonymous, `/user_uploads/temporary/${flipped}/temp.txt`)).status, 400);
    assert.equal((await fetchFile(ts.anonymous, `/user_uploads/temporary/zz/temp.txt`)).status, 400);

    now += 61_000;
    const expired = await fetchFile(ts.anonymous, temp);
    assert.equal(expired.status, 400);
    assert.match(expired.body.toString(), /Invalid token/);
  });
});

describe('spectators and web-public channels', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer({ config: { webPublicStreamsEnabled: true } });
    ts.store.realm.data.realm!.settings.enable_spectator_access = true;
  });
  after(() => ts.stop());

  it('a file linked from a web-public channel opens for spectators; from a public one it does not', async () => {
    const pub = await createChannel(ts, ts.ownerClient, 'lobby');
    const made = await ts.ownerClient.patch(`/streams/${pub}`, { is_web_public: true });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    await createChannel(ts, ts.ownerClient, 'plain');

    const open = await uploadOne(ts.ownerClient, 'open.txt', 'for all');
    const id = await sendStream(ts.ownerClient, 'lobby', 't', `[open.txt](${open})`);
    await ensureClaimed(ts, ts.owner.id, id, open);
    const closed = await uploadOne(ts.ownerClient, 'closed.txt', 'members');
    const id2 = await sendStream(ts.ownerClient, 'plain', 't', `[closed.txt](${closed})`);
    await ensureClaimed(ts, ts.owner.id, id2, closed);

    const got = await fetchFile(ts.anonymous, open);
    assert.equal(got.status, 200);
    assert.equal(got.body.toString(), 'for all');
    assert.equal(await status(ts.anonymous, closed), 401);

    ts.store.realm.data.realm!.settings.enable_spectator_access = false;
    assert.equal(await status(ts.anonymous, open), 401, 'spectator access switched off');
  });
});
