/**
 * Issue 29, smaller things: Q filters the sidebar and Enter then opens the first match (it did
 * nothing), a channel first, else a direct conversation.
 */
import assert from 'node:assert/strict';
import { test } from '@playwright/test';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, openPage, type TestPage } from '../helpers/browser.js';
import { signIn } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type TestServer } from '../helpers/server.js';

const skip = process.env.CI ? false : (browserMissing() ?? false);

test.describe('keys in the sidebar', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  test.skip(skip !== false, String(skip));
  let browser: Browser;
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let designId: number;

  test.beforeAll(async () => {
    browser = await launchBrowser();
    ts = await startTestServer();
    mel = await ts.addUser('Mel Quill');
    await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    designId = await createChannel(ts, ts.ownerClient, 'design', { principals: [ts.owner.id, mel.id] });
    await sendStream(ts.ownerClient, 'design', 'colors', 'warm colors');
    await sendDirect(ts.client(mel), [ts.owner.id], 'hello from Mel');
    p = await openPage(browser, ts.url);
    await signIn(p.page, ts.url, ts.owner);
    await p.page.goto(`${ts.url}/#inbox`);
    await p.page.getByRole('navigation', { name: 'Conversations' }).getByText('design').waitFor();
  });

  test.afterAll(async () => {
    await p?.close();
    await browser?.close();
    await ts?.stop();
  });

  test('Q, a few letters, Enter: the first matching channel opens and the filter clears', async () => {
    await p.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await p.page.keyboard.press('q');
    const filter = p.page.getByRole('searchbox', { name: 'Filter channels and conversations' });
    await filter.waitFor();
    assert.equal(await filter.evaluate((el) => el === document.activeElement), true);
    await p.page.keyboard.type('des');
    await p.page.keyboard.press('Enter');
    await p.page.waitForURL(new RegExp(`#narrow/(channel|stream)/${designId}(-design)?$`));
    assert.equal(await filter.inputValue(), '');
  });

  test('with no channel matching, Enter opens the matching direct conversation', async () => {
    await p.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await p.page.keyboard.press('q');
    await p.page.keyboard.type('quill');
    await p.page.keyboard.press('Enter');
    await p.page.waitForURL(new RegExp(`#narrow/dm/${mel.id}(-.*)?$`));
    await p.page.getByText('hello from Mel', { exact: true }).waitFor();
  });
});
