/**
 * Issue 29 (6): a server that takes connections but answers nothing (frozen, as with SIGSTOP) is
 * noticed within about 15 s and said in the banner ("Hearth is not answering"), with the next
 * try's countdown and "Try now"; once it answers again the page is back within 2 s.
 * The freeze is played by holding every /json/ request in the browser (what a stopped process
 * does to them), and the thaw by letting them through. Screenshots: chat-not-answering.png, chat-not-sent.png.
 * A send with no answer in 10 s stays in the feed as not sent, with Retry and Cancel.
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Route } from 'playwright-core';
import type { TestPage } from '../helpers/browser.js';
import { signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, TestServer } from '../helpers/server.js';

test.describe('a server that does not answer', () => {
  const s = serialSuite({ config: { heartbeatMs: 60_000 } });
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let generalId: number;
  const held: Route[] = [];
  let frozen = false;

  test.beforeAll(async () => {
    ts = s.ts;
    mel = await ts.addUser('Mel');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    await sendStream(ts.ownerClient, 'general', 'plans', 'before the freeze');
    p = await s.open(null);
    await signIn(p.page, ts.url, mel);
    await p.page.route('**/json/**', async (route) => {
      if (frozen) held.push(route);
      else await route.continue();
    });
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/plans`);
    await p.page.getByText('before the freeze', { exact: true }).waitFor();
  });

  test('is noticed within about 15 s: "Hearth is not answering", a countdown and Try now', async () => {
    frozen = true;
    const started = Date.now();
    const banner = p.page.getByRole('status').filter({ hasText: 'Hearth is not answering' });
    await banner.waitFor({ timeout: 25_000 });
    const took = Date.now() - started;
    assert.ok(took <= 20_000, `noticed after ${took} ms`);
    await banner.getByText(/Trying again in \d s|Trying now/).waitFor();
    await banner.getByRole('button', { name: 'Try now' }).waitFor();
    await p.shot('chat-not-answering');
  });

  test('a message sent meanwhile shows as not sent after 10 s, with Retry and Cancel, its text kept', async () => {
    const box = p.page.getByRole('textbox', { name: 'Message' });
    await box.fill('sent into the void');
    await box.press('Enter');
    const item = p.page.locator('li.message', { hasText: 'sent into the void' });
    await item.getByText('Sending…').waitFor();
    await item.getByText('Not sent: Hearth did not answer.').waitFor({ timeout: 15_000 });
    await item.getByRole('button', { name: 'Retry' }).waitFor();
    assert.equal(await box.inputValue(), '', 'the text stays with the message, not back in the box');
    await p.shot('chat-not-sent');
    // Cancel puts a second one's text back into the box.
    await box.fill('never mind this one');
    await box.press('Enter');
    const second = p.page.locator('li.message', { hasText: 'never mind this one' });
    await second.getByRole('button', { name: 'Cancel' }).click({ timeout: 15_000 });
    await second.waitFor({ state: 'detached' });
    await eventually(async () => (await box.inputValue()) === 'never mind this one');
    assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'focus was not lost with the buttons');
    await box.fill('');
  });

  test('once it answers again, the page is back within 2 s and live', async () => {
    frozen = false;
    // The stopped server carries on: the polls it was holding go through now; the sends timed out
    // here are dropped (as a reset connection), so Retry below is what stores the message.
    for (const route of held.splice(0)) {
      if (route.request().method() === 'POST' && route.request().url().includes('/json/messages')) await route.abort().catch(() => undefined);
      else await route.continue().catch(() => undefined);
    }
    const started = Date.now();
    await p.page.getByRole('status').filter({ hasText: /not answering|Reconnecting/ }).waitFor({ state: 'detached', timeout: 10_000 });
    const took = Date.now() - started;
    assert.ok(took <= 3_000, `back after ${took} ms`);
    await sendStream(ts.ownerClient, 'general', 'plans', 'after the thaw');
    await p.page.getByText('after the thaw', { exact: true }).waitFor({ timeout: 5_000 });
  });

  test('Retry sends the message that was not sent, once', async () => {
    const item = p.page.locator('li.message', { hasText: 'sent into the void' });
    await item.getByRole('button', { name: 'Retry' }).click();
    await item.getByText('Not sent: Hearth did not answer.').waitFor({ state: 'detached' });
    await item.getByText('Sending…').waitFor({ state: 'detached' });
    const stored = [...ts.store.messages.topic(generalId, 'plans')].map((id) => ts.store.messages.get(id)!.content);
    assert.equal(stored.filter((c) => c === 'sent into the void').length, 1);
    assert.equal(stored.filter((c) => c === 'never mind this one').length, 0, 'the cancelled one was never stored');
  });
});
