/**
 * Image previews with thumbnails in the chat (issue 30, part 4): the feed's image is the server's
 * thumbnail (`/user_uploads/thumbnail/.../840x560.webp`), sized from data-original-dimensions
 * before it loads; the lightbox shows the original; an image whose thumbnail is still being made
 * shows the loading placeholder (a spinner in a box of its shape), then the thumbnail once the
 * server's rendering_only update arrives, without an "(edited)" mark. Screenshots at 1280 and
 * 390 px, light and dark: test-results/admin-ui/chat-thumbnails-*.png; axe-core on the feed.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import sharp from 'sharp';
import { axeViolations } from '../helpers/axe.js';
import { isSessionProbe } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { uploadOne } from '../helpers/uploads.js';

/** A "photo": a diagonal gradient from sand to sea blue with a pale sun, as a JPEG (raw pixels: the app in this process lets libvips decode photo formats only). */
function photo(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  const [cx, cy, r] = [width * 0.7, height * 0.35, Math.min(width, height) * 0.15];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const sun = (x - cx) ** 2 + (y - cy) ** 2 < r * r;
      const i = (y * width + x) * 3;
      raw[i] = sun ? 255 : 246 + (61 - 246) * t;
      raw[i + 1] = sun ? 229 : 178 + (90 - 178) * t;
      raw[i + 2] = sun ? 153 : 107 + (128 - 107) * t;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

test.describe('image previews with thumbnails', () => {
  let generalId = 0;
  let photoUrl = '';
  let photoId = 0;
  const s = chatSuite(async (ts) => {
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id] });
    photoUrl = await uploadOne(ts.ownerClient, 'harbour.jpg', await photo(1600, 1000), 'image/jpeg');
    await ts.app.thumbnails.idle();
    photoId = await sendStream(ts.ownerClient, 'general', 'photos', `Evening at the harbour: [harbour.jpg](${photoUrl})`);
  });
  const page = () => s.p.page;
  const item = (id: number) => page().locator(`li.message[data-id="${id}"]`);

  test('the feed shows the thumbnail, sized before it loads; the lightbox shows the original', async () => {
    await page().goto(`${s.ts.url}/#narrow/channel/${generalId}-general/topic/photos`);
    const img = item(photoId).locator('.message_inline_image img');
    await img.waitFor();
    const src = await img.getAttribute('src');
    assert.equal(src, `${photoUrl.replace('/user_uploads/', '/user_uploads/thumbnail/')}/840x560.webp`);
    // 1600x1000 shown within 400x300: 400x250, from data-original-dimensions.
    assert.deepEqual([await img.getAttribute('width'), await img.getAttribute('height')], ['400', '250']);
    await eventually(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth === 840));
    const box = await img.boundingBox();
    assert.ok(box && Math.round(box.width) === 400 && Math.round(box.height) === 250, JSON.stringify(box));

    await item(photoId).locator('.message_inline_image a').click();
    const dialog = page().getByRole('dialog', { name: 'harbour.jpg' });
    const big = dialog.locator('img');
    await big.waitFor();
    assert.equal(await big.getAttribute('src'), photoUrl, 'the original, not the thumbnail');
    await eventually(() => big.evaluate((el) => (el as HTMLImageElement).naturalWidth === 1600));
    await s.p.shot('chat-thumbnails-lightbox-1024');
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  test('while the thumbnail is made: the placeholder, then the thumbnail (rendering_only, not "edited")', async () => {
    // The thumbnail line is held, so the next upload waits in it.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    void s.ts.app.thumbnails.add(-1, () => gate);
    const url = await uploadOne(s.ts.ownerClient, 'boats.jpg', await photo(900, 1200), 'image/jpeg');
    const id = await sendStream(s.ts.ownerClient, 'general', 'photos', `And the boats: [boats.jpg](${url})`);
    const img = item(id).locator('.message_inline_image img');
    await img.waitFor();
    assert.equal(await img.getAttribute('class'), 'image-loading-placeholder');
    // 900x1200 within 400x300: 225x300, a spinner in that box.
    assert.deepEqual([await img.getAttribute('width'), await img.getAttribute('height')], ['225', '300']);
    assert.match((await img.getAttribute('src')) ?? '', /^data:image\/svg\+xml,/);
    const before = await img.boundingBox();
    for (const theme of ['light', 'dark'] as const) {
      await page().emulateMedia({ colorScheme: theme });
      await s.p.shot(`chat-thumbnails-placeholder-1024-${theme}`);
    }
    await page().emulateMedia({ colorScheme: 'light' });
    release();
    await eventually(async () => ((await img.getAttribute('src')) ?? '').endsWith('/840x560.webp'));
    await eventually(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0));
    const after = await img.boundingBox();
    assert.deepEqual([Math.round(after!.width), Math.round(after!.height)], [Math.round(before!.width), Math.round(before!.height)], 'no jump');
    assert.equal(await item(id).getByText('(edited)').count(), 0, 'a rendering_only update is no edit');
  });

  test('the feed at 1280 and 390 px, light and dark; axe-core finds nothing serious', async () => {
    const p = page();
    for (const [w, theme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
      await p.setViewportSize({ width: w, height: w === 390 ? 844 : 800 });
      await p.emulateMedia({ colorScheme: theme });
      await item(photoId).scrollIntoViewIfNeeded();
      const img = item(photoId).locator('.message_inline_image img');
      const box = await img.boundingBox();
      // Never wider than the message, and keeping its shape.
      assert.ok(box && Math.abs(box.width / box.height - 1.6) < 0.02, `${w} ${JSON.stringify(box)}`);
      await s.p.shot(`chat-thumbnails-${w}-${theme}`);
    }
    const found = await axeViolations(p);
    assert.deepEqual(found, []);
    await p.emulateMedia({ colorScheme: 'light' });
    await p.setViewportSize({ width: 1024, height: 768 });
    assert.deepEqual(s.p.errors.filter((e) => !isSessionProbe(e)), []);
  });
});
