/**
 * The chat client's compose features in Debian's Chromium, two colleagues in two browsers:
 * autocomplete in the message box (`@` people, groups and wildcards, `#channel>topic`,
 * `:emoji`), by keyboard, with the listbox named by the box's aria-activedescendant; drafts
 * saved on the server while typing, restored after a reload and listed in the Drafts view;
 * "Schedule" (send later) into the Scheduled messages view, edited, sent now and deleted;
 * reminders listed there; the video call button (Jitsi, when the organization chose it); a 390 px
 * phone; axe-core on the new views. Screenshots: test-results/admin-ui/compose-*.png.
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, TestServer } from '../helpers/server.js';

/** `YYYY-MM-DDTHH:MM` for a datetime-local input, `days` ahead at `hour`:00 local time. */
function localAt(days: number, hour: number): { input: string; ts: number } {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, hour);
  const p = (n: number) => String(n).padStart(2, '0');
  return { input: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:00`, ts: d.getTime() / 1000 };
}

test.describe('chat compose features in Chromium', () => {
  const s = serialSuite();
  let browser: Browser;
  let ts: TestServer;
  let a: TestPage;
  let b: TestPage;
  let mel: Account;
  let generalId: number;

  const box = (p: Page) => p.getByRole('textbox', { name: 'Message' });
  const suggestions = (p: Page) => p.getByRole('listbox', { name: 'Suggestions' });
  const topicUrl = (topic: string) => `${ts.url}/#narrow/channel/${generalId}-general/topic/${encodeURIComponent(topic)}`;
  /** Opens a topic and waits until its view (and compose box) is the one shown. */
  const openTopic = async (p: Page, topic: string) => {
    await p.goto(topicUrl(topic));
    await p.getByRole('heading', { name: `#general > ${topic}`, exact: true }).waitFor();
  };
  const serverDrafts = async () => (await ts.ownerClient.get('/drafts')).body.drafts as { id: number; content: string; topic: string; to: number[] }[];
  const serverScheduled = async () =>
    (await ts.ownerClient.get('/scheduled_messages')).body.scheduled_messages as { scheduled_message_id: number; content: string; scheduled_delivery_timestamp: number }[];

  test.beforeAll(async () => {
    ({ browser, ts } = s);
    mel = await ts.addUser('Mel');
    const sam1 = await ts.addUser('Sam');
    const sam2 = await ts.addUser('Sam');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id, sam1.id, sam2.id] });
    await sendStream(ts.ownerClient, 'general', 'lunch', 'Where shall we eat?');
    await sendStream(ts.ownerClient, 'general', 'planning', 'Next quarter');
    const group = await ts.ownerClient.post('/user_groups/create', { name: 'cooks', description: 'The kitchen crew', members: [mel.id] });
    assert.equal(group.status, 200, JSON.stringify(group.body));
    await ts.ownerClient.post('/mark_all_as_read');
    await ts.client(mel).post('/mark_all_as_read');
    a = await s.open(null);
    b = await s.open(null);
  });

  test('both sign in', async () => {
    await signIn(a.page, ts.url, ts.owner);
    await signIn(b.page, ts.url, mel);
    for (const t of [a, b]) t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !isSessionProbe(e)));
  });

  test('@ suggests people, groups and wildcards; Enter chooses (never sends); the mention reaches Mel', async () => {
    await a.page.setViewportSize({ width: 1280, height: 800 });
    await openTopic(a.page, 'lunch');
    await box(a.page).click();
    await box(a.page).pressSequentially('Hi @');
    const list = suggestions(a.page);
    await list.waitFor();
    // Wildcards first (a small channel), then people and the group.
    for (const name of ['all', 'topic', 'Mel', 'cooks']) await list.getByRole('option', { name: new RegExp(`^${name}`) }).first().waitFor();
    await box(a.page).pressSequentially('Me');
    await list.getByRole('option', { name: /^Mel/ }).waitFor();
    assert.equal(await list.getByRole('option', { name: /^cooks/ }).count(), 0, 'the group does not match "Me"');
    const active = await box(a.page).getAttribute('aria-activedescendant');
    assert.ok(active, 'the box names the active option');
    assert.equal(await a.page.locator(`#${active}`).getAttribute('aria-selected'), 'true');
    assert.match((await a.page.locator(`#${active}`).textContent()) ?? '', /^Mel/);
    await a.shot('compose-autocomplete-1280');
    await box(a.page).press('Enter');
    assert.equal(await box(a.page).inputValue(), 'Hi @**Mel** ', 'Enter chose the person instead of sending');
    await list.waitFor({ state: 'detached' });
    assert.equal(await box(a.page).getAttribute('aria-activedescendant'), null);
    // Same names get the ID too; Escape closes the list.
    await box(a.page).pressSequentially('and @Sa');
    await list.getByRole('option', { name: /^Sam/ }).nth(1).waitFor();
    await box(a.page).press('ArrowDown');
    await box(a.page).press('Tab');
    assert.match(await box(a.page).inputValue(), /^Hi @\*\*Mel\*\* and @\*\*Sam\|\d+\*\* $/);
    await box(a.page).pressSequentially('and @*coo');
    await list.getByRole('option', { name: /^cooks/ }).waitFor();
    await box(a.page).press('Escape');
    await list.waitFor({ state: 'detached' });
    await box(a.page).fill('Hi @Me');
    await list.getByRole('option', { name: /^Mel/ }).click();
    await box(a.page).pressSequentially('lunch is ready');
    await box(a.page).press('Enter');
    const sent = a.page.getByRole('list').locator('li.message', { hasText: 'lunch is ready' });
    await sent.locator('.user-mention', { hasText: 'Mel' }).waitFor();
    const mentions = b.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /^Mentions/ }).locator('.count');
    await mentions.filter({ hasText: '1' }).waitFor();
  });

  test('#channel then > suggests its topics and inserts a topic link', async () => {
    await openTopic(a.page, 'links');
    await box(a.page).click();
    await box(a.page).pressSequentially('See #gen');
    await suggestions(a.page).getByRole('option', { name: /^general/ }).waitFor();
    await box(a.page).press('Enter');
    assert.equal(await box(a.page).inputValue(), 'See #**general** ');
    await box(a.page).pressSequentially('>');
    const topics = suggestions(a.page);
    await topics.getByRole('option', { name: /^planning/ }).waitFor();
    await box(a.page).pressSequentially('lun');
    await topics.getByRole('option', { name: /^lunch/ }).waitFor();
    assert.equal(await topics.getByRole('option').count(), 1);
    await box(a.page).press('Tab');
    assert.equal(await box(a.page).inputValue(), 'See #**general>lunch** ');
    await box(a.page).press('Enter');
    const link = a.page.getByRole('list').locator('li.message a', { hasText: 'general > lunch' });
    await link.waitFor();
    assert.match((await link.getAttribute('href')) ?? '', /topic\/lunch/);
  });

  test(':emoji suggests emoji names from the server data and inserts :name:', async () => {
    await box(a.page).click();
    await box(a.page).pressSequentially('Nice :thumbs');
    const list = suggestions(a.page);
    await list.getByRole('option', { name: /:thumbs_up:/ }).waitFor();
    await list.getByRole('option', { name: /:thumbs_down:/ }).waitFor();
    const options = await list.getByRole('option').allTextContents();
    const up = options.findIndex((o) => o.includes(':thumbs_up:'));
    for (let i = 0; i < up; i++) await box(a.page).press('ArrowDown');
    await box(a.page).press('Enter');
    assert.equal(await box(a.page).inputValue(), 'Nice :thumbs_up: ');
    await box(a.page).press('Enter');
    await a.page.getByRole('list').locator('li.message', { hasText: 'Nice' }).locator('.emoji').first().waitFor();
  });

  test('a draft is saved on the server while typing, comes back after a reload, and is listed in Drafts', async () => {
    await openTopic(a.page, 'drafty');
    await box(a.page).click();
    await box(a.page).pressSequentially('Remember the milk');
    const saved = await eventually(async () => (await serverDrafts()).find((d) => d.content === 'Remember the milk'), 'the draft on the server');
    assert.equal(saved.topic, 'drafty');
    assert.deepEqual(saved.to, [generalId]);
    // Edited: the same draft is updated, not a second one made.
    await box(a.page).pressSequentially(' and eggs');
    await eventually(async () => (await serverDrafts()).find((d) => d.id === saved.id && d.content === 'Remember the milk and eggs'), 'the draft updated');
    assert.equal((await serverDrafts()).length, 1);
    await a.page.reload();
    await box(a.page).waitFor();
    await openTopic(a.page, 'lunch');
    await eventually(async () => (await box(a.page).inputValue()) === '', 'another conversation, another (empty) box');
    await openTopic(a.page, 'drafty');
    await eventually(async () => (await box(a.page).inputValue()) === 'Remember the milk and eggs', 'the draft restored');
    await a.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /^Drafts/ }).click();
    await a.page.getByRole('heading', { name: 'Drafts' }).waitFor();
    const row = a.page.getByRole('list', { name: 'Drafts' }).getByRole('listitem').filter({ hasText: 'Remember the milk and eggs' });
    await row.getByText('#general > drafty', { exact: true }).waitFor();
    await a.shot('compose-drafts-1280');
    await row.getByRole('button', { name: 'Restore draft to #general > drafty' }).click();
    await a.page.getByRole('heading', { name: '#general > drafty' }).waitFor();
    await eventually(async () => (await box(a.page).inputValue()) === 'Remember the milk and eggs', 'restored from the Drafts view');
    // Sending deletes it.
    await box(a.page).press('Enter');
    await eventually(async () => (await serverDrafts()).length === 0, 'the draft deleted on send');
    // Deleting from the Drafts view.
    await openTopic(a.page, 'second');
    await box(a.page).pressSequentially('Another thought');
    await eventually(async () => (await serverDrafts()).length === 1, 'a second draft');
    await a.page.goto(`${ts.url}/#drafts`);
    await a.page.getByRole('button', { name: 'Delete draft to #general > second' }).click();
    await eventually(async () => (await serverDrafts()).length === 0, 'deleted from the Drafts view');
    await a.page.getByText('No drafts.').waitFor();
  });

  test('Schedule sends later: the Scheduled view lists it; edit time, send now, delete', async () => {
    await openTopic(a.page, 'later');
    await box(a.page).fill('Standup notes, please');
    await a.page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Schedule message' });
    await dialog.waitFor();
    await dialog.getByRole('list', { name: 'Suggested times' }).getByRole('button', { name: /^Tomorrow at/ }).first().waitFor();
    const when = localAt(2, 10);
    await dialog.getByLabel('Custom time').fill(when.input);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await a.page.getByRole('status').filter({ hasText: 'Scheduled for' }).waitFor();
    assert.equal(await box(a.page).inputValue(), '');
    const [s] = await eventually(async () => {
      const list = await serverScheduled();
      return list.length === 1 && list;
    }, 'scheduled on the server');
    assert.equal(s!.content, 'Standup notes, please');
    assert.equal(s!.scheduled_delivery_timestamp, when.ts);
    await a.page.getByRole('link', { name: 'View scheduled messages' }).click();
    await a.page.getByRole('heading', { name: 'Scheduled messages' }).waitFor();
    const row = a.page.getByRole('list', { name: 'Scheduled messages' }).getByRole('listitem').filter({ hasText: 'Standup notes, please' });
    await row.getByText('#general > later', { exact: true }).waitFor();
    // A reminder (set through the API: "Remind me" lives in the message menu) is listed too.
    const target = await sendStream(ts.ownerClient, 'general', 'lunch', 'Book the room');
    const rem = await ts.ownerClient.post('/reminders', { message_id: target, scheduled_delivery_timestamp: localAt(3, 9).ts, note: 'call them' });
    assert.equal(rem.status, 200, JSON.stringify(rem.body));
    await a.page.getByRole('list', { name: 'Reminders' }).getByRole('listitem').filter({ hasText: 'call them' }).waitFor();
    await a.shot('compose-scheduled-1280');
    // Edit the time.
    await row.getByRole('button', { name: /^Edit time/ }).click();
    const later = localAt(3, 11);
    await row.getByLabel('New time').fill(later.input);
    await row.getByRole('button', { name: 'Save time' }).click();
    await eventually(async () => (await serverScheduled())[0]?.scheduled_delivery_timestamp === later.ts, 'rescheduled');
    // Send now: the message is delivered and leaves the list.
    await row.getByRole('button', { name: /^Send now/ }).click();
    await eventually(async () => (await serverScheduled()).length === 0, 'sent now');
    await row.waitFor({ state: 'detached' });
    await openTopic(b.page, 'later');
    await b.page.getByText('Standup notes, please').waitFor();
    // Schedule another and delete it from the view; delete the reminder.
    await openTopic(a.page, 'later');
    await box(a.page).fill('Never mind');
    await a.page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.getByLabel('Custom time').fill(localAt(1, 15).input);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await eventually(async () => (await serverScheduled()).length === 1, 'scheduled again');
    await a.page.goto(`${ts.url}/#scheduled`);
    await a.page.getByRole('button', { name: 'Delete the message #general > later' }).click();
    await eventually(async () => (await serverScheduled()).length === 0, 'deleted');
    await a.page.getByRole('list', { name: 'Reminders' }).getByRole('button', { name: /^Delete reminder/ }).click();
    await eventually(async () => ((await ts.ownerClient.get('/reminders')).body.reminders as unknown[]).length === 0, 'reminder deleted');
  });

  test('Schedule refuses an empty message; Undo puts a scheduled message back in the box', async () => {
    await openTopic(a.page, 'later');
    await box(a.page).fill('');
    await a.page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await a.page.getByRole('alert').filter({ hasText: 'Write a message to schedule first.' }).waitFor();
    await box(a.page).fill('Oops, not yet');
    await a.page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Schedule message' });
    await dialog.getByLabel('Custom time').fill(localAt(1, 15).input);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await eventually(async () => (await serverScheduled()).length === 1, 'scheduled');
    await a.page.getByRole('button', { name: 'Undo' }).click();
    await eventually(async () => (await serverScheduled()).length === 0, 'unscheduled');
    await eventually(async () => (await box(a.page).inputValue()) === 'Oops, not yet', 'the text back in the box');
    await box(a.page).fill('');
  });

  test('the video call button inserts a Jitsi link (the organization chose Jitsi)', async () => {
    // New organizations get Hearth's own calls (calls.spec.ts); Jitsi is an administrator's choice.
    const jitsi = await ts.ownerClient.patch('/realm', { video_chat_provider: 1 });
    assert.equal(jitsi.status, 200, JSON.stringify(jitsi.body));
    await openTopic(a.page, 'call');
    await a.page.getByRole('button', { name: 'Voice call' }).waitFor({ state: 'detached' });
    await box(a.page).fill('Quick call?');
    await a.page.getByRole('button', { name: 'Video call' }).click();
    await eventually(async () => /^Quick call\?\n\[Join video call\]\(https:\/\/meet\.jit\.si\/[^)]+\)$/.test(await box(a.page).inputValue()), 'the call link');
    await box(a.page).press('Enter');
    await a.page.getByRole('list').getByRole('link', { name: 'Join video call' }).waitFor();
    // No provider, no button (live, from the realm event).
    const off = await ts.ownerClient.patch('/realm', { video_chat_provider: 0 });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    await a.page.getByRole('button', { name: 'Video call' }).waitFor({ state: 'detached' });
    await ts.ownerClient.patch('/realm', { video_chat_provider: 1 });
    await a.page.getByRole('button', { name: 'Video call' }).waitFor();
  });

  test('a 390 px phone: the suggestion list, Drafts and Scheduled fit without sideways scrolling', async () => {
    await a.page.setViewportSize({ width: 390, height: 844 });
    await openTopic(a.page, 'phone');
    await box(a.page).click();
    await box(a.page).pressSequentially('Hey @');
    await suggestions(a.page).getByRole('option', { name: /^Mel/ }).waitFor();
    const wide = () => a.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(await wide(), false);
    const listBox = await suggestions(a.page).boundingBox();
    assert.ok(listBox && listBox.x >= 0 && listBox.x + listBox.width <= 390, 'the list is on screen');
    await a.shot('compose-autocomplete-390');
    await box(a.page).fill('Phone draft text');
    await eventually(async () => (await serverDrafts()).some((d) => d.content === 'Phone draft text'), 'phone draft');
    await openTopic(a.page, 'phone later');
    await box(a.page).fill('Scheduled from the phone');
    await a.page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Schedule message' });
    await dialog.waitFor();
    await a.shot('compose-schedule-dialog-390');
    await dialog.getByLabel('Custom time').fill(localAt(1, 15).input);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await eventually(async () => (await serverScheduled()).length === 1, 'scheduled from the phone');
    await a.page.goto(`${ts.url}/#drafts`);
    await a.page.getByRole('heading', { name: 'Drafts' }).waitFor();
    assert.equal(await wide(), false);
    await a.shot('compose-drafts-390');
    await a.page.goto(`${ts.url}/#scheduled`);
    await a.page.getByText('Scheduled from the phone').waitFor();
    assert.equal(await wide(), false);
    await a.shot('compose-scheduled-390');
    await a.page.setViewportSize({ width: 1280, height: 800 });
  });

  test('no serious or critical axe-core violation with suggestions open, in Drafts and in Scheduled messages', async () => {
    const p = await (await browser.newContext({ bypassCSP: true, viewport: { width: 1024, height: 768 } })).newPage();
    await signIn(p, ts.url, ts.owner);
    const found: string[] = [];
    await openTopic(p, 'lunch');
    await box(p).click();
    await box(p).pressSequentially('@Me');
    await suggestions(p).waitFor();
    found.push(...(await axeViolations(p)).map((v) => `suggestions: ${v}`));
    for (const hash of ['#drafts', '#scheduled']) {
      await p.goto(`${ts.url}/${hash}`);
      await p.getByRole('main').waitFor();
      await p.waitForTimeout(300);
      found.push(...(await axeViolations(p)).map((v) => `${hash}: ${v}`));
    }
    await p.context().close();
    assert.deepEqual(found, []);
    assert.deepEqual([...a.errors, ...b.errors], []);
  });

  test('quote and reply (the message actions menu) inserts the quote at the cursor and focuses the box', async () => {
    await openTopic(a.page, 'lunch');
    await box(a.page).fill('As you asked:');
    const original = a.page.getByRole('list').locator('li.message', { hasText: 'Where shall we eat?' });
    await original.hover();
    await original.getByRole('button', { name: 'Message actions' }).click();
    await a.page.getByRole('menuitem', { name: 'Quote and reply' }).click();
    await eventually(async () => (await box(a.page).inputValue()).includes('```quote\nWhere shall we eat?\n```'), 'the quote inserted');
    const value = await box(a.page).inputValue();
    assert.match(value, /^As you asked:\n@_\*\*Olive Owner\|\d+\*\* \[said\]\([^)]+\):\n```quote\nWhere shall we eat\?\n```\n$/);
    assert.equal(await a.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message');
    await box(a.page).press('Enter');
    await a.page.getByRole('list').locator('li.message blockquote', { hasText: 'Where shall we eat?' }).waitFor();
  });
});
