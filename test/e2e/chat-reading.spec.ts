/**
 * Reading and sending where a review found the chat client fell short: Recent conversations
 * lists topics already read; a channel one is not subscribed to says so and offers Subscribe,
 * and the compose box never sends to a channel it does not show; a message sent somewhere the
 * view does not show is announced with a link; "Jump to newest" lands on the newest message
 * and counts what arrives while reading above; reaching the bottom marks the whole view read.
 * Screenshots: test-results/admin-ui/chat-recent.png, chat-not-subscribed.png, chat-sent-elsewhere.png,
 * chat-new-below.png.
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { TestPage } from '../helpers/browser.js';
import { signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, Client, TestServer } from '../helpers/server.js';

test.describe('chat reading and sending in Chromium', () => {
  const s = serialSuite();
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let melApi: Client;
  let generalId: number;
  let salesId: number;

  test.beforeAll(async () => {
    ts = s.ts;
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    salesId = await createChannel(ts, ts.ownerClient, 'sales', { principals: [ts.owner.id] });
    await sendStream(ts.ownerClient, 'general', 'old plans', 'read long ago');
    await sendStream(ts.ownerClient, 'sales', 'leads', 'a lead');
    await melApi.post('/mark_all_as_read');
    // A long unread topic for Mel: more than a screen, more than one fetch.
    for (let i = 1; i <= 160; i++) await sendStream(ts.ownerClient, 'general', 'long', `line ${i}`);
    // A topic of a few screens, loaded whole when opened.
    for (let i = 1; i <= 40; i++) await sendStream(ts.ownerClient, 'general', 'short', `short ${i}`);
    p = await s.open(null);
    await signIn(p.page, ts.url, mel);
  });

  test('Recent conversations lists topics already read, not only unread ones', async () => {
    await p.page.goto(`${ts.url}/#recent`);
    const rows = p.page.getByRole('region', { name: 'Recent conversations' }).or(p.page.locator('section.recent'));
    await rows.getByRole('link', { name: 'old plans' }).waitFor();
    await rows.getByRole('link', { name: 'long' }).waitFor();
    await p.shot('chat-recent');
  });

  test('an unsubscribed channel says so and offers Subscribe; compose elsewhere never sends to a channel it does not show', async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/${salesId}-sales`);
    const note = p.page.getByRole('note').filter({ hasText: 'You are not subscribed to #sales' });
    await note.waitFor();
    await p.shot('chat-not-subscribed');
    // On a 390 px phone the note fits, with its button, and nothing scrolls sideways.
    const desk = p.page.viewportSize()!;
    await p.page.setViewportSize({ width: 390, height: 844 });
    await note.getByRole('button', { name: 'Subscribe' }).waitFor();
    await p.page.waitForTimeout(400); // the sidebar drawer's closing transition
    await p.shot('chat-not-subscribed-phone');
    assert.ok(await p.page.evaluate(() => document.documentElement.scrollWidth <= 390));
    await p.page.setViewportSize(desk);
    // On to the combined feed: no channel is picked, and Enter asks for one instead of sending.
    await p.page.goto(`${ts.url}/#feed`);
    const channel = p.page.getByRole('combobox', { name: 'Channel' });
    await eventually(async () => (await channel.locator('option:checked').textContent()) === 'Choose a channel');
    const before = (await melApi.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).body.messages[0].id;
    await p.page.getByRole('textbox', { name: 'Message' }).fill('where does this go?');
    await p.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await p.page.getByRole('alert').filter({ hasText: 'Choose a channel.' }).waitFor();
    const after = (await melApi.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).body.messages[0].id;
    assert.equal(after, before, 'nothing was sent');
    // Subscribing from the note: the server has it, and the note goes.
    await p.page.goto(`${ts.url}/#narrow/channel/${salesId}-sales`);
    await note.getByRole('button', { name: 'Subscribe' }).click();
    await note.waitFor({ state: 'detached' });
    const subs = (await melApi.get('/users/me/subscriptions')).body.subscriptions as { stream_id: number }[];
    assert.ok(subs.some((s) => s.stream_id === salesId));
  });

  test('a link to a channel one cannot see says so, and offers no Subscribe (which would create a channel)', async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/99999-nowhere`);
    await p.page.getByRole('note').filter({ hasText: 'This channel does not exist, or you cannot see it.' }).waitFor();
    assert.equal(await p.page.getByRole('button', { name: 'Subscribe' }).count(), 0);
  });

  test('on a phone the compose box opens when used, and Attach files then works with one click', async () => {
    const desk = p.page.viewportSize()!;
    await p.page.setViewportSize({ width: 390, height: 844 });
    try {
      await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/old plans`);
      const attach = p.page.getByText('Attach files');
      await p.page.getByRole('textbox', { name: 'Message' }).waitFor();
      assert.equal(await attach.isVisible(), false, 'closed until used');
      await p.page.getByRole('textbox', { name: 'Message' }).click();
      await attach.waitFor();
      await p.shot('chat-compose-phone-open');
      const chooser = p.page.waitForEvent('filechooser', { timeout: 5000 });
      await p.page.getByRole('textbox', { name: 'Message' }).blur();
      await attach.click();
      await chooser;
    } finally {
      await p.page.setViewportSize(desk);
    }
  });

  test('a message sent to a conversation the view does not show is announced, with a link there', async () => {
    await p.page.goto(`${ts.url}/#narrow/is/starred`);
    await p.page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: '#general' });
    await p.page.getByRole('combobox', { name: 'Topic' }).fill('elsewhere');
    await p.page.getByRole('textbox', { name: 'Message' }).fill('sent from the starred view');
    await p.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const notice = p.page.getByRole('status').filter({ hasText: 'Sent to #general > elsewhere.' });
    await notice.waitFor();
    await p.shot('chat-sent-elsewhere');
    await notice.getByRole('link', { name: 'Go to conversation' }).click();
    await p.page.getByRole('heading', { name: '#general > elsewhere' }).waitFor();
    await p.page.getByRole('list').getByText('sent from the starred view').waitFor();
  });

  test('the Enter key setting: Enter sends by default; chosen in Settings, Enter adds a line and Ctrl+Enter sends', async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/keys`);
    const box = p.page.getByRole('textbox', { name: 'Message' });
    await box.fill('sent with Enter');
    await box.press('Enter');
    await p.page.getByRole('list').getByText('sent with Enter').waitFor();
    await p.page.goto(`${ts.url}/#settings`);
    await p.page.getByRole('radio', { name: 'Enter adds a line; Ctrl+Enter sends' }).check();
    await eventually(async () => (await melApi.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings.enter_sends === false);
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/keys`);
    await box.fill('two');
    await box.press('Enter');
    await box.pressSequentially('lines');
    assert.equal(await box.inputValue(), 'two\nlines');
    await box.press('Control+Enter');
    await p.page.getByRole('list').getByText('lines').waitFor();
    assert.equal(await box.inputValue(), '');
    const last = (await melApi.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false })).body.messages[0];
    assert.equal(last.content, 'two\nlines');
    await melApi.patch('/settings', { enter_sends: true });
  });

  test('what others send while one reads above is counted on the "Jump to newest" button', async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/short`);
    await p.page.getByText('short 1', { exact: true }).waitFor();
    const jump = p.page.getByRole('button', { name: /Jump to newest/ });
    await jump.waitFor();
    await sendStream(ts.ownerClient, 'general', 'short', 'short 41');
    await jump.filter({ hasText: '1 new message' }).waitFor();
    await p.shot('chat-new-below');
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    assert.ok(await p.page.getByText('short 41', { exact: true }).isVisible());
  });

  test('"Jump to newest" lands on the newest message of a long topic; the bottom marks the whole view read', async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/long`);
    // The topic opens at its first unread message, far above the newest (not yet loaded).
    await p.page.getByText('line 1', { exact: true }).waitFor();
    const jump = p.page.getByRole('button', { name: /Jump to newest/ });
    await sendStream(ts.ownerClient, 'general', 'long', 'line 161');
    await jump.click();
    const newest = p.page.getByText('line 161', { exact: true });
    await newest.waitFor();
    await eventually(async () => {
      const box = await newest.boundingBox();
      const scroller = await p.page.getByRole('region', { name: 'Messages' }).or(p.page.locator('.scroller')).first().boundingBox();
      return !!box && !!scroller && box.y + box.height <= scroller.y + scroller.height + 1 && box.y >= scroller.y;
    });
    await jump.waitFor({ state: 'detached' });
    // At the bottom of everything: the whole topic is read on the server, also the lines scrolled past unseen.
    await eventually(async () => {
      const reg = await melApi.post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
      return reg.body.unread_msgs.count === 0;
    });
  });

  test('keys: End selects the newest message, Home the oldest shown, D opens Drafts, Ctrl+K searches even while typing', async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/short`);
    await p.page.getByText('short 41', { exact: true }).waitFor();
    await p.page.getByRole('textbox', { name: 'Message' }).click();
    await p.page.keyboard.press('Escape');
    await p.page.keyboard.press('Home');
    await p.page.locator('li.message[aria-current="true"]').getByText('short 1', { exact: true }).waitFor();
    await p.page.keyboard.press('End');
    await p.page.locator('li.message[aria-current="true"]').getByText('short 41', { exact: true }).waitFor();
    await p.page.getByRole('textbox', { name: 'Message' }).fill('half a thought');
    await p.page.keyboard.press('Control+k');
    await eventually(() => p.page.evaluate(() => document.activeElement?.closest('[role="search"]') !== null));
    await p.page.keyboard.press('Escape');
    await p.page.keyboard.press('d');
    await p.page.getByRole('heading', { name: 'Drafts' }).waitFor();
    await p.page.keyboard.press('q');
    await eventually(() => p.page.evaluate(() => document.activeElement?.getAttribute('placeholder') === 'Filter'));
  });

  test('keys: @ replies mentioning the sender, ← edits my last message here; the topic field suggests the channel\'s topics', async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/keys`);
    const box = p.page.getByRole('textbox', { name: 'Message' });
    await p.page.getByText('sent with Enter').waitFor();
    await box.click();
    await p.page.keyboard.press('Escape');
    await p.page.keyboard.press('ArrowLeft');
    await p.page.getByRole('textbox', { name: 'Edit message' }).waitFor();
    await p.page.keyboard.press('Escape');
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/short`);
    await p.page.getByText('short 41', { exact: true }).click();
    await p.page.keyboard.press('@');
    // After any draft of this topic (the text typed before Ctrl+K in the test above), the mention.
    await eventually(async () => (await box.inputValue()).endsWith(`@**Olive Owner|${ts.owner.id}** `));
    await box.fill('');
    await p.page.goto(`${ts.url}/#feed`);
    await p.page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: '#general' });
    const topics = await p.page.locator('datalist#compose-topics option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    for (const t of ['short', 'long', 'old plans']) assert.ok(topics.includes(t), `${t} in ${topics.join(', ')}`);
  });

  test('keys: S opens the selected message\'s conversation, Shift+R a direct message to its sender', async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general`);
    await p.page.getByText('short 41', { exact: true }).click();
    await p.page.keyboard.press('s');
    await p.page.getByRole('heading', { name: '#general > short' }).waitFor();
    await p.page.getByText('short 40', { exact: true }).click();
    await p.page.keyboard.press('Shift+R');
    await p.page.getByRole('heading', { name: 'Olive Owner' }).waitFor();
    await eventually(() => p.page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Message'));
  });

  test('Account: a new API key replaces the old one, which stops working', async () => {
    await p.page.goto(`${ts.url}/#settings/account`);
    const card = p.page.getByRole('region', { name: 'API key' });
    await card.getByLabel('Password').fill(mel.password);
    await card.getByRole('button', { name: 'Show API key' }).click();
    const shown = card.getByLabel('Your API key');
    await shown.waitFor();
    assert.equal(await shown.textContent(), mel.apiKey);
    await card.getByRole('button', { name: 'Make a new API key' }).click();
    await eventually(async () => (await shown.textContent()) !== mel.apiKey);
    const fresh = (await shown.textContent())!;
    assert.equal((await melApi.get('/users/me')).status, 401, 'the old key no longer works');
    melApi = ts.client({ ...mel, apiKey: fresh });
    mel = { ...mel, apiKey: fresh };
    assert.equal((await melApi.get('/users/me')).status, 200);
  });

  test('the search box suggests filters: operators, channels, people and values, after what is typed', async () => {
    await p.page.goto(`${ts.url}/#inbox`);
    const search = p.page.getByRole('search').getByRole('combobox', { name: 'Search' });
    const offered = () => p.page.locator('datalist#search-suggestions option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await search.fill('chan');
    await eventually(async () => (await offered()).includes('channel:'));
    await search.fill('lunch channel:gen');
    await eventually(async () => (await offered()).join() === 'lunch channel:general');
    await search.fill('-sender:');
    await eventually(async () => (await offered()).includes('-sender:me') && (await offered()).includes(`-sender:${mel.email}`));
    await search.fill('is:st');
    await eventually(async () => (await offered()).join() === 'is:starred');
    // The list's choice is a query like any other: Enter opens it.
    await search.fill('is:starred');
    await search.press('Enter');
    await p.page.getByRole('heading', { name: 'Starred messages' }).waitFor();
  });
});
