/**
 * Issue 29 (10): Recent conversations as Zulip's: conversation, participants (avatars), time of the
 * last message and unread count; filters "Unread", "Participated", "Include muted" and a text
 * filter; kept current live. Screenshots: test-results/admin-ui/chat-recent-table*.png.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import type { Client } from '../helpers/server.js';

test.describe('Recent conversations in Chromium', () => {
  let melApi: Client;
  let samApi: Client;
  const s = chatSuite(async (ts) => {
    const mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    const sam = await ts.addUser('Sam');
    samApi = ts.client(sam);
    const general = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id, sam.id] });
    await sendStream(ts.ownerClient, 'general', 'plans', 'the plan');
    await sendStream(melApi, 'general', 'plans', 'sounds good');
    await sendStream(ts.ownerClient, 'general', 'noise', 'chatter');
    await sendDirect(ts.ownerClient, [mel.id], 'a word in private');
    await melApi.post('/mark_all_as_read');
    await sendStream(samApi, 'general', 'lunch', 'pizza at noon?');
    assert.equal((await melApi.post('/user_topics', { stream_id: general, topic: 'noise', visibility_policy: 1 })).status, 200);
    return mel;
  });

  const table = () => s.p.page.getByRole('region', { name: 'Recent conversations' }).getByRole('table');
  const conversations = async () =>
    (await table().locator('tbody tr').evaluateAll((rows) =>
      rows.map((r) => [...(r.querySelector('td')?.children ?? [])].map((c) => (c.textContent ?? '').trim()).join(' ')),
    )) as string[];

  test.beforeAll(async () => {
    await s.p.page.goto(`${s.ts.url}/#recent`);
    await table().waitFor();
  });

  test('lists conversations newest first, with participants, time and unread count; muted ones hidden', async () => {
    assert.deepEqual(await conversations(), ['#general lunch', 'Olive Owner Direct message', '#general plans']);
    const head = await table().locator('thead th').allTextContents();
    assert.deepEqual(head.slice(0, 3), ['Conversation', 'Participants', 'Time']);
    const lunch = table().locator('tbody tr', { hasText: 'lunch' });
    await lunch.getByLabel('1 unread messages').waitFor();
    await lunch.getByLabel('Participants: Sam').waitFor();
    assert.match((await lunch.locator('td.when').textContent()) ?? '', /just now|min ago/);
    const plans = table().locator('tbody tr', { hasText: 'plans' });
    await plans.getByLabel('Participants: Mel, Olive Owner').waitFor();
    assert.equal(await plans.locator('img.avatar').count(), 2);
    await s.p.shot('chat-recent-table');
  });

  test('filters: Unread, Participated, Include muted and text', async () => {
    const region = s.p.page.getByRole('region', { name: 'Recent conversations' });
    await region.getByRole('button', { name: 'Unread' }).click();
    assert.deepEqual(await conversations(), ['#general lunch']);
    await region.getByRole('button', { name: 'Unread' }).click();
    await region.getByRole('button', { name: 'Participated' }).click();
    assert.deepEqual(await conversations(), ['#general plans']);
    await region.getByRole('button', { name: 'Participated' }).click();
    await region.getByRole('button', { name: 'Include muted' }).click();
    assert.deepEqual(await conversations(), ['#general lunch', 'Olive Owner Direct message', '#general noise Muted', '#general plans']);
    await region.getByRole('button', { name: 'Include muted' }).click();
    await region.getByLabel('Filter conversations').fill('lun');
    assert.deepEqual(await conversations(), ['#general lunch']);
    await region.getByLabel('Filter conversations').fill('');
  });

  test('a new conversation comes in at the top, live', async () => {
    await sendStream(samApi, 'general', 'release', 'shipping friday');
    await table().locator('tbody tr').first().filter({ hasText: 'release' }).waitFor();
    await table().locator('tbody tr', { hasText: 'release' }).getByLabel('Participants: Sam').waitFor();
  });

  test('on a 390 px phone and in the dark theme it reads without sideways scrolling', async () => {
    const desk = s.p.page.viewportSize()!;
    await s.p.page.setViewportSize({ width: 390, height: 844 });
    await s.p.page.waitForTimeout(400);
    assert.ok(await s.p.page.evaluate(() => document.documentElement.scrollWidth <= 390));
    await s.p.shot('chat-recent-table-phone');
    assert.equal((await melApi.patch('/settings', { color_scheme: 2 })).status, 200);
    await s.p.page.reload();
    await table().waitFor();
    await s.p.shot('chat-recent-table-phone-dark');
    await s.p.page.setViewportSize(desk);
    await s.p.page.waitForTimeout(300);
    await s.p.shot('chat-recent-table-dark');
    assert.equal((await melApi.patch('/settings', { color_scheme: 1 })).status, 200);
  });
});
