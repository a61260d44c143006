/**
 * Issue 29 (5): Zulip's personal setting "Automatically mark messages as read"
 * (`web_mark_read_on_scroll_policy`: always, only in conversation views, never), chosen in
 * Settings and honoured in every view, End and "Jump to newest" included; where it keeps seen
 * messages unread, the view offers "Mark as read". Screenshot: test-results/admin-ui/chat-mark-read.png.
 */
import assert from 'node:assert/strict';
import { test } from '@playwright/test';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, openPage, type TestPage } from '../helpers/browser.js';
import { eventually, signIn } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';

const skip = process.env.CI ? false : (browserMissing() ?? false);

test.describe('marking messages as read, as the person chose', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  test.skip(skip !== false, String(skip));
  let browser: Browser;
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let melApi: Client;
  let generalId: number;

  /** Mel's unread message IDs, as the server has them. */
  const unreadOnServer = async (): Promise<number[]> => {
    const reg = (await melApi.post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) })).body;
    const u = reg.unread_msgs;
    return [...u.streams.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids), ...u.pms.flatMap((d: { unread_message_ids: number[] }) => d.unread_message_ids)];
  };

  test.beforeAll(async () => {
    browser = await launchBrowser();
    ts = await startTestServer();
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    for (let i = 1; i <= 6; i++) await sendStream(ts.ownerClient, 'general', 'plans', `plan ${i}`);
    p = await openPage(browser, ts.url);
    await signIn(p.page, ts.url, mel);
  });

  test.afterAll(async () => {
    await p?.close();
    await browser?.close();
    await ts?.stop();
  });

  test('Settings offers the three choices and stores the one picked', async () => {
    await p.page.goto(`${ts.url}/#settings`);
    const group = p.page.getByRole('group', { name: 'Automatically mark messages as read' });
    await group.waitFor();
    assert.equal(await group.getByRole('radio', { name: 'Always' }).isChecked(), true, "Zulip's default");
    await group.getByRole('radio', { name: /^Only in conversation views/ }).check();
    await eventually(async () => ts.store.users.get(mel.id)!.user_settings?.web_mark_read_on_scroll_policy === 2);
  });

  test('only in conversation views: the Combined feed leaves messages unread and offers Mark as read; the topic marks them', async () => {
    await p.page.goto(`${ts.url}/#feed`);
    const feed = p.page.getByRole('region', { name: 'Combined feed' });
    await feed.getByText('plan 6', { exact: true }).waitFor();
    await p.page.keyboard.press('End');
    await p.page.waitForTimeout(1200); // more than the read batching's delay
    assert.equal((await unreadOnServer()).length, 6, 'seen in the Combined feed, still unread');
    await feed.getByRole('button', { name: 'Mark as read' }).waitFor();
    await p.shot('chat-mark-read');

    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/plans`);
    await p.page.getByRole('region', { name: /plans/ }).getByText('plan 6', { exact: true }).waitFor();
    await eventually(async () => (await unreadOnServer()).length === 0);
  });

  test('never: not even a conversation view marks them; the view\'s Mark as read does', async () => {
    assert.equal((await melApi.patch('/settings', { web_mark_read_on_scroll_policy: 3 })).status, 200);
    for (let i = 1; i <= 3; i++) await sendStream(ts.ownerClient, 'general', 'later', `later ${i}`);
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/later`);
    const view = p.page.getByRole('region', { name: /later/ });
    await view.getByText('later 3', { exact: true }).waitFor();
    await p.page.waitForTimeout(1200);
    assert.equal((await unreadOnServer()).length, 3, 'seen, still unread');
    await view.getByRole('button', { name: 'Mark all as read' }).click();
    await eventually(async () => (await unreadOnServer()).length === 0);
    // In the Combined feed too, the button marks what the view shows.
    await sendStream(ts.ownerClient, 'general', 'later', 'later 4');
    await p.page.goto(`${ts.url}/#feed`);
    const feed = p.page.getByRole('region', { name: 'Combined feed' });
    await feed.getByText('later 4', { exact: true }).waitFor();
    await feed.getByRole('button', { name: 'Mark as read' }).click();
    await eventually(async () => (await unreadOnServer()).length === 0);
    await feed.getByRole('button', { name: 'Mark as read' }).waitFor({ state: 'detached' });
  });

  test('always (back to the default): seeing them in the Combined feed marks them', async () => {
    assert.equal((await melApi.patch('/settings', { web_mark_read_on_scroll_policy: 1 })).status, 200);
    await sendStream(ts.ownerClient, 'general', 'later', 'later 5');
    await p.page.goto(`${ts.url}/#feed`);
    await p.page.getByRole('region', { name: 'Combined feed' }).getByText('later 5', { exact: true }).waitFor();
    await eventually(async () => (await unreadOnServer()).length === 0);
  });
});
