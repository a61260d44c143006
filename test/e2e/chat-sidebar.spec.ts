/**
 * The left sidebar as Zulip's (issue 29, items 1 and 2): an open channel lists its topics from
 * the server (`GET /users/me/{stream_id}/topics`), not from the messages the page loaded, so
 * topics older than the newest 400 messages are still listed, after a reload too; "More topics"
 * lists all of them with a filter box; topics are kept current by events (a new topic appears,
 * a renamed or deleted one goes); unread counts are the server's; channels are grouped under
 * the organization's channel folders in the folders' order (web_left_sidebar_show_channel_folders).
 * Screenshots: test-results/admin-ui/chat-sidebar-*.png (1280 px and 390 px, light and dark).
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, Client, TestServer } from '../helpers/server.js';

const topicName = (i: number) => `Topic ${String(i).padStart(2, '0')}`;

test.describe('chat sidebar: topics and channel folders in Chromium', () => {
  const s = serialSuite({ timeout: 180_000 });
  let browser: Browser;
  let ts: TestServer;
  let p: TestPage;
  let mel: Account;
  let melApi: Client;
  let engId: number;
  const ids = new Map<string, number>();
  const channelIds = new Map<string, number>();

  test.beforeAll(async () => {
    ({ browser, ts } = s);
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    const principals = { principals: [ts.owner.id, mel.id] };
    engId = await createChannel(ts, ts.ownerClient, 'engineering', principals);
    for (const name of ['design', 'ops', 'sales', 'random']) channelIds.set(name, await createChannel(ts, ts.ownerClient, name, principals));
    // Twelve old topics, then more than the newest 400 messages the page loads, all in one topic.
    for (let i = 1; i <= 12; i++) ids.set(topicName(i), await sendStream(ts.ownerClient, 'engineering', topicName(i), `about ${topicName(i)}`));
    for (let i = 0; i < 420; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => sendStream(ts.ownerClient, 'engineering', 'busy', `busy ${i + j}`)));
    }
    await sendStream(ts.ownerClient, 'random', 'lunch', 'pizza?');
    await melApi.post('/mark_all_as_read');
    // Two old topics unread again for Mel, one muted.
    const res = await melApi.post('/messages/flags', { messages: [ids.get('Topic 02')!, ids.get('Topic 03')!], op: 'remove', flag: 'read' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await melApi.post('/user_topics', { stream_id: engId, topic: 'Topic 10', visibility_policy: 1 })).status, 200);
    p = await s.open(null);
    await p.page.setViewportSize({ width: 1280, height: 800 });
    await signIn(p.page, ts.url, mel);
  });

  const nav = () => p.page.getByRole('navigation', { name: 'Conversations' });
  const topicList = () => nav().getByRole('list', { name: 'Topics in engineering', exact: true });
  /** The topic names the sidebar shows, in order, and their unread counts. */
  async function shown(): Promise<{ names: string[]; counts: Record<string, number> }> {
    // Read at one instant (the list re-renders as events arrive).
    const rows = await topicList().evaluate((ul) =>
      [...ul.querySelectorAll(':scope > li > a')].map((a) => [a.querySelector('.label')?.textContent ?? '', a.querySelector('.count')?.textContent ?? null] as const),
    );
    const counts: Record<string, number> = {};
    for (const [name, count] of rows) if (count !== null) counts[name] = Number(count);
    return { names: rows.map(([name]) => name), counts };
  }
  /** Mel's unread messages per topic of engineering, as the server counts them. */
  async function serverUnread(): Promise<Record<string, number>> {
    const res = await melApi.get('/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: engId },
        { operator: 'is', operand: 'unread' },
      ],
    });
    assert.equal(res.status, 200);
    const out: Record<string, number> = {};
    for (const m of res.body.messages as { subject: string }[]) out[m.subject] = (out[m.subject] ?? 0) + 1;
    return out;
  }
  /** The server's topic list for Mel, newest first. */
  async function serverTopics(): Promise<string[]> {
    const res = await melApi.get(`/users/me/${engId}/topics`);
    return (res.body.topics as { name: string }[]).map((t) => t.name);
  }
  const sameList = async (expected: string[]) => {
    await eventually(async () => JSON.stringify((await shown()).names) === JSON.stringify(expected)).catch(async () =>
      assert.deepEqual((await shown()).names, expected),
    );
  };
  // The 8 most recent (the muted Topic 10 left out), then older ones with unread messages.
  const UNZOOMED = ['busy', 'Topic 12', 'Topic 11', 'Topic 09', 'Topic 08', 'Topic 07', 'Topic 06', 'Topic 03', 'Topic 02'];

  // A topic of engineering whose messages are all read: opening it loads only its own messages, none of the old topics'.
  const busyUrl = () => `${ts.url}/#narrow/channel/${engId}-engineering/topic/busy`;

  test('an open channel lists its topics from the server, older than the loaded messages, after a reload too', async () => {
    await p.page.goto(busyUrl());
    await p.page.locator('main').getByText(/^busy \d+$/).first().waitFor();
    await sameList(UNZOOMED);
    // None of the old topics is among the messages the page loaded.
    const loaded = await p.page.locator('main').getByText('about Topic', { exact: false }).count();
    assert.equal(loaded, 0);
    const { counts } = await shown();
    const unread = await serverUnread();
    assert.deepEqual(unread, { 'Topic 02': 1, 'Topic 03': 1 });
    assert.deepEqual(counts, unread);
    await nav().getByRole('button', { name: 'More topics in engineering' }).waitFor();
    await p.shot('chat-sidebar-topics');
    await nav().screenshot({ path: 'test-results/admin-ui/chat-sidebar-topics-nav.png' });
    await p.page.reload();
    await sameList(UNZOOMED);
    assert.deepEqual((await shown()).counts, unread);
  });

  test('"More topics" lists every topic with a filter, finds an old one and opens it; Escape goes back', async () => {
    await nav().getByRole('button', { name: 'More topics in engineering' }).click();
    const filter = nav().getByRole('searchbox', { name: 'Filter topics in engineering' });
    await eventually(async () => filter.evaluate((el) => el === document.activeElement));
    // All of them, in the server's order, the muted one too (marked muted); other channels are hidden.
    await sameList(await serverTopics());
    assert.equal((await shown()).names.length, 13);
    await topicList().getByRole('link', { name: 'Topic 10 (muted)' }).waitFor();
    assert.equal(await nav().getByRole('link', { name: 'random' }).count(), 0);
    await p.shot('chat-sidebar-more-topics');
    await nav().screenshot({ path: 'test-results/admin-ui/chat-sidebar-more-topics-nav.png' });
    await filter.fill('01');
    await sameList(['Topic 01']);
    await filter.fill('topic 1');
    await sameList(['Topic 12', 'Topic 11', 'Topic 10']);
    await filter.fill('nothing like it');
    await topicList().getByText('No topics match.').waitFor();
    await filter.fill('topic 0');
    await topicList().getByRole('link', { name: 'Topic 01' }).click();
    await p.page.locator('main').getByText('about Topic 01').waitFor();
    await topicList().getByRole('link', { name: 'Topic 01' }).and(p.page.locator('[aria-current="page"]')).waitFor();
    // Escape clears the filter, then leaves the list; focus returns to "More topics".
    await filter.focus();
    await p.page.keyboard.press('Escape');
    assert.equal(await filter.inputValue(), '');
    await p.page.keyboard.press('Escape');
    const more = nav().getByRole('button', { name: 'More topics in engineering' });
    await eventually(async () => more.evaluate((el) => el === document.activeElement));
    await nav().getByRole('link', { name: 'random' }).waitFor();
    // The open topic is always listed, old as it is.
    await sameList([...UNZOOMED.slice(0, 7), 'Topic 03', 'Topic 02', 'Topic 01']);
    // Keyboard only: Enter on "More topics", type, Escape twice.
    await more.focus();
    await p.page.keyboard.press('Enter');
    await eventually(async () => filter.evaluate((el) => el === document.activeElement));
    await p.page.keyboard.type('05');
    await sameList(['Topic 05']);
    await nav().getByRole('button', { name: 'Back to channels' }).click();
    await nav().getByRole('link', { name: 'random' }).waitFor();
    // Zulip's Y lists the open channel's topics from anywhere on the page (focus on no field).
    await p.page.locator('main').getByText(/^busy \d+$|^about Topic 01$/).first().click();
    await p.page.keyboard.press('y');
    await eventually(async () => filter.evaluate((el) => el === document.activeElement));
    assert.equal((await shown()).names.length, 13);
    await p.page.keyboard.press('Escape');
    await nav().getByRole('link', { name: 'random' }).waitFor();
  });

  test('topics follow events: a new topic appears, a renamed or deleted one goes; counts stay the server\'s', async () => {
    await p.page.goto(busyUrl());
    await sameList(UNZOOMED);
    await sendStream(ts.ownerClient, 'engineering', 'launch day', 'we ship at noon');
    // At the top; the 8 most recent now end at Topic 07 (the muted Topic 10 counts as one of them, unshown).
    await sameList(['launch day', 'busy', 'Topic 12', 'Topic 11', 'Topic 09', 'Topic 08', 'Topic 07', 'Topic 03', 'Topic 02']);
    const renamed = await ts.ownerClient.patch(`/messages/${ids.get('Topic 12')!}`, {
      topic: 'Topic 12 renamed',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    const deleted = await ts.ownerClient.delete(`/messages/${ids.get('Topic 11')!}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const after = ['launch day', 'busy', 'Topic 12 renamed', 'Topic 09', 'Topic 08', 'Topic 07', 'Topic 06', 'Topic 03', 'Topic 02'];
    await sameList(after);
    // A mention: marked with @ on its topic.
    assert.equal(await topicList().locator('.mention-marker').count(), 0);
    await sendStream(ts.ownerClient, 'engineering', 'launch day', `@**Mel|${mel.id}** are you ready?`);
    await topicList().getByRole('link', { name: /^launch day\W+mentions you/ }).waitFor();
    await eventually(async () => (await shown()).counts['launch day'] === 2);
    const server = await serverTopics();
    assert.ok(!server.includes('Topic 11') && !server.includes('Topic 12'));
    const { counts } = await shown();
    assert.deepEqual(counts, await serverUnread());
    assert.equal(counts['launch day'], 2);
    await p.page.reload();
    await sameList(after);
    assert.deepEqual((await shown()).counts, await serverUnread());
  });

  /** Section headings of the channel list, in order, and the channels of the list each heading labels (read at one instant). */
  const sections = (): Promise<[string, string[]][]> =>
    nav().evaluate((el) =>
      [...el.querySelectorAll('h3.folder span[id]')].map((title): [string, string[]] => {
        const list = el.querySelector(`ul[aria-labelledby="${title.id}"]`);
        return [title.textContent ?? '', [...(list?.querySelectorAll(':scope > li > a .label') ?? [])].map((x) => x.textContent ?? '')];
      }),
    );
  const sameSections = async (expected: [string, string[]][]) => {
    await eventually(async () => JSON.stringify(await sections()) === JSON.stringify(expected)).catch(async () =>
      assert.deepEqual(await sections(), expected),
    );
  };

  test('channel folders group the channels, in the folders\' order, live; the setting turns them off', async () => {
    await p.page.goto(`${ts.url}/#inbox`);
    assert.deepEqual(await sections(), []);
    const folder = async (name: string) => {
      const res = await ts.ownerClient.post('/channel_folders/create', { name, description: '' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.channel_folder_id as number;
    };
    const product = await folder('Product');
    const teams = await folder('Teams');
    const put = async (channel: string, folderId: number) => {
      const id = channel === 'engineering' ? engId : channelIds.get(channel)!;
      const res = await ts.ownerClient.patch(`/streams/${id}`, { folder_id: folderId });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    await put('engineering', product);
    await put('design', product);
    await put('ops', teams);
    await put('sales', teams);
    await sameSections([
      ['Product', ['design', 'engineering']],
      ['Teams', ['ops', 'sales']],
      ['Other', ['random']],
    ]);
    const reorder = await ts.ownerClient.patch('/channel_folders', { order: [teams, product] });
    assert.equal(reorder.status, 200, JSON.stringify(reorder.body));
    const ordered: [string, string[]][] = [
      ['Teams', ['ops', 'sales']],
      ['Product', ['design', 'engineering']],
      ['Other', ['random']],
    ];
    await sameSections(ordered);
    // A section folds away (remembered after a reload), its unread count on its heading; the open channel stays.
    const teamsButton = nav().getByRole('button', { name: /^Teams/ });
    assert.equal(await teamsButton.getAttribute('aria-expanded'), 'true');
    await sendStream(ts.ownerClient, 'ops', 'pager', 'disk full');
    await teamsButton.click();
    assert.equal(await teamsButton.getAttribute('aria-expanded'), 'false');
    await sameSections([['Teams', []], ordered[1]!, ordered[2]!]);
    await teamsButton.getByLabel('1 unread messages').waitFor();
    await p.page.reload();
    await sameSections([['Teams', []], ordered[1]!, ordered[2]!]);
    await p.page.goto(`${ts.url}/#narrow/channel/${channelIds.get('ops')!}-ops/topic/pager`);
    await sameSections([['Teams', ['ops']], ordered[1]!, ordered[2]!]);
    await p.page.goto(`${ts.url}/#inbox`);
    await teamsButton.click();
    await sameSections(ordered);
    // The sidebar filter keeps a folder's channels when it matches the folder's name.
    await nav().getByRole('searchbox', { name: 'Filter channels and conversations' }).fill('team');
    await sameSections([['Teams', ['ops', 'sales']]]);
    await nav().getByRole('searchbox', { name: 'Filter channels and conversations' }).fill('');
    await p.page.reload();
    await sameSections(ordered);
    // An open channel's topics stay under it, in its folder.
    await p.page.goto(busyUrl());
    await topicList().getByRole('link', { name: 'launch day' }).waitFor();
    await p.shot('chat-sidebar-folders');
    // Mel turns the folders off (Zulip's web_left_sidebar_show_channel_folders): one list by name.
    assert.equal((await melApi.patch('/settings', { web_left_sidebar_show_channel_folders: false })).status, 200);
    await sameSections([]);
    const flat = await nav().locator('ul.channels > li > a .label').allTextContents();
    assert.deepEqual(flat, ['design', 'engineering', 'ops', 'random', 'sales']);
    assert.equal((await melApi.patch('/settings', { web_left_sidebar_show_channel_folders: true })).status, 200);
    await sameSections(ordered);
    // Pinned channels come first; a folder whose channels are all muted goes last, its channels dimmed.
    const props = async (changes: [string, string, boolean][]) => {
      const subscription_data = changes.map(([name, property, value]) => ({ stream_id: channelIds.get(name)!, property, value }));
      const res = await melApi.post('/users/me/subscriptions/properties', { subscription_data });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    await props([['random', 'pin_to_top', true], ['ops', 'is_muted', true], ['sales', 'is_muted', true]]);
    await sameSections([
      ['Pinned', ['random']],
      ['Product', ['design', 'engineering']],
      ['Teams', ['ops', 'sales']],
    ]);
    await p.shot('chat-sidebar-pinned-muted');
    await props([['random', 'pin_to_top', false], ['ops', 'is_muted', false], ['sales', 'is_muted', false]]);
    await sameSections(ordered);
  });

  test('at 1280 px and on a 390 px phone, light and dark', async () => {
    await p.page.goto(busyUrl());
    await topicList().getByRole('link', { name: 'launch day' }).waitFor();
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await p.page.emulateMedia({ colorScheme: scheme });
        await p.page.setViewportSize({ width: 1280, height: 800 });
        await p.page.screenshot({ path: `test-results/admin-ui/chat-sidebar-desktop-${scheme}.png` });
        await nav().screenshot({ path: `test-results/admin-ui/chat-sidebar-nav-${scheme}.png` });
        await p.page.setViewportSize({ width: 390, height: 844 });
        await p.page.getByRole('button', { name: 'Channels and conversations' }).click();
        await nav().getByRole('button', { name: 'More topics in engineering' }).click();
        await nav().getByRole('searchbox', { name: 'Filter topics in engineering' }).waitFor();
        await p.page.waitForTimeout(300);
        assert.ok(await p.page.evaluate(() => document.documentElement.scrollWidth <= 390));
        await p.page.screenshot({ path: `test-results/admin-ui/chat-sidebar-phone-${scheme}.png` });
        await nav().getByRole('button', { name: 'Back to channels' }).click();
        await p.page.getByRole('button', { name: 'Close' }).click();
      }
    } finally {
      await p.page.emulateMedia({ colorScheme: null });
      await p.page.setViewportSize({ width: 1280, height: 800 });
    }
    assert.deepEqual(p.errors.filter((e) => !isSessionProbe(e)), []);
  });

  test('no serious or critical axe-core violation in the sidebar with folders, topics and "More topics"', async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await signIn(page, ts.url, mel);
      await page.goto(busyUrl());
      const side = page.getByRole('navigation', { name: 'Conversations' });
      await side.getByRole('list', { name: 'Topics in engineering', exact: true }).getByRole('link', { name: 'launch day' }).waitFor();
      const found = (await axeViolations(page)).map((v) => `topics: ${v}`);
      await side.getByRole('button', { name: 'More topics in engineering' }).click();
      await side.getByRole('searchbox', { name: 'Filter topics in engineering' }).waitFor();
      found.push(...(await axeViolations(page)).map((v) => `more topics: ${v}`));
      assert.deepEqual(found, []);
    } finally {
      await context.close();
    }
  });
});
