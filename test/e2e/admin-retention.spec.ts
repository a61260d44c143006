/**
 * Issue 34 (4): the organization card's message retention in Debian's Chromium, as an owner uses
 * it: choosing a period shorter than "forever" shows what it would delete (the dry run, before
 * saving); saving asks for a confirmation naming those counts; dismissing it saves nothing,
 * accepting it saves the period, and the next pass deletes exactly what was counted. Screenshot:
 * test-results/admin-ui/admin-retention-*.png.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { runRetentionPass } from '../../server/actions/retention.js';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signInToAdmin } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import type { TestServer } from '../helpers/server.js';

const DAY_SECONDS = 86_400;

/**
 * Answers the page's next confirm() (pages accept dialogs by themselves: helpers/browser.ts), and
 * returns a function that reads its text once asked.
 */
async function nextConfirm(page: Page, accept: boolean): Promise<() => Promise<string>> {
  await page.evaluate((yes) => {
    const w = window as unknown as { confirm: (m: string) => boolean; asked?: string };
    w.asked = undefined;
    w.confirm = (m) => {
      w.asked = m;
      return yes;
    };
  }, accept);
  return async () => {
    await page.waitForFunction(() => (window as unknown as { asked?: string }).asked !== undefined);
    return page.evaluate(() => (window as unknown as { asked: string }).asked);
  };
}

test.describe('message retention in the organization settings', () => {
  const s = serialSuite();
  let ts: TestServer;
  let t: TestPage;
  const old: number[] = [];

  test.beforeAll(async () => {
    ts = s.ts;
    const mel = await ts.addUser('Mel');
    await createChannel(ts, ts.ownerClient, 'kitchen', { principals: [ts.owner.id, mel.id] });
    // Three messages sent 40 days ago (their time moved back in the store), one today.
    old.push(await sendStream(ts.ownerClient, 'kitchen', 'lunch', 'soup on Monday'));
    old.push(await sendStream(ts.ownerClient, 'kitchen', 'lunch', 'soup on Tuesday'));
    old.push(await sendDirect(ts.ownerClient, [mel.id], 'your keys are at the desk'));
    for (const id of old) ts.store.messages.get(id)!.timestamp -= 40 * DAY_SECONDS;
    await sendStream(ts.ownerClient, 'kitchen', 'lunch', 'soup today');
    t = await s.open(null);
    await signInToAdmin(t.page, ts.url, ts.owner);
  });
  test.afterEach(() => {
    assert.deepEqual(t.errors.filter((e) => !isSessionProbe(e)), [], 'no console errors');
  });

  test('a shorter period shows what it deletes, and is saved only once confirmed', async () => {
    const { page } = t;
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Settings' }).click();
    const forever = page.getByLabel('Keep messages forever');
    await forever.waitFor();
    assert.equal(await forever.isChecked(), true, 'kept forever by default');
    await page.getByLabel('Delete messages older than').check();
    const days = page.getByLabel('Days to keep messages');
    await days.fill('30');
    const preview = page.locator('.retention-preview');
    await preview.filter({ hasText: 'Saving this deletes 3 messages (1 direct message among them) and 0 files older than 30 days' }).waitFor();
    await t.shot('admin-retention-preview');
    // Longer than what is there: nothing to delete.
    await days.fill('60');
    await preview.filter({ hasText: 'Saving this deletes 0 messages and 0 files older than 60 days' }).waitFor();
    await days.fill('30');
    await preview.filter({ hasText: '3 messages' }).waitFor();

    // Dismissed: nothing saved.
    let asked = await nextConfirm(page, false);
    await page.getByRole('button', { name: 'Save changes' }).click();
    assert.match(await asked(), /^Delete messages older than 30 days\? Within a day, this deletes 3 messages \(1 direct message among them\) and 0 files, for good\.$/);
    await page.getByRole('status').filter({ hasText: 'Nothing saved: the retention period was not changed.' }).waitFor();
    assert.equal(ts.app.store.realm.data.realm!.settings.message_retention_days, undefined);

    // Accepted: saved, and the pass deletes what was counted.
    asked = await nextConfirm(page, true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    assert.match(await asked(), /^Delete messages older than 30 days\?/);
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    assert.equal(ts.app.store.realm.data.realm!.settings.message_retention_days, 30);
    await preview.waitFor({ state: 'detached' });
    const report = await runRetentionPass(ts.app);
    assert.equal(report.messages, 3);
    assert.ok(old.every((id) => !ts.store.messages.get(id)));

    // Back to forever: longer, so no confirmation and no preview.
    await forever.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await eventually(() => ts.app.store.realm.data.realm!.settings.message_retention_days === -1, 'kept forever again');
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
  });
});
