/**
 * Issue 29, smaller things: Q filters the sidebar and Enter then opens the first match (it did
 * nothing), a channel first, else a direct conversation.
 */
import assert from 'node:assert/strict';
import { test } from '@playwright/test';
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
});
