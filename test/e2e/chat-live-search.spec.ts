/**
 * Issue 29 (13): search results are live like every view that shows a message: reactions, edits,
 * stars and deletions show as they happen (a reaction to a result appeared only after a reload).
 * Screenshot: test-results/admin-ui/chat-live-search.png.
 */
import assert from 'node:assert/strict';
import { test } from '@playwright/test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, openPage, type TestPage } from '../helpers/browser.js';
import { signIn } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';

const skip = process.env.CI ? false : (browserMissing() ?? false);

async function search(page: Page, query: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('/');
  const box = page.getByRole('search').getByRole('combobox', { name: 'Search' });
  await box.fill(query);
  await box.press('Enter');
}

test.describe('search results stay live', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  test.skip(skip !== false, String(skip));
  let browser: Browser;
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let melApi: Client;
  let pizza: number;
  let other: number;

  test.beforeAll(async () => {
    browser = await launchBrowser();
    ts = await startTestServer();
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    pizza = await sendStream(ts.ownerClient, 'general', 'lunch', 'Pizza at noon?');
    other = await sendStream(ts.ownerClient, 'general', 'lunch', 'More pizza tomorrow');
    p = await openPage(browser, ts.url);
    await signIn(p.page, ts.url, ts.owner);
    await search(p.page, 'pizza');
    await p.page.getByRole('region', { name: 'Search results' }).locator(`li.message[data-id="${pizza}"]`).waitFor();
  });

  test.afterAll(async () => {
    await p?.close();
    await browser?.close();
    await ts?.stop();
  });

  const result = (id: number) => p.page.getByRole('region', { name: 'Search results' }).locator(`li.message[data-id="${id}"]`);

  test("a colleague's reaction shows at once, and clicking it adds mine", async () => {
    assert.equal((await melApi.post(`/messages/${pizza}/reactions`, { emoji_name: 'thumbs_up' })).status, 200);
    const reaction = result(pizza).getByRole('group', { name: 'Reactions' }).getByRole('button', { name: /thumbs up, 1: Mel/i });
    await reaction.waitFor({ timeout: 5_000 });
    await reaction.click();
    await result(pizza).getByRole('button', { name: /thumbs up, 2: You and Mel/i }).waitFor();
    assert.equal(ts.store.messages.get(pizza)!.reactions?.length ?? 0, 2);
    await p.shot('chat-live-search');
  });

  test('an edit, a star and a deletion show at once', async () => {
    assert.equal((await ts.ownerClient.patch(`/messages/${pizza}`, { content: 'Pizza at one, not noon' })).status, 200);
    await result(pizza).getByText(/at one, not noon/).waitFor({ timeout: 5_000 });
    assert.equal((await ts.ownerClient.post('/messages/flags', { messages: JSON.stringify([pizza]), op: 'add', flag: 'starred' })).status, 200);
    await result(pizza).getByText('★ starred').waitFor({ timeout: 5_000 });
    assert.equal((await ts.ownerClient.delete(`/messages/${other}`)).status, 200);
    await result(other).waitFor({ state: 'detached', timeout: 5_000 });
  });
});
