/**
 * Image thumbnails as Zulip 9+ makes them: made after the upload is answered, served at
 * /user_uploads/thumbnail/{path}/{format} with the file's access rules, and written into message
 * HTML (Zulip's loading placeholder first, then the thumbnail, with a rendering_only
 * update_message). Images are made with sharp here; hostile ones (a corrupt JPEG, a PNG declaring
 * 50000x50000) keep a plain link and never stop the line.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { pathIdFromReference } from '../../server/lib/uploads/names.js';
import type { AttachmentsDoc } from '../../server/store/attachment-records.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { fetchFile, restart, uploadOne } from '../helpers/uploads.js';
import { eventually } from '../helpers/eventually.js';
import { listDataFiles } from '../../server/lib/runtime/backup.js';

const LOADER = '/static/images/loading/loader-black.svg';

/** A photo-like JPEG (noise, so it is not trivially small) with an EXIF orientation. */
async function jpeg(width: number, height: number, orientation?: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7 + ((i / width) | 0) * 13) & 0xff;
  let p = sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 });
  if (orientation) p = p.withMetadata({ orientation });
  return p.toBuffer();
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#3a7bd5' } }).png().toBuffer();

async function gif(frames: number): Promise<Buffer> {
  const colours = ['#e33', '#3e3', '#33e', '#ee3'];
  const pngs = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width: 64, height: 48, channels: 4, background: colours[i % 4]! } }).png().toBuffer()),
  );
  return sharp(pngs, { join: { animated: true } }).gif({ delay: pngs.map(() => 100), loop: 0 }).toBuffer();
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A 100-byte PNG whose header declares width x height (a decompression bomb). */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1000))), chunk('IEND', Buffer.alloc(0))]);
}

const thumbOf = (url: string, format: string) => `${url.replace('/user_uploads/', '/user_uploads/thumbnail/')}/${format}`;

/** Holds the thumbnail line until released (its one slot taken by a job waiting on a gate). */
function holdLine(ts: TestServer): () => void {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  void ts.app.thumbnails.add(-1, () => gate);
  return open;
}

async function register(client: Client) {
  const reg = await client.post('/register', { event_types: JSON.stringify(['update_message']) });
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  return { queue_id: reg.body.queue_id as string, last_event_id: reg.body.last_event_id as number };
}

async function events(client: Client, q: { queue_id: string; last_event_id: number }) {
  const res = await client.get('/events', { ...q, dont_block: true });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body.events as { type: string; [k: string]: unknown }[]).filter((e) => e.type !== 'heartbeat');
}

async function content(client: Client, id: number): Promise<string> {
  const res = await client.get(`/messages/${id}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.message.content as string;
}

describe('image thumbnails', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    await ts.ownerClient.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'general' }]) });
  });
  after(() => ts.stop());

  it('announces Zulip\'s default formats in server_thumbnail_formats', async () => {
    const reg = await ts.ownerClient.post('/register', { fetch_event_types: JSON.stringify(['realm']) });
    assert.deepEqual(reg.body.server_thumbnail_formats, [
      { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
      { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
    ]);
  });

  it('a JPEG: answered before its thumbnail exists; the placeholder, then the thumbnail and a rendering_only update', async () => {
    const [reader] = await ts.people('Rita');
    await reader.client.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'general' }]) });
    const q = await register(reader.client);
    const release = holdLine(ts);
    // 1200x800 stored with EXIF orientation 6: shown (and thumbnailed) as 800x1200.
    const url = await uploadOne(ts.ownerClient, 'photo.jpg', await jpeg(1200, 800, 6), 'image/jpeg');
    const pathId = pathIdFromReference(url)!;
    const a = ts.store.attachments.byPathId(pathId)!;
    assert.deepEqual(a.image, { width: 800, height: 1200, frames: 1, thumbnails: [] }, 'header read at upload; no thumbnail yet');
    const id = await sendStream(ts.ownerClient, 'general', 'photos', `[my photo](${url})`);
    const link = `<p><a href="${url}">my photo</a></p>\n<div class="message_inline_image"><a href="${url}" title="my photo">`;
    assert.equal(
      await content(reader.client, id),
      `${link}<img class="image-loading-placeholder" data-original-content-type="image/jpeg" data-original-dimensions="800x1200" src="${LOADER}"></a></div>`,
    );
    const loader = await fetchFile(ts.anonymous, LOADER);
    assert.equal(loader.status, 200);
    assert.equal(loader.headers.get('content-type'), 'image/svg+xml');

    const started = Date.now();
    release();
    await ts.app.thumbnails.idle();
    assert.ok(Date.now() - started < 5000, 'made within 5 s');
    const thumbUrl = thumbOf(url, '840x560.webp');
    const done = `${link}<img data-original-content-type="image/jpeg" data-original-dimensions="800x1200" src="${thumbUrl}"></a></div>`;
    assert.equal(await content(reader.client, id), done);
    const got = await events(reader.client, q);
    assert.equal(got.length, 1, JSON.stringify(got));
    assert.deepEqual({ ...got[0], edit_timestamp: 0, id: 0 }, {
      type: 'update_message',
      user_id: null,
      edit_timestamp: 0,
      message_id: id,
      message_ids: [id],
      content: `[my photo](${url})`,
      rendered_content: done,
      rendering_only: true,
      flags: [],
      id: 0,
    });

    // Served as WebP, within 840x560, upright, without the EXIF block.
    const thumb = await fetchFile(reader.client, thumbUrl);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/webp');
    assert.equal(thumb.headers.get('x-content-type-options'), 'nosniff');
    const meta = await sharp(thumb.body).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 373, 560]);
    assert.equal(meta.exif, undefined, 'metadata stripped');
    assert.equal(meta.orientation, undefined);
    // Stored beside the upload, durable in the record.
    const doc = JSON.parse(await readFile(join(ts.dataDir, 'attachments.json'), 'utf8')) as AttachmentsDoc;
    const rec = doc.attachments.find((x) => x.path_id === pathId)!;
    assert.deepEqual(rec.image?.thumbnails.map((t) => [t.name, t.width, t.height, t.byte_size]), [['840x560.webp', 373, 560, thumb.body.length]]);
    assert.ok(existsSync(join(ts.dataDir, 'uploads', 'files', `${rec.storage}.thumbnails`, '840x560.webp')));

    // The original's access rules: someone who cannot read the message gets 403, a spectator 401.
    const [outsider] = await ts.people('Otto');
    await outsider.client.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'secret-room', invite_only: true }]) });
    const [priv] = await ts.people('Pia');
    const secretUrl = await uploadOne(priv.client, 'secret.png', await png(50, 40), 'image/png');
    await ts.app.thumbnails.idle();
    assert.equal((await fetchFile(outsider.client, thumbOf(secretUrl, '840x560.webp'))).status, 403);
    assert.equal((await fetchFile(ts.anonymous, thumbUrl)).status, 401);
    assert.equal((await fetchFile(priv.client, thumbOf(secretUrl, '840x560.webp'))).status, 200);
  });

  it('a PNG sent after its thumbnail is made links the thumbnail at once; formats Zulip does not make', async () => {
    const url = await uploadOne(ts.ownerClient, 'small.png', await png(300, 200), 'image/png');
    await ts.app.thumbnails.idle();
    const id = await sendStream(ts.ownerClient, 'general', 'photos', `[small.png](${url})`);
    assert.equal(
      await content(ts.ownerClient, id),
      `<p><a href="${url}">small.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="small.png">` +
        `<img data-original-content-type="image/png" data-original-dimensions="300x200" src="${thumbOf(url, '840x560.webp')}"></a></div>`,
    );
    // Never scaled up.
    const t = await fetchFile(ts.ownerClient, thumbOf(url, '840x560.webp'));
    assert.deepEqual([(await sharp(t.body).metadata()).width, t.headers.get('content-type')], [300, 'image/webp']);
    // A format name Zulip could not parse: 404. An animated one for a still image: the closest made (Zulip).
    assert.equal((await fetchFile(ts.ownerClient, thumbOf(url, 'nonsense'))).status, 404);
    assert.equal((await fetchFile(ts.ownerClient, thumbOf(url, '840x560.png.exe'))).status, 404);
    const anim = await fetchFile(ts.ownerClient, thumbOf(url, '840x560-anim.webp'));
    assert.equal(anim.status, 200);
    assert.deepEqual(anim.body, t.body);
    // A file that is not an image has no thumbnails.
    const txt = await uploadOne(ts.ownerClient, 'notes.txt', 'hello', 'text/plain');
    assert.equal((await fetchFile(ts.ownerClient, thumbOf(txt, '840x560.webp'))).status, 404);
  });

  it('a thumbnail asked for before it is made is made then and there (Zulip makes it on demand)', async () => {
    const release = holdLine(ts);
    const url = await uploadOne(ts.ownerClient, 'wait.png', await png(1000, 1000), 'image/png');
    const asked = fetchFile(ts.ownerClient, thumbOf(url, '840x560.webp'));
    // Its upload goes to the front of the line; the line is released and the request answered.
    setTimeout(release, 50);
    const got = await asked;
    assert.equal(got.status, 200);
    const meta = await sharp(got.body).metadata();
    assert.deepEqual([meta.width, meta.height], [560, 560]);
  });

  it('an animated GIF gets an animated thumbnail and a still one; HTML links the animated one', async () => {
    const url = await uploadOne(ts.ownerClient, 'wave.gif', await gif(3), 'image/gif');
    await ts.app.thumbnails.idle();
    const a = ts.store.attachments.byPathId(pathIdFromReference(url)!)!;
    assert.deepEqual(a.image?.thumbnails.map((t) => t.name), ['840x560-anim.webp', '840x560.webp']);
    const id = await sendStream(ts.ownerClient, 'general', 'photos', `[wave](${url})`);
    assert.match(
      await content(ts.ownerClient, id),
      new RegExp(`<img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="64x48" src="${thumbOf(url, '840x560-anim.webp')}">`),
    );
    const animated = await sharp((await fetchFile(ts.ownerClient, thumbOf(url, '840x560-anim.webp'))).body, { pages: -1 }).metadata();
    assert.deepEqual([animated.format, animated.pages, animated.width], ['webp', 3, 64]);
    const still = await sharp((await fetchFile(ts.ownerClient, thumbOf(url, '840x560.webp'))).body).metadata();
    assert.equal(still.pages ?? 1, 1);
  });

  it('a corrupt image loses its preview (the plain link stays), logs, and the line goes on', async () => {
    const [reader] = await ts.people('Cora');
    await reader.client.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'general' }]) });
    const q = await register(reader.client);
    const release = holdLine(ts);
    const good = await jpeg(400, 300);
    // The header and the first bytes of the scan, then garbage: the header reads, decoding fails.
    const broken = Buffer.concat([good.subarray(0, 700), Buffer.alloc(4000, 0x5a)]);
    const url = await uploadOne(ts.ownerClient, 'broken.jpg', broken, 'image/jpeg');
    const next = await uploadOne(ts.ownerClient, 'after.png', await png(20, 20), 'image/png');
    const pathId = pathIdFromReference(url)!;
    assert.ok(ts.store.attachments.byPathId(pathId)!.image, 'its header reads as an image');
    const id = await sendStream(ts.ownerClient, 'general', 'photos', `[broken](${url})`);
    assert.match(await content(reader.client, id), /image-loading-placeholder/);
    release();
    await ts.app.thumbnails.idle();
    assert.equal(await content(reader.client, id), `<p><a href="${url}">broken</a></p>`);
    assert.equal(ts.store.attachments.byPathId(pathId)!.image, null);
    const got = await events(reader.client, q);
    assert.deepEqual(got.map((e) => [e.rendering_only, e.rendered_content]), [[true, `<p><a href="${url}">broken</a></p>`]]);
    assert.equal((await fetchFile(ts.ownerClient, thumbOf(url, '840x560.webp'))).status, 404);
    assert.equal((await fetchFile(ts.ownerClient, url)).status, 200, 'the original is still there');
    assert.equal(ts.store.attachments.byPathId(pathIdFromReference(next)!)!.image?.thumbnails.length, 1, 'the next one was made');
  });

  it('a decompression bomb (a tiny PNG declaring 50000x50000) is never decoded: a plain link, no thumbnail', async () => {
    const bomb = pngBomb(50_000, 50_000);
    assert.ok(bomb.length < 200);
    const started = Date.now();
    const url = await uploadOne(ts.ownerClient, 'bomb.png', bomb, 'image/png');
    assert.ok(Date.now() - started < 2000);
    assert.equal(ts.store.attachments.byPathId(pathIdFromReference(url)!)!.image, null);
    const id = await sendStream(ts.ownerClient, 'general', 'photos', `[bomb](${url})`);
    assert.equal(await content(ts.ownerClient, id), `<p><a href="${url}">bomb</a></p>`);
    assert.equal((await fetchFile(ts.ownerClient, thumbOf(url, '840x560.webp'))).status, 404);
    // Over Zulip's 90-megapixel limit by a little: refused too.
    const big = await uploadOne(ts.ownerClient, 'big.png', pngBomb(10_000, 9_001), 'image/png');
    assert.equal(ts.store.attachments.byPathId(pathIdFromReference(big)!)!.image, null);
    assert.equal((await ts.ownerClient.get('/users/me')).status, 200, 'the server is fine');
  });

  it('a type the client claims is not trusted: a PNG uploaded as text/plain or bytes named .png that are not an image', async () => {
    const asText = await uploadOne(ts.ownerClient, 'x.txt', await png(10, 10), 'text/plain');
    assert.equal(ts.store.attachments.byPathId(pathIdFromReference(asText)!)!.image, null);
    const fake = await uploadOne(ts.ownerClient, 'fake.png', '<svg onload="alert(1)"></svg>', 'image/png');
    assert.equal(ts.store.attachments.byPathId(pathIdFromReference(fake)!)!.image, null);
  });

  it('deleting the upload deletes its thumbnails', async () => {
    const url = await uploadOne(ts.ownerClient, 'gone.png', await png(100, 100), 'image/png');
    await ts.app.thumbnails.idle();
    const a = ts.store.attachments.byPathId(pathIdFromReference(url)!)!;
    const dir = join(ts.dataDir, 'uploads', 'files', `${a.storage}.thumbnails`);
    assert.ok(existsSync(dir));
    const res = await ts.ownerClient.delete(`/attachments/${a.id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(!existsSync(dir));
    assert.ok(!existsSync(join(ts.dataDir, 'uploads', 'files', a.storage)));
  });
});

describe('thumbnails across a restart, a deleted message and a backup', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    await ts.ownerClient.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'general' }]) });
  });
  after(() => ts.stop());

  it('thumbnails not made when the server stopped are made at the next start, and the message rewritten', async () => {
    holdLine(ts); // Never released: the stop drops what waits.
    const url = await uploadOne(ts.ownerClient, 'late.png', await png(120, 90), 'image/png');
    const id = await sendStream(ts.ownerClient, 'general', 'photos', `[late](${url})`);
    assert.match(await content(ts.ownerClient, id), /image-loading-placeholder/);
    // The held job never ends, so the stop would wait for it: the line is stopped without it.
    (ts.app.thumbnails as unknown as { active: Set<Promise<void>> }).active.clear();
    ts = await restart(ts);
    await ts.app.thumbnails.idle();
    assert.equal(
      await content(ts.ownerClient, id),
      `<p><a href="${url}">late</a></p>\n<div class="message_inline_image"><a href="${url}" title="late">` +
        `<img data-original-content-type="image/png" data-original-dimensions="120x90" src="${thumbOf(url, '840x560.webp')}"></a></div>`,
    );
  });

  it('a backup holds the thumbnails; deleting the last message linking the file deletes them with it', async () => {
    const url = await uploadOne(ts.ownerClient, 'kept.png', await png(64, 64), 'image/png');
    await ts.app.thumbnails.idle();
    const a = ts.store.attachments.byPathId(pathIdFromReference(url)!)!;
    const rel = join('uploads', 'files', `${a.storage}.thumbnails`, '840x560.webp');
    const files = await listDataFiles(ts.dataDir);
    assert.ok(files.some((f) => f.rel === rel), 'listed for backups');
    const id = await sendStream(ts.ownerClient, 'general', 'photos', `[kept](${url})`);
    assert.equal((await ts.ownerClient.delete(`/messages/${id}`)).status, 200);
    await eventually(() => !existsSync(join(ts.dataDir, rel)), 'thumbnails deleted', 2_000);
    assert.ok(!existsSync(join(ts.dataDir, 'uploads', 'files', a.storage)));
  });
});
