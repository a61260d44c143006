/**
 * Issue 29, smaller things: a Reactions view, as Zulip's (`has:reaction sender:me`): messages of mine
 * that others reacted to, kept current as reactions come and go. Screenshot: chat-reactions-view.png.
 */
import assert from 'node:assert/strict';
import { test } from '@playwright/test';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, openPage, type TestPage } from '../helpers/browser.js';
import { signIn } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';

const skip = process.env.CI ? false : (browserMissing() ?? false);

test.describe('the Reactions view', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  test.skip(skip !== false, String(skip));
  let browser: Browser;
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let melApi: Client;
  let liked: number;
  let later: number;

  const view = () => p.page.getByRole('region', { name: 'Reactions' });

  test.beforeAll(async () => {
    browser = await launchBrowser();
    ts = await startTestServer();
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    liked = await sendStream(ts.ownerClient, 'general', 'news', 'We shipped it');
    await sendStream(ts.ownerClient, 'general', 'news', 'Nobody reacts to this one');
    later = await sendStream(ts.ownerClient, 'general', 'news', 'Cake on Friday');
    await sendStream(melApi, 'general', 'news', 'Mel says hi');
    assert.equal((await melApi.post(`/messages/${liked}/reactions`, { emoji_name: 'tada' })).status, 200);
    p = await openPage(browser, ts.url);
    await signIn(p.page, ts.url, ts.owner);
  });

  test.afterAll(async () => {
    await p?.close();
    await browser?.close();
    await ts?.stop();
  });

  test('lists my messages others reacted to, from the sidebar', async () => {
    await p.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: 'Reactions' }).click();
    await view().getByText('We shipped it', { exact: true }).waitFor();
    assert.equal(await view().getByText('Nobody reacts to this one', { exact: true }).count(), 0);
    assert.equal(await view().getByText('Mel says hi', { exact: true }).count(), 0, "others' messages are not mine");
    assert.match(p.page.url(), /#narrow\/has\/reaction\/sender\/me$/);
    await p.shot('chat-reactions-view');
  });

  test('a new reaction to another message of mine brings it in; taking the last one back takes it out', async () => {
    assert.equal((await melApi.post(`/messages/${later}/reactions`, { emoji_name: 'cake' })).status, 200);
    await view().getByText('Cake on Friday', { exact: true }).waitFor({ timeout: 5_000 });
    assert.equal((await melApi.delete(`/messages/${liked}/reactions`, { emoji_name: 'tada' })).status, 200);
    await view().getByText('We shipped it', { exact: true }).waitFor({ state: 'detached', timeout: 5_000 });
  });
});
