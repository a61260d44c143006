/**
 * Issue 29 (5): Zulip's personal setting "Automatically mark messages as read"
 * (`web_mark_read_on_scroll_policy`: always, only in conversation views, never), chosen in
 * Settings and honoured in every view, End and "Jump to newest" included; where it keeps seen
 * messages unread, the view offers "Mark as read". Screenshot: test-results/admin-ui/chat-mark-read.png.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, Client } from '../helpers/server.js';

test.describe('marking messages as read, as the person chose', () => {
  let mel: Account;
  let melApi: Client;
  let generalId: number;
  const s = chatSuite(async (ts) => {
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    for (let i = 1; i <= 6; i++) await sendStream(ts.ownerClient, 'general', 'plans', `plan ${i}`);
    return mel;
  });

  /** Mel's unread message IDs, as the server has them. */
  const unreadOnServer = async (): Promise<number[]> => {
    const reg = (await melApi.post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) })).body;
    const u = reg.unread_msgs;
    return [...u.streams.flatMap((x: { unread_message_ids: number[] }) => x.unread_message_ids), ...u.pms.flatMap((d: { unread_message_ids: number[] }) => d.unread_message_ids)];
  };

  test('Settings offers the three choices and stores the one picked', async () => {
    await s.p.page.goto(`${s.ts.url}/#settings`);
    const group = s.p.page.getByRole('group', { name: 'Automatically mark messages as read' });
    await group.waitFor();
    assert.equal(await group.getByRole('radio', { name: 'Always' }).isChecked(), true, "Zulip's default");
    await group.getByRole('radio', { name: /^Only in conversation views/ }).check();
    await eventually(async () => s.ts.store.users.get(mel.id)!.user_settings?.web_mark_read_on_scroll_policy === 2);
  });

  test('only in conversation views: the Combined feed leaves messages unread and offers Mark as read; the topic marks them', async () => {
    await s.p.page.goto(`${s.ts.url}/#feed`);
    const feed = s.p.page.getByRole('region', { name: 'Combined feed' });
    await feed.getByText('plan 6', { exact: true }).waitFor();
    await s.p.page.keyboard.press('End');
    await s.p.page.waitForTimeout(1200); // more than the read batching's delay
    assert.equal((await unreadOnServer()).length, 6, 'seen in the Combined feed, still unread');
    await feed.getByRole('button', { name: 'Mark as read' }).waitFor();
    await s.p.shot('chat-mark-read');

    await s.p.page.goto(`${s.ts.url}/#narrow/channel/${generalId}-general/topic/plans`);
    await s.p.page.getByRole('region', { name: /plans/ }).getByText('plan 6', { exact: true }).waitFor();
    await eventually(async () => (await unreadOnServer()).length === 0);
  });

  test('never: not even a conversation view marks them; the view\'s Mark as read does', async () => {
    assert.equal((await melApi.patch('/settings', { web_mark_read_on_scroll_policy: 3 })).status, 200);
    for (let i = 1; i <= 3; i++) await sendStream(s.ts.ownerClient, 'general', 'later', `later ${i}`);
    await s.p.page.goto(`${s.ts.url}/#narrow/channel/${generalId}-general/topic/later`);
    const view = s.p.page.getByRole('region', { name: /later/ });
    await view.getByText('later 3', { exact: true }).waitFor();
    await s.p.page.waitForTimeout(1200);
    assert.equal((await unreadOnServer()).length, 3, 'seen, still unread');
    await view.getByRole('button', { name: 'Mark all as read' }).click();
    await eventually(async () => (await unreadOnServer()).length === 0);
    // In the Combined feed too, the button marks what the view shows.
    await sendStream(s.ts.ownerClient, 'general', 'later', 'later 4');
    await s.p.page.goto(`${s.ts.url}/#feed`);
    const feed = s.p.page.getByRole('region', { name: 'Combined feed' });
    await feed.getByText('later 4', { exact: true }).waitFor();
    // By keyboard: focused, then Enter (a person without a mouse).
    await feed.getByRole('button', { name: 'Mark as read' }).focus();
    await s.p.page.keyboard.press('Enter');
    await eventually(async () => (await unreadOnServer()).length === 0);
    await feed.getByRole('button', { name: 'Mark as read' }).waitFor({ state: 'detached' });
  });

  test('always (back to the default): seeing them in the Combined feed marks them', async () => {
    assert.equal((await melApi.patch('/settings', { web_mark_read_on_scroll_policy: 1 })).status, 200);
    await sendStream(s.ts.ownerClient, 'general', 'later', 'later 5');
    await s.p.page.goto(`${s.ts.url}/#feed`);
    await s.p.page.getByRole('region', { name: 'Combined feed' }).getByText('later 5', { exact: true }).waitFor();
    await eventually(async () => (await unreadOnServer()).length === 0);
  });
});
