/**
 * Issue 29, the smaller things seen the same day: custom emoji drawn 64 px tall inside text, a
 * spoiler's arrow on its own line above its label, a code block's first line shifted by ~3 px,
 * "Jump to newest" covering the last line. Screenshot: test-results/admin-ui/chat-render-details.png.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from '../helpers/fixtures.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';

test.describe('rendered messages, in detail', () => {
  let generalId: number;
  let spoilerId: number;
  const s = chatSuite(async (ts) => {
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id] });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await readFile(new URL('../../server/static/hearth-icon.png', import.meta.url)))], { type: 'image/png' }), 'logo.png');
    const up = await fetch(`${ts.url}/api/v1/realm/emoji/logo`, { method: 'POST', headers: ts.ownerClient.authHeader, body: form });
    assert.equal(up.status, 200, await up.text());
    await sendStream(ts.ownerClient, 'general', 'details', 'Our :logo: is here');
    spoilerId = await sendStream(ts.ownerClient, 'general', 'details', '```spoiler The ending\nIt was the butler.\n```');
    await sendStream(ts.ownerClient, 'general', 'details', '/me waves **hello**');
    await sendStream(ts.ownerClient, 'general', 'details', '```js\nconst first = 1;\nconst second = 2;\n```');
  });

  test.beforeAll(async () => {
    await s.p.page.goto(`${s.ts.url}/#narrow/channel/${generalId}-general/topic/details`);
    await s.p.page.getByText('const second = 2;', { exact: false }).waitFor();
  });

  test('a custom emoji is as tall as the text around it', async () => {
    const img = s.p.page.locator('.rendered img.emoji').first();
    await img.waitFor();
    const { h, font } = await img.evaluate((el) => ({ h: el.getBoundingClientRect().height, font: parseFloat(getComputedStyle(el.parentElement!).fontSize) }));
    assert.ok(h <= font * 1.5 && h >= font, `emoji ${h} px for ${font} px text`);
  });

  test("a /me message reads as the sender doing it, as in Zulip (the name in place of '/me')", async () => {
    const me = s.p.page.locator('.rendered .me-message');
    await me.waitFor();
    const name = s.ts.store.users.get(s.ts.owner.id)!.full_name;
    assert.equal((await me.textContent())?.trim(), `${name} waves hello`);
    assert.equal(await me.locator('strong').textContent(), 'hello');
    assert.equal(await s.p.page.locator('.rendered').getByText('/me', { exact: false }).count(), 0);
  });

  test("a spoiler's arrow sits beside its label, on one line", async () => {
    const header = s.p.page.locator('.rendered .spoiler-header').first();
    const { h, line } = await header.evaluate((el) => ({ h: el.getBoundingClientRect().height, line: parseFloat(getComputedStyle(el).lineHeight) || 24 }));
    assert.ok(h < line * 1.6, `header ${h} px for a ${line} px line`);
  });

  test("a code block's lines start at the same place", async () => {
    const xs = await s.p.page.locator('.rendered pre code').first().evaluate((code) => {
      const range = document.createRange();
      const text = code.textContent ?? '';
      const second = text.indexOf('const second');
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      const rects: number[] = [];
      let offset = 0;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const len = (n.textContent ?? '').length;
        for (const at of [0, second]) {
          if (at >= offset && at < offset + len && (n.textContent ?? '')[at - offset] !== '\n') {
            range.setStart(n, at - offset);
            range.setEnd(n, at - offset + 1);
            rects.push(range.getBoundingClientRect().left);
          }
        }
        offset += len;
      }
      return rects;
    });
    assert.equal(xs.length, 2, JSON.stringify(xs));
    assert.ok(Math.abs(xs[0]! - xs[1]!) < 0.5, `first line at ${xs[0]}, second at ${xs[1]}`);
    await s.p.shot('chat-render-details');
  });

  test("the edit history shows versions styled as messages: a spoiler stays closed until its header is clicked", async () => {
    const res = await s.ts.ownerClient.patch(`/messages/${spoilerId}`, { content: '```spoiler The ending\nIt was the gardener.\n```' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const page = s.p.page;
    await page.locator(`li.message[data-id="${spoilerId}"]`).getByRole('button', { name: '(edited)' }).click();
    const dialog = page.getByRole('dialog');
    const original = dialog.locator('li.version').first();
    await original.getByText('Original message').waitFor();
    const secret = original.getByText('It was the butler.');
    assert.equal(await secret.isVisible(), false, 'the old spoiler is closed');
    await original.getByRole('button', { name: /The ending/ }).click();
    await secret.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  test('"Jump to newest" leaves the last message it floats over visible', async () => {
    for (let i = 1; i <= 60; i++) await sendStream(s.ts.ownerClient, 'general', 'details', `filler ${i}`);
    const scroller = s.p.page.locator('section.feed .scroller');
    await s.p.page.getByText('filler 60', { exact: true }).waitFor();
    // A screen or more above the newest: the button shows; then down to the bottom of what is loaded.
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    const jump = s.p.page.getByRole('button', { name: /Jump to newest/ });
    await jump.waitFor();
    // The feed keeps room below its last message for the floating button, so the end can be scrolled clear of it.
    const room = await scroller.evaluate((el) => parseFloat(getComputedStyle(el).paddingBottom));
    const button = (await jump.boundingBox())!;
    assert.ok(room >= button.height, `${room} px of room under the messages for a ${button.height} px button`);
  });
});
