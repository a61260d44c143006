/**
 * Long messages are condensed, as Zulip condenses them (issue 29, item 7: a 10,000-character message
 * was a 2,660 px wall): taller than about two thirds of the window, a message shows its first lines
 * with "Show more" (a button, aria-expanded), then "Show less"; the choice survives the message
 * re-rendering and the feed closing and opening again; condensing never moves the reader's place.
 * Screenshots: test-results/admin-ui/chat-condensed*.png (1280 px and 390 px, light and dark).
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Locator } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, Client, TestServer } from '../helpers/server.js';

/** About 10,000 characters in 40 paragraphs. */
const LONG = Array.from(
  { length: 40 },
  (_, i) => `Paragraph ${i + 1} of the quarterly report: the figures for this part of the year are set out here at some length, so that everyone can check them before the meeting on Thursday afternoon.`,
)
  .join('\n\n')
  .padEnd(9_800, '.');

test.describe('long messages condensed in Chromium', () => {
  const s = serialSuite();
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let melApi: Client;
  let generalId: number;
  let longId: number;

  const topicUrl = () => `${ts.url}/#narrow/channel/${generalId}-general/topic/report`;
  const longItem = () => p.page.getByRole('listitem').filter({ hasText: 'Paragraph 1 of the quarterly report' });
  const heightOf = async (l: Locator) => (await l.boundingBox())!.height;

  test.beforeAll(async () => {
    ts = s.ts;
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    await sendStream(ts.ownerClient, 'general', 'report', 'the report follows');
    longId = await sendStream(ts.ownerClient, 'general', 'report', LONG);
    await melApi.post('/mark_all_as_read');
    // Unread after the long message: the topic opens at the first of these.
    for (let i = 1; i <= 30; i++) await sendStream(ts.ownerClient, 'general', 'report', `reply ${i}`);
    p = await s.open(null);
    // As in Safari, which keeps no scroll anchor (CSS overflow-anchor): Chromium's own would hide a jump.
    await p.page.addInitScript(() => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync('* { overflow-anchor: none !important; }');
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    });
    await p.page.setViewportSize({ width: 1280, height: 800 });
    await signIn(p.page, ts.url, mel);
  });

  test('a message taller than about a screen opens condensed, short ones do not, and the first unread is in view', async () => {
    await p.page.goto(topicUrl());
    const more = longItem().getByRole('button', { name: 'Show more' });
    await more.waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    // One long message, one button: no short message offers "Show more".
    assert.equal(await p.page.getByRole('button', { name: 'Show more' }).count(), 1);
    const content = longItem().locator('.content');
    const condensed = await heightOf(content);
    assert.ok(condensed < 800 * 0.65 && condensed > 100, `condensed to ${condensed} px`);
    // The feed opened at the first unread message, placed after the long one was condensed (else it would be 2,000 px off).
    const scroller = await p.page.getByRole('region', { name: 'Messages' }).or(p.page.locator('.feed .scroller')).first().boundingBox();
    const first = await p.page.getByText('reply 1', { exact: true }).boundingBox();
    // (render-window.ts places it by offsetTop, which counts from the feed's header: a little above the scroller's top.)
    assert.ok(first && scroller && Math.abs(first.y - scroller.y) < 150, `the first unread is at the top: ${first?.y} by ${scroller?.y}`);
    await more.scrollIntoViewIfNeeded();
    await p.shot('chat-condensed');
  });

  test('"Show more" shows all of it, "Show less" condenses it again, by mouse and by keyboard', async () => {
    await p.page.goto(topicUrl());
    const content = longItem().locator('.content');
    await longItem().getByRole('button', { name: 'Show more' }).click();
    const less = longItem().getByRole('button', { name: 'Show less' });
    await less.waitFor();
    assert.equal(await less.getAttribute('aria-expanded'), 'true');
    assert.ok((await heightOf(content)) > 1500, 'the whole message shows');
    assert.ok(await longItem().getByText('Paragraph 40 of the quarterly report').isVisible());
    // "Show less" at the end of the long message, its start far above the screen: the message's start comes back into view.
    await p.page.locator('.feed .scroller').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await less.scrollIntoViewIfNeeded();
    const scroller = (await p.page.locator('.feed .scroller').boundingBox())!;
    assert.ok((await longItem().boundingBox())!.y < scroller.y - 1000, 'the start was far above');
    await less.click();
    const more = longItem().getByRole('button', { name: 'Show more' });
    await more.waitFor();
    assert.ok((await heightOf(content)) < 800 * 0.65);
    const item = (await longItem().boundingBox())!;
    assert.ok(item.y >= scroller.y - 1 && item.y < scroller.y + 100, `the message start is at the top of the screen: ${item.y} by ${scroller.y}`);
    // The keyboard: Enter and Space toggle, and the button keeps focus.
    await more.focus();
    await p.page.keyboard.press('Enter');
    const lessAgain = longItem().getByRole('button', { name: 'Show less' });
    await lessAgain.waitFor();
    assert.ok(await lessAgain.evaluate((b) => b === document.activeElement), 'focus stays on the button');
    await p.page.keyboard.press('Space');
    await more.waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    await p.page.keyboard.press('Space');
    await longItem().getByRole('button', { name: 'Show less' }).waitFor();
  });

  test('expanded stays expanded when the message re-renders (a reaction) and when the feed is opened again', async () => {
    await p.page.goto(topicUrl());
    if (await longItem().getByRole('button', { name: 'Show more' }).isVisible()) await longItem().getByRole('button', { name: 'Show more' }).click();
    await longItem().getByRole('button', { name: 'Show less' }).waitFor();
    // Someone reacts: the message re-renders with the reaction, still expanded.
    const r = await ts.ownerClient.post(`/messages/${longId}/reactions`, { emoji_name: 'thumbs_up' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await longItem().getByRole('button', { name: /thumbs up, 1/i }).waitFor();
    assert.equal(await longItem().getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded'), 'true');
    assert.ok((await heightOf(longItem().locator('.content'))) > 1500);
    // Away to the Inbox and back: the message is drawn again, and still expanded.
    await p.page.getByRole('link', { name: 'Test Org' }).or(p.page.locator('a.brand')).first().click();
    await longItem().waitFor({ state: 'detached' });
    await p.page.goBack();
    await longItem().getByRole('button', { name: 'Show less' }).waitFor();
    await longItem().getByRole('button', { name: 'Show less' }).scrollIntoViewIfNeeded();
    await p.shot('chat-condensed-expanded');
    await longItem().getByRole('button', { name: 'Show less' }).click();
    await longItem().getByRole('button', { name: 'Show more' }).waitFor();
  });

  test('search results condense long messages too', async () => {
    await p.page.goto(`${ts.url}/#narrow/search/quarterly`);
    const result = p.page.getByRole('listitem').filter({ hasText: 'Paragraph 1 of the' });
    await result.getByRole('button', { name: 'Show more' }).waitFor();
    assert.ok((await heightOf(result.locator('.content'))) < 800 * 0.65);
  });

  test('on a 390 px phone, light and dark', async () => {
    await p.page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await p.page.emulateMedia({ colorScheme: scheme });
        await p.page.goto(topicUrl());
        const more = longItem().getByRole('button', { name: 'Show more' });
        await more.waitFor();
        await more.scrollIntoViewIfNeeded();
        assert.ok((await heightOf(longItem().locator('.content'))) < 844 * 0.65);
        assert.deepEqual(await axeViolations(p.page, ['.feed .messages']), [], `axe-core, ${scheme}`);
        await eventually(async () => p.page.evaluate(() => document.documentElement.scrollWidth <= 390));
        await p.page.waitForTimeout(300);
        await p.page.screenshot({ path: `test-results/admin-ui/chat-condensed-phone-${scheme}.png` });
      }
      await p.page.setViewportSize({ width: 1280, height: 800 });
      await p.page.goto(topicUrl());
      await longItem().getByRole('button', { name: 'Show more' }).scrollIntoViewIfNeeded();
      await p.page.screenshot({ path: 'test-results/admin-ui/chat-condensed-dark.png' });
    } finally {
      await p.page.emulateMedia({ colorScheme: null });
      await p.page.setViewportSize({ width: 1280, height: 800 });
    }
    assert.deepEqual(p.errors.filter((e) => !isSessionProbe(e)), []);
  });
});
