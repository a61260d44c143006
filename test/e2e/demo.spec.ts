/**
 * The demo organization in Chromium, as a visitor meets it: the sign-in page says it is a
 * demo and fills in the owner's account; the chat shows the Demo badge, unread conversations
 * in the Inbox, pictures and reactions in the conversations; the admin window says Demo too.
 * Screenshots at 1280 and 390 px: test-results/admin-ui/demo-*.png.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser } from 'playwright-core';
import { buildDemo } from '../../server/demo/build.js';
import { DEMO_PASSWORD, PEOPLE, emailOf } from '../../server/demo/roster.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { openPage, type TestPage } from '../helpers/browser.js';
import { isSessionProbe } from '../helpers/chat-page.js';

test.describe('the demo organization in Chromium', () => {
  const s = serialSuite({ server: false });
  let browser: Browser;
  let server: RunningServer;
  let dir: string;
  let t: TestPage;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = await mkdtemp(join(tmpdir(), 'hearth-demo-ui-'));
    await buildDemo(join(dir, 'demo'));
    server = await startServer({ dataDir: join(dir, 'demo'), host: '127.0.0.1', port: 0, log: silentLogger });
    browser = s.browser;
    t = await openPage(browser, server.url);
  });

  test.afterAll(async () => {
    await t?.close();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('the sign-in page says it is a demo and fills in the owner, who lands in a chat with unread conversations', async () => {
    const { page } = t;
    await page.goto(`${server.url}/`);
    const note = page.getByRole('region', { name: 'Demo organization' });
    await note.getByText('This is a demo organization').waitFor();
    await note.getByText(DEMO_PASSWORD).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await t.shot('demo-signin-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await note.getByRole('button', { name: /Fill in the owner's account/ }).click();
    assert.equal(await page.getByLabel('Email').inputValue(), emailOf(PEOPLE[0]!));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    await page.getByRole('banner').getByText('Demo', { exact: true }).waitFor();
    await page.getByRole('banner').getByText('Juniper & Co. (demo)').waitFor();
    // The Inbox has the last days' unread conversations.
    await page.goto(`${server.url}/#inbox`);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    const unread = page.getByRole('main').getByRole('button', { name: /^\d+ unread in .*: mark as read$/ });
    await unread.first().waitFor();
    assert.ok((await unread.count()) >= 3, `${await unread.count()} unread conversations`);
    await t.shot('demo-inbox-1280');
  });

  test('a conversation shows the uploaded mockup and reactions', async () => {
    const { page } = t;
    const design = server.store.channels.data.channels.find((c) => c.name === 'design')!;
    const mockup = [...server.store.messages.all()].find((m) => m.stream_id === design.id && m.content.includes('mockup.png'))!;
    await page.goto(`${server.url}/#narrow/channel/${design.id}-design/topic/${encodeURIComponent(mockup.topic)}/near/${mockup.id}`);
    const messages = page.getByRole('main').getByLabel('Messages', { exact: true });
    await messages.getByText('New version of the screen').first().waitFor();
    assert.ok((await messages.getByRole('group', { name: 'Reactions' }).count()) > 0, 'reactions show');
    const img = messages.locator('img[src*="/user_uploads/"]').first();
    await img.waitFor();
    assert.ok(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), 'the picture loads');
    await t.shot('demo-design-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(150);
    await t.shot('demo-design-390');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1), 'nothing scrolls sideways on a phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('emoji show as characters; a spoiler opens by click or keyboard (the Welcome Bot’s #sandbox message)', async () => {
    const { page } = t;
    const sandbox = server.store.channels.data.channels.find((c) => c.name === 'sandbox')!;
    await page.goto(`${server.url}/#narrow/channel/${sandbox.id}-sandbox/topic/experiments`);
    const messages = page.getByRole('main').getByLabel('Messages', { exact: true });
    const header = messages.getByRole('button', { name: 'Open me' });
    await header.waitFor();
    const surprise = messages.getByText('Surprise!');
    assert.equal(await surprise.isVisible(), false, 'closed at first');
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    await header.click();
    await surprise.waitFor();
    assert.equal(await messages.getByRole('img', { name: 'tada' }).first().textContent(), '🎉');
    await header.press('Enter');
    await surprise.waitFor({ state: 'hidden' });
    await header.focus();
    await page.keyboard.press(' ');
    await surprise.waitFor();
    assert.equal(await header.getAttribute('aria-expanded'), 'true');
  });

  test('the admin window says Demo too; no console errors', async () => {
    const { page } = t;
    await page.goto(`${server.url}/admin/#channels`);
    await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();
    await page.getByRole('banner').getByText('Demo', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Channels' }).getByText('#leadership').waitFor();
    await t.shot('demo-admin-1280');
    assert.deepEqual(t.errors.filter((e) => !isSessionProbe(e)), []);
  });
});
