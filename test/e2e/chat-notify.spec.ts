/**
 * Notifications and the tab's icon (issue 29, item 12): clicking a desktop notification opens its
 * conversation at the message (and closes it; one whose message is read elsewhere closes too), and
 * the favicon carries the unread count, with a dot for unread mentions and direct messages.
 * Chromium headless shows no notifications: the page's `Notification` is a stand-in that records
 * what the chat asks for, and the test clicks it by calling its onclick, as the browser would.
 * The favicon is read back from its data: URL, pixel by pixel. Images: test-results/admin-ui/favicon-*.png,
 * chat-notify-*.png.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialSuite, test } from '../helpers/fixtures.js';
import { ARTIFACTS, type TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import type { Account, Client, TestServer } from '../helpers/server.js';

interface Note {
  title: string;
  body: string;
  closed: boolean;
}

type Rgba = [number, number, number, number];
const isDotRed = ([r, g, b]: Rgba) => r > 190 && g < 70 && b < 70;
/** The count's badge (#1f1d1a). */
const isBadge = ([r, g, b]: Rgba) => r < 48 && g < 48 && b < 48;

test.describe('notifications and the favicon in Chromium', () => {
  const s = serialSuite();
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let melApi: Client;

  const icon = () => p.page.evaluate(() => document.querySelector('link[rel~="icon"]')!.getAttribute('href')!);
  /** Pixels of the favicon as the tab would draw it (64 px): the dot's middle and the badge's corner. */
  const pixels = (href: string) =>
    p.page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = c.height = 64;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0, 64, 64);
      const at = (x: number, y: number) => [...g.getImageData(x, y, 1, 1).data] as Rgba;
      return { dot: at(51, 13), badge: at(60, 60) };
    }, href);
  const save = (href: string, name: string) => writeFileSync(join(ARTIFACTS, `${name}.png`), Buffer.from(href.split(',')[1]!, 'base64'));
  const notes = () => p.page.evaluate(() => (window as unknown as { __notes: Note[] }).__notes.map((n) => ({ title: n.title, body: n.body, closed: n.closed })));
  const clickNote = (i: number) => p.page.evaluate((k) => (window as unknown as { __notes: { onclick: () => void }[] }).__notes[k]!.onclick(), i);
  const title = () => p.page.locator('#feed-title');

  test.beforeAll(async () => {
    ts = s.ts;
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    await sendStream(ts.ownerClient, 'general', 'old', 'read long ago');
    await melApi.post('/mark_all_as_read');
    p = await s.open(null);
    await p.page.setViewportSize({ width: 1280, height: 800 });
    // The stand-in: records notifications; the page is "away" (not focused) when the test says so.
    await p.page.addInitScript(() => {
      const w = window as unknown as { __notes: unknown[]; __away: boolean; Notification: unknown };
      w.__notes = [];
      w.__away = false;
      class FakeNotification extends EventTarget {
        static permission = 'granted';
        static requestPermission = () => Promise.resolve('granted');
        title: string;
        body: string;
        tag: string;
        closed = false;
        onclick: (() => void) | null = null;
        constructor(title: string, options: { body?: string; tag?: string } = {}) {
          super();
          this.title = title;
          this.body = options.body ?? '';
          this.tag = options.tag ?? '';
          w.__notes.push(this);
        }
        close() {
          this.closed = true;
          this.dispatchEvent(new Event('close'));
        }
      }
      w.Notification = FakeNotification;
      Document.prototype.hasFocus = () => !w.__away;
    });
    await signIn(p.page, ts.url, mel);
  });

  test('the favicon carries the unread count, a dot for direct messages and mentions, and is plain when all is read', async () => {
    await p.page.goto(`${ts.url}/#inbox`);
    await eventually(async () => (await icon()) === '/static/hearth-icon.png');
    const plain = await pixels('/static/hearth-icon.png');
    assert.ok(!isDotRed(plain.dot) && !isBadge(plain.badge), 'the plain icon has neither');

    await sendStream(ts.ownerClient, 'general', 'plans', 'one for the channel');
    await eventually(async () => (await icon()).startsWith('data:image/png'));
    await eventually(async () => (await p.page.title()).startsWith('(1) '));
    const one = await icon();
    const onePx = await pixels(one);
    assert.ok(isBadge(onePx.badge), `a count badge: ${onePx.badge}`);
    assert.ok(!isDotRed(onePx.dot), 'no dot for a channel message');
    save(one, 'favicon-1');

    await sendStream(ts.ownerClient, 'general', 'plans', 'two for the channel');
    await eventually(async () => (await icon()) !== one);
    await eventually(async () => (await p.page.title()).startsWith('(2) '));
    assert.ok(!isDotRed((await pixels(await icon())).dot));

    await sendDirect(ts.ownerClient, [mel.id], 'a direct word');
    await eventually(async () => (await p.page.title()).startsWith('(3) '));
    await eventually(async () => isDotRed((await pixels(await icon())).dot));
    save(await icon(), 'favicon-3-dm');

    // All read (on the server, from elsewhere): the plain icon again.
    await melApi.post('/mark_all_as_read');
    await eventually(async () => (await icon()) === '/static/hearth-icon.png');

    // A mention alone: the dot.
    await sendStream(ts.ownerClient, 'general', 'plans', '@**Mel** have a look');
    await eventually(async () => (await p.page.title()).startsWith('(1) '));
    await eventually(async () => isDotRed((await pixels(await icon())).dot));
    save(await icon(), 'favicon-1-mention');
    for (let i = 0; i < 120; i++) await sendStream(ts.ownerClient, 'general', 'many', `many ${i}`);
    await eventually(async () => (await p.page.title()).startsWith('(121) '));
    await eventually(async () => (await icon()).startsWith('data:') && isBadge((await pixels(await icon())).badge));
    save(await icon(), 'favicon-99plus');
    await melApi.post('/mark_all_as_read');
    await eventually(async () => (await icon()) === '/static/hearth-icon.png');
  });

  test('clicking a notification opens its conversation at the message, and closes it', async () => {
    await p.page.goto(`${ts.url}/#inbox`);
    await p.page.getByRole('heading', { name: 'Inbox' }).or(p.page.locator('main')).first().waitFor();
    await p.page.evaluate(() => ((window as unknown as { __notes: unknown[] }).__notes.length = 0));
    await p.page.evaluate(() => ((window as unknown as { __away: boolean }).__away = true));

    await sendDirect(ts.ownerClient, [mel.id], 'are you coming to lunch?');
    await eventually(async () => (await notes()).length === 1);
    assert.deepEqual((await notes())[0], { title: 'Olive Owner (Direct message)', body: 'are you coming to lunch?', closed: false });
    await clickNote(0);
    await title().filter({ hasText: 'Olive Owner' }).waitFor();
    await p.page.locator('li.message.target').getByText('are you coming to lunch?').waitFor();
    assert.equal((await notes())[0]!.closed, true);
    await p.shot('chat-notify-dm');

    await p.page.goto(`${ts.url}/#inbox`);
    await sendStream(ts.ownerClient, 'general', 'lunch plans', '@**Mel** the table is booked');
    await eventually(async () => (await notes()).length === 2);
    assert.equal((await notes())[1]!.title, 'Olive Owner (#general > lunch plans)');
    await clickNote(1);
    await title().filter({ hasText: '#general > lunch plans' }).waitFor();
    await p.page.locator('li.message.target').getByText('the table is booked').waitFor();
    assert.equal((await notes())[1]!.closed, true);
  });

  test('a notification closes when its message is read elsewhere', async () => {
    await p.page.goto(`${ts.url}/#inbox`);
    const id = await sendDirect(ts.ownerClient, [mel.id], 'read me on your phone');
    await eventually(async () => (await notes()).some((n) => n.body === 'read me on your phone'));
    const note = async () => (await notes()).find((n) => n.body === 'read me on your phone')!;
    assert.equal((await note()).closed, false);
    await melApi.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
    await eventually(async () => (await note()).closed);
  });

  test('on a 390 px phone, light and dark: the conversation a notification opens', async () => {
    await p.page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await p.page.emulateMedia({ colorScheme: scheme });
        await p.page.goto(`${ts.url}/#inbox`);
        const before = (await notes()).length;
        await sendDirect(ts.ownerClient, [mel.id], `a note for the ${scheme} phone`);
        await eventually(async () => (await notes()).length === before + 1);
        await clickNote(before);
        await p.page.locator('li.message.target').getByText(`a note for the ${scheme} phone`).waitFor();
        await p.page.waitForTimeout(300);
        assert.ok(await p.page.evaluate(() => document.documentElement.scrollWidth <= 390));
        await p.page.screenshot({ path: join(ARTIFACTS, `chat-notify-phone-${scheme}.png`) });
      }
    } finally {
      await p.page.emulateMedia({ colorScheme: null });
      await p.page.setViewportSize({ width: 1280, height: 800 });
    }
    assert.deepEqual(p.errors.filter((e) => !isSessionProbe(e)), []);
  });
});
