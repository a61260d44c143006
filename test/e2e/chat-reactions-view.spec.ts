/**
 * Issue 29, smaller things: a Reactions view, as Zulip's (`has:reaction sender:me`): messages of mine
 * that others reacted to, kept current as reactions come and go. Screenshot: chat-reactions-view.png.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Client } from '../helpers/server.js';

test.describe('the Reactions view', () => {
  let melApi: Client;
  let liked: number;
  let later: number;
  const s = chatSuite(async (ts) => {
    const mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    liked = await sendStream(ts.ownerClient, 'general', 'news', 'We shipped it');
    await sendStream(ts.ownerClient, 'general', 'news', 'Nobody reacts to this one');
    later = await sendStream(ts.ownerClient, 'general', 'news', 'Cake on Friday');
    await sendStream(melApi, 'general', 'news', 'Mel says hi');
    assert.equal((await melApi.post(`/messages/${liked}/reactions`, { emoji_name: 'tada' })).status, 200);
  });

  const view = () => s.p.page.getByRole('region', { name: 'Reactions' });

  test('lists my messages others reacted to, from the sidebar', async () => {
    await s.p.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: 'Reactions' }).click();
    await view().getByText('We shipped it', { exact: true }).waitFor();
    assert.equal(await view().getByText('Nobody reacts to this one', { exact: true }).count(), 0);
    assert.equal(await view().getByText('Mel says hi', { exact: true }).count(), 0, "others' messages are not mine");
    assert.match(s.p.page.url(), /#narrow\/has\/reaction\/sender\/me$/);
    await s.p.shot('chat-reactions-view');
  });

  test('a new reaction to another message of mine brings it in; taking the last one back takes it out', async () => {
    assert.equal((await melApi.post(`/messages/${later}/reactions`, { emoji_name: 'cake' })).status, 200);
    await view().getByText('Cake on Friday', { exact: true }).waitFor({ timeout: 5_000 });
    assert.equal((await melApi.delete(`/messages/${liked}/reactions`, { emoji_name: 'tada' })).status, 200);
    await view().getByText('We shipped it', { exact: true }).waitFor({ state: 'detached', timeout: 5_000 });
  });
});
