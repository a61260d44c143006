/**
 * Issue 29, smaller things: Q filters the sidebar and Enter then opens the first match (it did
 * nothing), a channel first, else a direct conversation; X in a conversation writes a new direct
 * message from there (it left for the Combined feed). Screenshot: chat-x-in-place.png.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import type { Account } from '../helpers/server.js';

test.describe('keys in the sidebar', () => {
  let mel: Account;
  let designId: number;
  const s = chatSuite(async (ts) => {
    mel = await ts.addUser('Mel Quill');
    await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    designId = await createChannel(ts, ts.ownerClient, 'design', { principals: [ts.owner.id, mel.id] });
    await sendStream(ts.ownerClient, 'design', 'colors', 'warm colors');
    await sendDirect(ts.client(mel), [ts.owner.id], 'hello from Mel');
  });

  test.beforeAll(async () => {
    await s.p.page.goto(`${s.ts.url}/#inbox`);
    await s.p.page.getByRole('navigation', { name: 'Conversations' }).getByText('design').waitFor();
  });

  test('Q, a few letters, Enter: the first matching channel opens and the filter clears', async () => {
    await s.p.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await s.p.page.keyboard.press('q');
    const filter = s.p.page.getByRole('searchbox', { name: 'Filter channels and conversations' });
    await filter.waitFor();
    assert.equal(await filter.evaluate((el) => el === document.activeElement), true);
    await s.p.page.keyboard.type('des');
    await s.p.page.keyboard.press('Enter');
    await s.p.page.waitForURL(new RegExp(`#narrow/(channel|stream)/${designId}(-design)?$`));
    assert.equal(await filter.inputValue(), '');
  });

  test('with no channel matching, Enter opens the matching direct conversation', async () => {
    await s.p.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await s.p.page.keyboard.press('q');
    await s.p.page.keyboard.type('quill');
    await s.p.page.keyboard.press('Enter');
    await s.p.page.waitForURL(new RegExp(`#narrow/dm/${mel.id}(-.*)?$`));
    await s.p.page.getByText('hello from Mel', { exact: true }).waitFor();
  });

  test('X in a topic: a new direct message from there; the view stays, and the topic comes back after sending', async () => {
    const page = s.p.page;
    await page.goto(`${s.ts.url}/#narrow/channel/${designId}-design/topic/colors`);
    await page.getByText('warm colors', { exact: true }).waitFor();
    const url = page.url();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('x');
    const people = page.getByRole('textbox', { name: 'People' });
    await people.waitFor();
    await page.getByRole('button', { name: 'Back to this conversation' }).waitFor();
    assert.equal(page.url(), url, 'the view stays');
    await s.p.shot('chat-x-in-place');
    await people.fill('Mel');
    await people.press('Enter');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('a private word, from the design topic');
    await box.press('Enter');
    await page.getByText(/Sent to/).waitFor();
    const sent = [...s.ts.store.messages.conversation(`${[s.ts.owner.id, mel.id].sort((a, b) => a - b).join(',')}`)].map((id) => s.ts.store.messages.get(id)!.content);
    assert.ok(sent.includes('a private word, from the design topic'), JSON.stringify(sent));
    assert.equal(page.url(), url);
    // Back in the topic: the compose box writes to it again.
    assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'colors');
    assert.equal(await page.getByRole('button', { name: 'Back to this conversation' }).count(), 0);
  });

  test('X then "Back to this conversation" returns to the topic with its draft', async () => {
    const page = s.p.page;
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('a draft for the design topic');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('x');
    await page.getByRole('textbox', { name: 'People' }).waitFor();
    assert.equal(await box.inputValue(), '');
    await page.getByRole('button', { name: 'Back to this conversation' }).click();
    await page.getByRole('combobox', { name: 'Topic' }).waitFor();
    assert.equal(await box.inputValue(), 'a draft for the design topic');
    assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'the keyboard goes on in the message box');
  });
});
