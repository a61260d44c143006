/**
 * `npm run bench -- thumbnails` (issue 30, part 4): the thumbnails of a 12-megapixel photo.
 *
 * 1. Making them (what the app's thumbnail line does per upload: the 840x560.webp of a still JPEG,
 *    read from disk, EXIF-oriented, resized, encoded): median of ROUNDS. Goal: <= 1 s. Also the
 *    same pixels as a PNG, which libvips cannot shrink while decoding (the slow case).
 * 2. POST /user_uploads of that photo through a real server: the answer time as uploaded
 *    (image/jpeg: its header read on the request, its thumbnails made after the answer) against
 *    the same bytes as application/octet-stream (never read as an image): same run, interleaved.
 *    Then the time from the answer until its thumbnail is made, and the answer time of an upload
 *    while another photo's thumbnail is being made (the line runs beside requests).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { makeThumbnail, probeImage, restrictDecoders, formatsFor } from '../../server/lib/uploads/thumbnails.js';
import { startTestServer } from '../helpers/server.js';
import { uploadFiles } from '../helpers/uploads.js';
import { environment, goal, heading, median, table, tempDir, warnIfBusy } from './lib.js';

const WIDTH = 4000;
const HEIGHT = 3000;
const ROUNDS = 7;
const UPLOADS = 9;

/** A photo-like 4000x3000 JPEG (smooth gradients, texture and a little noise; about what a phone writes). */
async function photo(): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  let seed = 1;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const n = (seed >> 16) & 15;
      const i = (y * WIDTH + x) * 3;
      raw[i] = (x * 255) / WIDTH + n;
      raw[i + 1] = (y * 255) / HEIGHT + ((x >> 4) & 15);
      raw[i + 2] = 128 + 60 * Math.sin(x / 90) * Math.cos(y / 70) + n;
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).withMetadata({ orientation: 1 }).toBuffer();
}

const ms = (t: number) => `${t.toFixed(0)} ms`;

export async function main(): Promise<void> {
  heading('thumbnails of a 12-megapixel photo');
  console.log(`  ${environment()}`);
  const bytes = await photo();
  const dir = tempDir('thumbs');
  const file = join(dir, 'photo.jpg');
  await writeFile(file, bytes);
  console.log(`  photo: ${WIDTH}x${HEIGHT} JPEG, ${(bytes.length / 1048576).toFixed(1)} MiB`);
  restrictDecoders();

  // 1. Making them.
  const image = (await probeImage(file, 'image/jpeg'))!;
  const formats = formatsFor(image);
  const times: number[] = [];
  let size = '';
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (const f of formats) {
      const t = await makeThumbnail(file, image, f);
      size = `${t.name} ${t.width}x${t.height}, ${(t.byte_size / 1024).toFixed(0)} KiB`;
    }
    times.push(performance.now() - t0);
  }
  const made = median(times);
  console.log(`  made: ${size}`);
  console.log(`  time to make its thumbnails: median ${ms(made)} of ${ROUNDS} (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))})`);
  console.log(`  goal: thumbnails of a 12-megapixel photo <= 1 s: ${goal(made <= 1000)}`);
  // The same pixels as a PNG: no shrink-on-load (libvips decodes every pixel), the slow case.
  const pngFile = join(dir, 'photo.png');
  await writeFile(pngFile, await sharp(bytes).png({ compressionLevel: 6 }).toBuffer());
  const pngImage = (await probeImage(pngFile, 'image/png'))!;
  const pngTimes: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    for (const f of formatsFor(pngImage)) await makeThumbnail(pngFile, pngImage, f);
    pngTimes.push(performance.now() - t0);
  }
  console.log(`  the same photo as a 12-megapixel PNG (every pixel decoded): median ${ms(median(pngTimes))} of 3`);

  // 2. The upload's answer, with and without thumbnailing.
  heading('POST /user_uploads of the photo: answer time, thumbnailed vs not (same run, interleaved)');
  const ts = await startTestServer();
  try {
    const upload = async (type: string, name: string) => {
      const t0 = performance.now();
      const res = await uploadFiles(ts.ownerClient, [{ name, content: bytes, type }]);
      const t = performance.now() - t0;
      if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
      return t;
    };
    const withThumbs: number[] = [];
    const without: number[] = [];
    const untilMade: number[] = [];
    // One of each to warm up.
    await upload('image/jpeg', 'warm.jpg');
    await ts.app.thumbnails.idle();
    await upload('application/octet-stream', 'warm.bin');
    for (let i = 0; i < UPLOADS; i++) {
      withThumbs.push(await upload('image/jpeg', `p${i}.jpg`));
      const answered = performance.now();
      await ts.app.thumbnails.idle();
      untilMade.push(performance.now() - answered);
      without.push(await upload('application/octet-stream', `p${i}.bin`));
    }
    // An upload answered while another photo's thumbnail is being made.
    const busy: number[] = [];
    for (let i = 0; i < 5; i++) {
      await upload('image/jpeg', `first${i}.jpg`);
      busy.push(await upload('application/octet-stream', `during${i}.bin`));
      await ts.app.thumbnails.idle();
    }
    const [w, wo] = [median(withThumbs), median(without)];
    table([
      ['upload', 'answer median', 'min', 'max'],
      ['image/jpeg (header read; thumbnails after the answer)', ms(w), ms(Math.min(...withThumbs)), ms(Math.max(...withThumbs))],
      ['application/octet-stream (baseline: never an image)', ms(wo), ms(Math.min(...without)), ms(Math.max(...without))],
      ['octet-stream while a thumbnail is being made', ms(median(busy)), ms(Math.min(...busy)), ms(Math.max(...busy))],
    ]);
    console.log(`  answer time with thumbnailing vs without: ${(w / wo).toFixed(2)}x (+${ms(w - wo)})`);
    console.log(`  from the answer until the thumbnail is made (the line): median ${ms(median(untilMade))}`);
    const stored = ts.store.attachments.collection.data.attachments.filter((a) => a.image?.thumbnails.length);
    const one = stored[0]!;
    const thumbBytes = await readFile(join(ts.dataDir, 'uploads', 'files', `${one.storage}.thumbnails`, '840x560.webp'));
    console.log(`  stored: ${stored.length} photos with thumbnails; one is ${(thumbBytes.length / 1024).toFixed(0)} KiB (${((thumbBytes.length / bytes.length) * 100).toFixed(1)}% of the original)`);
    console.log(`  goal: the upload answers before its thumbnails are made (answer ${ms(w)} < answer + making ${ms(w + median(untilMade))}): ${goal(median(untilMade) > 0)}`);
  } finally {
    await ts.stop();
  }
  warnIfBusy(1);
}
