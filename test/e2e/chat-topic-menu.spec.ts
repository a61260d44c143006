/**
 * The topic menu (issue 29, item 4) and "Remind me" on a message, in Chromium, as a person uses
 * them: the "⋮" button by a topic in the sidebar, the Inbox, Recent conversations and the heading
 * above a topic's messages opens the same menu (role=menu, arrows, Escape back to its button);
 * each action is checked in the server's state: follow / unfollow and mute / unmute
 * (`user_topics`), mark all as read (flags), move or rename and resolve (the messages' topic),
 * copy link (the clipboard, then opened), and reminders (`GET /reminders`).
 * Screenshots: test-results/admin-ui/topic-menu-*.png (1280 and 390 px, light and dark).
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Locator, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendStream } from '../helpers/messages.js';
import type { Account, Client, TestServer } from '../helpers/server.js';

/** The owner's topic visibility policies as the server keeps them: `streamId:topic` → policy. */
async function policies(client: Client): Promise<Map<string, number>> {
  const reg = await client.post('/register', { fetch_event_types: ['user_topic'] });
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  const rows = reg.body.user_topics as { stream_id: number; topic_name: string; visibility_policy: number }[];
  return new Map(rows.map((t) => [`${t.stream_id}:${t.topic_name}`, t.visibility_policy]));
}

test.describe('the topic menu in Chromium', () => {
  const s = serialSuite();
  let ts: TestServer;
  let p: TestPage;
  let page: Page;
  let mel: Account;
  let melApi: Client;
  let generalId: number;
  let opsId: number;
  const topicUrl = (topic: string) => `${ts.url}/#narrow/channel/${generalId}-general/topic/${encodeURIComponent(topic)}`;
  const policyOf = async (topic: string) => (await policies(ts.ownerClient)).get(`${generalId}:${topic}`) ?? 0;
  const menuButton = (where: Locator, topic: string) => where.getByRole('button', { name: `Topic actions for ${topic}`, exact: true });
  const menu = () => page.getByRole('menu', { name: /^Topic actions: / });
  const sidebar = () => page.getByRole('navigation', { name: 'Conversations' });
  const inbox = () => page.locator('section.inbox');
  const recent = () => page.locator('section.recent');
  const feedHeader = () => page.locator('.feed-header');

  /** Opens a topic's menu from `where` and picks `item`. */
  async function choose(where: Locator, topic: string, item: string): Promise<void> {
    // A channel's feed may head the same topic more than once: the first heading's button.
    await menuButton(where, topic).first().click();
    await menu().getByRole('menuitem', { name: item, exact: true }).click();
    await menu().waitFor({ state: 'detached' });
  }

  test.beforeAll(async () => {
    ts = s.ts;
    mel = await ts.addUser('Mel');
    melApi = ts.client(mel);
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    await sendStream(ts.ownerClient, 'general', 'plans', 'the plan');
    await sendStream(melApi, 'general', 'plans', 'a reply to the plan');
    await sendStream(melApi, 'general', 'lunch', 'pizza?');
    await sendStream(melApi, 'general', 'lunch', 'or soup');
    await sendStream(melApi, 'general', 'budget', 'numbers coming');
    // A channel I muted: its topics are muted but for those I unmute or follow.
    opsId = await createChannel(ts, ts.ownerClient, 'ops', { principals: [ts.owner.id, mel.id] });
    await sendStream(melApi, 'ops', 'alerts', 'disk almost full');
    await sendStream(melApi, 'ops', 'noise', 'cron ran');
    const muted = await ts.ownerClient.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: opsId, property: 'is_muted', value: true }] });
    assert.equal(muted.status, 200, JSON.stringify(muted.body));
    p = await s.open(null);
    page = p.page;
    await signIn(page, ts.url, ts.owner);
    p.errors.splice(0, p.errors.length, ...p.errors.filter((e) => !isSessionProbe(e)));
  });

  test('every place a topic is listed has its menu: sidebar, Inbox, Recent conversations, the heading above its messages', async () => {
    // Inbox: the unread topics.
    await page.goto(`${ts.url}/#inbox`);
    await menuButton(inbox(), 'lunch').click();
    const items = menu().getByRole('menuitem');
    assert.deepEqual(await items.allTextContents(), ['Follow topic', 'Mute topic', 'Mark all as read', 'Move or rename topic', 'Resolve topic', 'Copy link to topic']);
    // The first item has focus; arrows move, wrapping; Escape closes and focus returns to the button.
    await eventually(async () => (await page.evaluate(() => document.activeElement?.textContent)) === 'Follow topic');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Copy link to topic');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Mute topic');
    assert.equal(await menuButton(inbox(), 'lunch').getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await axeViolations(page, ['.topic-menu']), [], 'axe-core on the open menu');
    await page.keyboard.press('Escape');
    await menu().waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Topic actions for lunch');
    assert.equal(await menuButton(inbox(), 'lunch').getAttribute('aria-expanded'), 'false');
    // From the keyboard: Enter on the button opens it.
    await page.keyboard.press('Enter');
    await menu().waitFor();
    await page.keyboard.press('Escape');

    // Recent conversations (a table), a read topic included.
    await page.goto(`${ts.url}/#recent`);
    // "plans" was started by me: followed on sending, as Zulip's default automatically_follow_topics_policy does.
    await menuButton(recent(), 'plans').click();
    await menu().getByRole('menuitem', { name: 'Unfollow topic', exact: true }).waitFor();
    await page.keyboard.press('Escape');

    // The heading above a topic's messages (the topic view's header) and the sidebar's topic list.
    await page.goto(topicUrl('budget'));
    await menuButton(feedHeader(), 'budget').click();
    await menu().waitFor();
    await page.keyboard.press('Escape');
    await menuButton(sidebar(), 'budget').click();
    await menu().waitFor();
    await page.keyboard.press('Escape');
    await menu().waitFor({ state: 'detached' });

    // A channel's feed: the heading above each topic's messages.
    await page.goto(`${ts.url}/#narrow/channel/${generalId}-general`);
    await menuButton(page.locator('li.conv'), 'lunch').first().click();
    await menu().waitFor();
    assert.deepEqual(await axeViolations(page, ['.topic-menu']), [], 'axe-core on the open menu in the feed');
    await page.keyboard.press('Escape');
    assert.deepEqual(p.errors, []);
  });

  test('follow from the sidebar, unfollow from Recent conversations: the server keeps visibility policy 3, then none', async () => {
    await page.goto(topicUrl('budget'));
    await choose(sidebar(), 'budget', 'Follow topic');
    await eventually(async () => (await policyOf('budget')) === 3);
    // Shown as followed wherever the topic is: the sidebar link and the topic's header.
    await sidebar().getByRole('link', { name: /^budget\b.*, followed$/ }).waitFor();
    await feedHeader().getByTitle('You follow this topic').waitFor();
    await page.goto(`${ts.url}/#recent`);
    const row = recent().locator('tr', { has: page.getByRole('link', { name: 'budget', exact: true }) });
    await row.getByTitle('You follow this topic').waitFor();
    await menuButton(recent(), 'budget').click();
    await menu().getByRole('menuitem', { name: 'Unfollow topic', exact: true }).click();
    await eventually(async () => (await policyOf('budget')) === 0);
    await row.getByTitle('You follow this topic').waitFor({ state: 'detached' });
  });

  test('mute from the Inbox (it leaves the Inbox), unmute from the sidebar: policy 1, then none', async () => {
    await page.goto(`${ts.url}/#inbox`);
    await sendStream(melApi, 'general', 'lunch', 'anyone?'); // the channel's feed read the others
    await inbox().getByRole('link', { name: 'lunch', exact: true }).waitFor();
    await choose(inbox(), 'lunch', 'Mute topic');
    await eventually(async () => (await policyOf('lunch')) === 1);
    await inbox().getByRole('link', { name: 'lunch', exact: true }).waitFor({ state: 'detached' });
    // Recent conversations hides it unless muted ones are included, then says so.
    await page.goto(`${ts.url}/#recent`);
    await recent().getByRole('link', { name: 'plans', exact: true }).waitFor();
    assert.equal(await recent().getByRole('link', { name: 'lunch', exact: true }).count(), 0);
    await page.getByRole('button', { name: 'Include muted' }).click();
    await recent().locator('tr', { has: page.getByRole('link', { name: 'lunch', exact: true }) }).getByText('Muted').waitFor();
    // In the topic's own view the header shows it muted, and the sidebar dims it.
    await page.goto(topicUrl('lunch'));
    await feedHeader().getByTitle('You muted this topic').waitFor();
    await choose(sidebar(), 'lunch', 'Unmute topic');
    await eventually(async () => (await policyOf('lunch')) === 0);
    await feedHeader().getByTitle('You muted this topic').waitFor({ state: 'detached' });
  });

  test('mark all as read from the Inbox, by keyboard: every message of the topic is read on the server', async () => {
    // Sent once the Inbox is open (the topic open before would read them on sight).
    await page.goto(`${ts.url}/#inbox`);
    await sendStream(melApi, 'general', 'lunch', 'still hungry');
    await sendStream(melApi, 'general', 'budget', 'more numbers');
    await inbox().getByRole('link', { name: 'lunch', exact: true }).waitFor();
    const unreadInLunch = async () =>
      ((await fetchMessages(ts.ownerClient, { narrow: [{ operator: 'channel', operand: generalId }, { operator: 'topic', operand: 'lunch' }] })).messages as { flags: string[] }[]).filter(
        (m) => !m.flags.includes('read'),
      ).length;
    assert.ok((await unreadInLunch()) > 0, 'lunch has unread messages before');
    await menuButton(inbox(), 'lunch').focus();
    await page.keyboard.press('ArrowDown'); // opens the menu
    await menu().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Mark all as read');
    await page.keyboard.press('Enter');
    await eventually(async () => (await unreadInLunch()) === 0);
    await inbox().getByRole('link', { name: 'lunch', exact: true }).waitFor({ state: 'detached' });
    // "budget" stays unread: only the topic was marked.
    await inbox().getByRole('link', { name: 'budget', exact: true }).waitFor();
  });

  test('copy link from Recent conversations: the clipboard holds the topic link, and it opens the topic', async () => {
    await page.goto(`${ts.url}/#recent`);
    await choose(recent(), 'plans', 'Copy link to topic');
    await page.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, `${ts.url}/#narrow/channel/${generalId}-general/topic/plans`);
    await page.goto(copied);
    await page.getByRole('heading', { name: '#general > plans', level: 1 }).waitFor();
  });

  test('rename from the heading above the topic: every message moves, the view follows', async () => {
    await page.goto(topicUrl('plans'));
    await choose(feedHeader(), 'plans', 'Move or rename topic');
    const dialog = page.getByRole('dialog', { name: 'Move or rename topic' });
    await dialog.getByText('Every message in #general > plans').waitFor();
    assert.equal(await dialog.getByRole('combobox', { name: 'Which messages' }).count(), 0, 'the whole topic moves');
    await dialog.getByRole('textbox', { name: 'Topic' }).fill('roadmap');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: '#general > roadmap', level: 1 }).waitFor();
    const body = await fetchMessages(ts.ownerClient, { narrow: [{ operator: 'channel', operand: generalId }] });
    const moved = (body.messages as { subject: string; content: string }[]).filter((m) => /^<p>(the plan|a reply to the plan)<\/p>$/.test(m.content));
    assert.deepEqual(
      moved.map((m) => m.subject),
      ['roadmap', 'roadmap'],
    );
    const left = await fetchMessages(ts.ownerClient, { narrow: [{ operator: 'channel', operand: generalId }, { operator: 'topic', operand: 'plans' }] });
    assert.equal(left.messages.length, 0, 'nothing is left in "plans"');
    // Recent conversations follows the topic: "roadmap" in place of "plans".
    await page.goto(`${ts.url}/#recent`);
    await recent().getByRole('link', { name: 'roadmap', exact: true }).waitFor();
    assert.equal(await recent().getByRole('link', { name: 'plans', exact: true }).count(), 0);
    // Its newest message is now Notification Bot's note of the move: resolving acts on it and on every other.
    await page.goto(topicUrl('roadmap'));
    await choose(feedHeader(), 'roadmap', 'Resolve topic');
    await page.getByRole('heading', { name: '#general > ✔ roadmap', level: 1 }).waitFor();
    const resolved = await fetchMessages(ts.ownerClient, { narrow: [{ operator: 'channel', operand: generalId }, { operator: 'topic', operand: '✔ roadmap' }] });
    assert.ok(resolved.messages.length >= 3, `moved, with the notice: ${resolved.messages.length}`);
    await choose(feedHeader(), '✔ roadmap', 'Unresolve topic');
    await page.getByRole('heading', { name: '#general > roadmap', level: 1 }).waitFor();
  });

  test('resolve from the channel feed, unresolve from the sidebar: the topic gains and loses "✔ "', async () => {
    await page.goto(`${ts.url}/#narrow/channel/${generalId}-general`);
    await choose(page.locator('li.conv'), 'budget', 'Resolve topic');
    const subjects = async () =>
      ((await fetchMessages(ts.ownerClient, { narrow: [{ operator: 'channel', operand: generalId }] })).messages as { subject: string; content: string }[])
        .filter((m) => m.content.includes('numbers coming'))
        .map((m) => m.subject);
    await eventually(async () => (await subjects())[0] === '✔ budget');
    await page.goto(topicUrl('✔ budget'));
    await choose(sidebar(), '✔ budget', 'Unresolve topic');
    await eventually(async () => (await subjects())[0] === 'budget');
    await page.goto(`${ts.url}/#recent`);
    await recent().getByRole('link', { name: 'budget', exact: true }).waitFor();
    assert.equal(await recent().getByRole('link', { name: '✔ budget', exact: true }).count(), 0);
  });

  test('"Remind me about this" on a message: the presets and a custom time are stored as reminders', async () => {
    const target = await sendStream(melApi, 'general', 'lunch', 'book the table');
    await page.goto(topicUrl('lunch'));
    const msg = page.locator('li.message', { hasText: 'book the table' });
    await msg.hover();
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menu', { name: 'Message actions' }).getByRole('menuitem', { name: 'Remind me about this' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remind me about this message' });
    await dialog.waitFor();
    await p.shot('topic-menu-remind-me');
    const times = await dialog.getByRole('list', { name: 'Suggested times' }).getByRole('button').allTextContents();
    assert.deepEqual(times.slice(0, 2), ['In 20 minutes', 'In 1 hour']);
    assert.match(times[2]!, /^Tomorrow at /);
    await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('call them');
    const before = Math.floor(Date.now() / 1000);
    await dialog.getByRole('button', { name: 'In 1 hour' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Focus is back on the message's actions button.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message actions');
    const stored = async () => ((await ts.ownerClient.get('/reminders')).body.reminders as { reminder_target_message_id: number; scheduled_delivery_timestamp: number; content: string }[]);
    await eventually(async () => (await stored()).length === 1);
    const first = (await stored())[0]!;
    assert.equal(first.reminder_target_message_id, target);
    assert.ok(Math.abs(first.scheduled_delivery_timestamp - (before + 3600)) < 120, `in an hour: ${first.scheduled_delivery_timestamp - before}`);
    assert.match(first.content, /call them/);

    // Custom: a time picked in the field.
    await msg.hover();
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Remind me about this' }).click();
    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setHours(14, 30, 0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    await dialog.getByLabel('Custom time').fill(`${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T14:30`);
    await dialog.getByRole('button', { name: 'Set reminder' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventually(async () => (await stored()).some((r) => r.scheduled_delivery_timestamp === at.getTime() / 1000));
    // The Scheduled view lists both.
    await page.goto(`${ts.url}/#scheduled`);
    await eventually(async () => (await page.getByRole('list', { name: 'Reminders' }).getByRole('listitem').count()) === 2);
  });

  test('in a muted channel, "Unmute topic" (policy 2) brings the topic into the Inbox and the counts; "Mute topic" takes it out', async () => {
    const opsPolicy = async (topic: string) => (await policies(ts.ownerClient)).get(`${opsId}:${topic}`) ?? 0;
    await page.goto(`${ts.url}/#inbox`);
    await inbox().getByRole('link', { name: 'budget', exact: true }).or(page.getByText('All caught up')).first().waitFor();
    assert.equal(await inbox().getByRole('link', { name: 'alerts', exact: true }).count(), 0, 'a muted channel stays out of the Inbox');
    // Recent conversations lists it among the muted ones, and its menu offers to unmute it.
    await page.goto(`${ts.url}/#recent`);
    await page.getByRole('button', { name: 'Include muted' }).click();
    const alerts = recent().locator('tr', { has: page.getByRole('link', { name: 'alerts', exact: true }) });
    await alerts.getByText('Muted').waitFor();
    await menuButton(recent(), 'alerts').click();
    assert.equal(await menu().getByRole('menuitem', { name: 'Mute topic', exact: true }).count(), 0);
    await menu().getByRole('menuitem', { name: 'Unmute topic', exact: true }).click();
    await eventually(async () => (await opsPolicy('alerts')) === 2);
    await alerts.getByText('Muted').waitFor({ state: 'detached' });
    // Now in the Inbox, counted; its muted sibling is not.
    await page.goto(`${ts.url}/#inbox`);
    const opsSection = page.getByRole('region', { name: '#ops' });
    await opsSection.getByRole('link', { name: 'alerts', exact: true }).waitFor();
    await opsSection.getByRole('button', { name: '1 unread in alerts: mark as read' }).waitFor();
    assert.equal(await opsSection.getByRole('link', { name: 'noise', exact: true }).count(), 0);
    // Muting it again (back to the channel's default) takes it out.
    await choose(opsSection, 'alerts', 'Mute topic');
    await eventually(async () => (await opsPolicy('alerts')) === 0);
    await opsSection.waitFor({ state: 'detached' });

    // Shift+M on a message does the same: in a muted channel it unmutes (policy 2), then mutes back (none).
    await page.goto(`${ts.url}/#narrow/channel/${opsId}-ops/topic/noise`);
    await page.getByText('cron ran').waitFor();
    await feedHeader().getByTitle('You muted this topic').waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('j');
    await page.locator('li.message[aria-current="true"]').waitFor();
    await page.keyboard.press('Shift+M');
    await page.getByRole('status').filter({ hasText: /^Unmuted #ops > noise$/ }).waitFor();
    await eventually(async () => (await opsPolicy('noise')) === 2);
    await feedHeader().getByTitle('You muted this topic').waitFor({ state: 'detached' });
    await page.keyboard.press('Shift+M');
    await page.getByRole('status').filter({ hasText: /^Muted #ops > noise$/ }).waitFor();
    await eventually(async () => (await opsPolicy('noise')) === 0);
    await feedHeader().getByTitle('You muted this topic').waitFor();
  });

  test('screenshots: the open menu at 1280 and 390 px, light and dark', async () => {
    await page.goto(`${ts.url}/#inbox`);
    await sendStream(melApi, 'general', 'budget', 'final numbers');
    await inbox().getByRole('link', { name: 'budget', exact: true }).waitFor();
    await page.goto(topicUrl('lunch'));
    await choose(feedHeader(), 'lunch', 'Follow topic');
    await eventually(async () => (await policyOf('lunch')) === 3);
    for (const [w, theme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
      await page.setViewportSize({ width: w, height: w === 390 ? 844 : 800 });
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(topicUrl('lunch'));
      await page.waitForTimeout(300);
      await menuButton(feedHeader(), 'lunch').click();
      await menu().waitFor();
      await p.shot(`topic-menu-header-${w}-${theme}`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing scrolls sideways');
      const box = (await menu().boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= w, 'the menu fits in the window');
      assert.deepEqual(await axeViolations(page, ['.topic-menu']), [], `axe-core: ${w} ${theme}`);
      await page.keyboard.press('Escape');
      if (w === 390) {
        // In the phone's drawer: the menu opens over it, inside the window; Escape closes the menu, not the drawer.
        await page.getByRole('button', { name: 'Channels and conversations' }).click();
        await page.waitForTimeout(300); // the drawer's opening transition
        await menuButton(sidebar(), 'lunch').click();
        await menu().waitFor();
        const inDrawer = (await menu().boundingBox())!;
        assert.ok(inDrawer.x >= 0 && inDrawer.x + inDrawer.width <= w && inDrawer.y + inDrawer.height <= 844, 'the menu fits in the window');
        await p.shot(`topic-menu-drawer-${w}-${theme}`);
        await page.keyboard.press('Escape');
        await menu().waitFor({ state: 'detached' });
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Topic actions for lunch');
        await sidebar().getByRole('link', { name: 'Inbox' }).click();
      }
      if (w === 1280) {
        await menuButton(sidebar(), 'lunch').click();
        await menu().waitFor();
        await p.shot(`topic-menu-sidebar-${w}-${theme}`);
        await page.keyboard.press('Escape');
        await page.goto(`${ts.url}/#recent`);
        await menuButton(recent(), 'lunch').click();
        await menu().waitFor();
        await p.shot(`topic-menu-recent-${w}-${theme}`);
        await page.keyboard.press('Escape');
        await page.goto(`${ts.url}/#inbox`);
        await sendStream(melApi, 'general', 'budget', `numbers for the ${theme} picture`); // the channel's feed below reads them
        await menuButton(inbox(), 'budget').hover();
        await p.shot(`topic-menu-inbox-${w}-${theme}`);
        await page.goto(`${ts.url}/#narrow/channel/${generalId}-general`);
        await menuButton(page.locator('li.conv'), 'lunch').last().click();
        await menu().waitFor();
        await p.shot(`topic-menu-channel-${w}-${theme}`);
        await page.keyboard.press('Escape');
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1024, height: 768 });
    assert.deepEqual(p.errors, []);
  });
});
