/**
 * Issue 29 (13): search results are live like every view that shows a message: reactions, edits,
 * stars and deletions show as they happen (a reaction to a result appeared only after a reload).
 * Screenshot: test-results/admin-ui/chat-live-search.png.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import type { Page } from 'playwright-core';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Client } from '../helpers/server.js';

async function search(page: Page, query: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('/');
  const box = page.getByRole('search').getByRole('combobox', { name: 'Search' });
  await box.fill(query);
  await box.press('Enter');
}

test.describe('search results stay live', () => {
  let melApi: Client;
  let pizza: number;
  let other: number;
  const s = chatSuite(async (ts) => {
    const mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    pizza = await sendStream(ts.ownerClient, 'general', 'lunch', 'Pizza at noon?');
    other = await sendStream(ts.ownerClient, 'general', 'lunch', 'More pizza tomorrow');
  });

  test.beforeAll(async () => {
    await search(s.p.page, 'pizza');
    await result(pizza).waitFor();
  });

  const result = (id: number) => s.p.page.getByRole('region', { name: 'Search results' }).locator(`li.message[data-id="${id}"]`);

  test("a colleague's reaction shows at once, and clicking it adds mine", async () => {
    assert.equal((await melApi.post(`/messages/${pizza}/reactions`, { emoji_name: 'thumbs_up' })).status, 200);
    const reaction = result(pizza).getByRole('group', { name: 'Reactions' }).getByRole('button', { name: /thumbs up, 1: Mel/i });
    await reaction.waitFor({ timeout: 5_000 });
    await reaction.click();
    await result(pizza).getByRole('button', { name: /thumbs up, 2: You and Mel/i }).waitFor();
    assert.equal(s.ts.store.messages.get(pizza)!.reactions?.length ?? 0, 2);
    await s.p.shot('chat-live-search');
  });

  test('an edit, a star and a deletion show at once', async () => {
    assert.equal((await s.ts.ownerClient.patch(`/messages/${pizza}`, { content: 'Pizza at one, not noon' })).status, 200);
    await result(pizza).getByText(/at one, not noon/).waitFor({ timeout: 5_000 });
    assert.equal((await s.ts.ownerClient.post('/messages/flags', { messages: JSON.stringify([pizza]), op: 'add', flag: 'starred' })).status, 200);
    await result(pizza).getByText('★ starred').waitFor({ timeout: 5_000 });
    assert.equal((await s.ts.ownerClient.delete(`/messages/${other}`)).status, 200);
    await result(other).waitFor({ state: 'detached', timeout: 5_000 });
  });
});
