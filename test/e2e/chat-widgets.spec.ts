/**
 * Polls and to-do lists in the chat (issue 30, part 3): two people in one topic, each in their own
 * browser. The widget shows in place of the `/poll` text; each sees the other's votes (counts and
 * names), new options, ticks and tasks live; only the author edits the question; a vote the server
 * refuses is said in the widget; compose's "Add a poll" and "Add a to-do list" make them. Every step
 * is checked on the page and in what the server stores (GET /messages submessages). Screenshots at
 * 1280 and 390 px, light and dark: test-results/admin-ui/chat-widgets-*.png; axe-core on the widgets.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import type { Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendStream } from '../helpers/messages.js';
import type { Account } from '../helpers/server.js';

type Sub = { id: number; sender_id: number; msg_type: string; content: string };

test.describe('polls and to-do lists', () => {
  let mel: Account;
  let generalId: number;
  let pollId: number;
  let todoId: number;
  let b: TestPage;
  const s = chatSuite(async (ts) => {
    mel = await ts.addUser('Mel');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    pollId = await sendStream(ts.ownerClient, 'general', 'plans', '/poll Lunch?\nPizza\nSoup');
    todoId = await sendStream(ts.ownerClient, 'general', 'plans', '/todo Release\nTag: v1.2\nAnnounce');
  });

  const a = () => s.p.page;
  const poll = (p: Page) => p.locator(`li.message[data-id="${pollId}"] .poll-widget`);
  const todo = (p: Page) => p.locator(`li.message[data-id="${todoId}"] .todo-widget`);
  const vote = (p: Page, option: string) => poll(p).getByRole('button', { name: new RegExp(`^Vote for ${option}:`) });
  const openTopic = async (p: Page) => {
    await p.goto(`${s.ts.url}/#narrow/channel/${generalId}-general/topic/plans`);
    await p.getByRole('heading', { name: '#general > plans', exact: true }).waitFor();
  };
  /** The message's submessages as the server stores them (content parsed). */
  const stored = async (id: number) => {
    const body = await fetchMessages(s.ts.ownerClient, { anchor: String(id), num_before: 0, num_after: 0, include_anchor: true });
    const m = (body.messages as { id: number; submessages: Sub[] }[]).find((x) => x.id === id)!;
    return m.submessages.map((x) => ({ sender: x.sender_id, data: JSON.parse(x.content) as Record<string, unknown> }));
  };

  test.beforeAll(async () => {
    b = await s.open(mel);
    await openTopic(a());
    await openTopic(b.page);
  });

  test('a poll shows as a poll, not as its /poll text', async () => {
    for (const p of [a(), b.page]) {
      await poll(p).getByText('Lunch?', { exact: true }).waitFor();
      assert.equal(await p.locator(`li.message[data-id="${pollId}"]`).getByText('/poll').count(), 0);
      assert.equal(await vote(p, 'Pizza').getAttribute('aria-pressed'), 'false');
      assert.equal((await vote(p, 'Soup').textContent())?.trim(), '0');
    }
    // Only the author may edit the question.
    assert.equal(await poll(a()).getByRole('button', { name: 'Edit question' }).count(), 1);
    assert.equal(await poll(b.page).getByRole('button', { name: 'Edit question' }).count(), 0);
    const [widget] = await stored(pollId);
    assert.deepEqual(widget!.data, { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Soup'] } });
  });

  test('two people vote; each sees the other’s vote live, with counts and names', async () => {
    await vote(a(), 'Pizza').click();
    await eventually(async () => (await vote(b.page, 'Pizza').textContent())?.trim() === '1');
    await poll(b.page).getByText('(Olive Owner)').waitFor();
    assert.equal(await vote(b.page, 'Pizza').getAttribute('aria-pressed'), 'false', 'the owner’s vote is not Mel’s');
    await vote(b.page, 'Pizza').press('Enter'); // from the keyboard
    for (const p of [a(), b.page]) {
      await eventually(async () => (await vote(p, 'Pizza').textContent())?.trim() === '2');
      await poll(p).getByText('(Olive Owner, Mel)').waitFor();
      assert.match((await vote(p, 'Pizza').getAttribute('aria-label'))!, /^Vote for Pizza: 2 votes$/);
    }
    assert.equal(await vote(a(), 'Pizza').getAttribute('aria-pressed'), 'true');
    assert.equal(await vote(b.page, 'Pizza').getAttribute('aria-pressed'), 'true');
    // Mel takes hers back; the owner sees one again.
    await vote(b.page, 'Pizza').click();
    await eventually(async () => (await vote(a(), 'Pizza').textContent())?.trim() === '1');
    const votes = (await stored(pollId)).slice(1).map((x) => [x.sender, x.data]);
    assert.deepEqual(votes, [
      [s.ts.owner.id, { type: 'vote', key: 'canned,0', vote: 1 }],
      [mel.id, { type: 'vote', key: 'canned,0', vote: 1 }],
      [mel.id, { type: 'vote', key: 'canned,0', vote: -1 }],
    ]);
  });

  test('an option one adds shows for the other, who can vote for it', async () => {
    const field = poll(b.page).getByRole('textbox', { name: 'New option' });
    await field.fill('Tacos');
    await field.press('Enter');
    await vote(a(), 'Tacos').waitFor();
    await vote(a(), 'Tacos').click();
    await eventually(async () => (await vote(b.page, 'Tacos').textContent())?.trim() === '1');
    // A second option of the same text is refused on the page, before anything is sent.
    await field.fill('Soup');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await field.fill('');
    const events = (await stored(pollId)).map((x) => x.data);
    assert.deepEqual(events.at(-2), { type: 'new_option', idx: 1, option: 'Tacos' });
    assert.deepEqual(events.at(-1), { type: 'vote', key: `${mel.id},1`, vote: 1 });
  });

  test('the author edits the question; the other sees it live', async () => {
    await poll(a()).getByRole('button', { name: 'Edit question' }).click();
    const q = poll(a()).getByRole('textbox', { name: 'Poll question' });
    assert.equal(await q.evaluate((el) => el === document.activeElement), true, 'the field has the keyboard');
    await q.fill('Lunch on Friday?');
    await q.press('Enter');
    await poll(b.page).getByText('Lunch on Friday?', { exact: true }).waitFor();
    await poll(a()).getByText('Lunch on Friday?', { exact: true }).waitFor();
    assert.equal(
      await poll(a())
        .getByRole('button', { name: 'Edit question' })
        .evaluate((el) => el === document.activeElement),
      true,
      'the keyboard is back on Edit',
    );
    assert.deepEqual((await stored(pollId)).at(-1), { sender: s.ts.owner.id, data: { type: 'question', question: 'Lunch on Friday?' } });
  });

  test('a poll sent without a question: the author gets the field (the keyboard stays put), the other a note', async () => {
    const box = a().getByRole('textbox', { name: 'Message' });
    await box.fill('/poll\nRed\nBlue');
    await box.press('Enter');
    const mine = a().locator('li.message .poll-widget').filter({ hasText: 'Red' });
    const field = mine.getByRole('textbox', { name: 'Poll question' });
    await field.waitFor();
    assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'the compose box keeps the keyboard');
    const theirs = b.page.locator('li.message .poll-widget').filter({ hasText: 'Red' });
    await theirs.getByText('We are about to have a poll. Please wait for the question.').waitFor();
    await field.fill('Which colour?');
    await field.press('Enter');
    await theirs.getByText('Which colour?', { exact: true }).waitFor();
    await theirs.getByText('Please wait for the question.').waitFor({ state: 'detached' });
  });

  test('a vote the server refuses is said in the poll, not dropped', async () => {
    // The request rewritten on its way to an option key that does not exist: the server's 400 is real.
    await b.page.route('**/json/submessage', (route) => {
      const body = new URLSearchParams(route.request().postData() ?? '');
      body.set('content', JSON.stringify({ type: 'vote', key: 'nobody,9', vote: 1 }));
      return route.continue({ postData: body.toString() });
    });
    await vote(b.page, 'Soup').click();
    const alert = poll(b.page).getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent())!, /^Your vote was not saved\. Hearth refused it: .+/);
    await b.page.unroute('**/json/submessage');
    assert.equal((await vote(b.page, 'Soup').textContent())?.trim(), '0');
    // The next vote that works clears it.
    await vote(b.page, 'Soup').click();
    await alert.waitFor({ state: 'detached' });
    await eventually(async () => (await vote(a(), 'Soup').textContent())?.trim() === '1');
  });

  test('a task ticked by one is ticked for the other; a new task with its description shows for both', async () => {
    for (const p of [a(), b.page]) await todo(p).getByText('Release', { exact: true }).waitFor();
    const tag = (p: Page) => todo(p).getByRole('checkbox', { name: 'Tag: v1.2' });
    assert.equal(await tag(a()).isChecked(), false);
    await tag(b.page).check();
    await eventually(() => tag(a()).isChecked());
    assert.equal(await tag(b.page).isChecked(), true);
    // The owner unticks it from the keyboard.
    await tag(a()).focus();
    await a().keyboard.press('Space');
    await eventually(async () => !(await tag(b.page).isChecked()));
    await tag(a()).check();
    await eventually(() => tag(b.page).isChecked());

    await todo(a()).getByRole('textbox', { name: 'New task' }).fill('Blog post');
    await todo(a()).getByRole('textbox', { name: 'Task description (optional)' }).fill('after the tag');
    await todo(a()).getByRole('button', { name: 'Add task' }).click();
    const blog = todo(b.page).getByRole('checkbox', { name: 'Blog post: after the tag' });
    await blog.waitFor();
    await blog.check();
    await eventually(() => todo(a()).getByRole('checkbox', { name: 'Blog post: after the tag' }).isChecked());
    // Only the author edits the title.
    assert.equal(await todo(b.page).getByRole('button', { name: 'Edit title' }).count(), 0);
    await todo(a()).getByRole('button', { name: 'Edit title' }).click();
    await todo(a()).getByRole('textbox', { name: 'Task list title' }).fill('Release 1.2');
    await todo(a()).getByRole('textbox', { name: 'Task list title' }).press('Enter');
    await todo(b.page).getByText('Release 1.2', { exact: true }).waitFor();

    const events = (await stored(todoId)).map((x) => [x.sender, x.data]);
    assert.deepEqual(events[0], [s.ts.owner.id, { widget_type: 'todo', extra_data: { task_list_title: 'Release', tasks: [{ task: 'Tag', desc: 'v1.2' }, { task: 'Announce', desc: '' }] } }]);
    assert.deepEqual(events.slice(1), [
      [mel.id, { type: 'strike', key: '0,canned' }],
      [s.ts.owner.id, { type: 'strike', key: '0,canned' }],
      [s.ts.owner.id, { type: 'strike', key: '0,canned' }],
      [s.ts.owner.id, { type: 'new_task', key: 2, task: 'Blog post', desc: 'after the tag', completed: false }],
      [mel.id, { type: 'strike', key: `2,${s.ts.owner.id}` }],
      [s.ts.owner.id, { type: 'new_task_list_title', title: 'Release 1.2' }],
    ]);
  });

  test('the widgets at 1280 and 390 px, light and dark; axe-core finds nothing serious', async () => {
    const page = b.page;
    for (const [w, theme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
      await page.setViewportSize({ width: w, height: w === 390 ? 844 : 800 });
      await page.emulateMedia({ colorScheme: theme });
      await new Promise((r) => setTimeout(r, 300));
      await poll(page).scrollIntoViewIfNeeded();
      await b.shot(`chat-widgets-${w}-${theme}`);
      if (w === 390) {
        // Nothing wider than the phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
      }
      assert.deepEqual(await axeViolations(page, ['.poll-widget', '.todo-widget']), [], `axe-core: ${w} ${theme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1024, height: 768 });
  });

  test('compose’s "Add a poll" makes a poll; "Add a to-do list" a to-do list', async () => {
    const page = a();
    const box = page.getByRole('textbox', { name: 'Message' });
    await page.getByRole('button', { name: 'Add a poll' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a poll' });
    await dialog.waitFor();
    // No question: refused with Zulip's words.
    await dialog.getByRole('button', { name: 'Add poll' }).click();
    await dialog.getByText('Please enter a question.').waitFor();
    await dialog.getByRole('textbox', { name: 'Question' }).fill('Where to?');
    await dialog.getByRole('textbox', { name: 'Option 1' }).fill('Park');
    await dialog.getByRole('textbox', { name: 'Option 2' }).fill('Beach');
    await dialog.getByRole('textbox', { name: 'Option 3' }).fill('Museum');
    await dialog.getByRole('textbox', { name: 'Option 4' }).fill('Home'); // a row appeared for it
    await dialog.getByRole('button', { name: 'Remove option 3' }).click();
    await s.p.shot('chat-widgets-poll-dialog');
    await dialog.getByRole('button', { name: 'Add poll' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await box.inputValue(), '/poll Where to?\nPark\nBeach\nHome');
    // With text in the box the buttons are marked disabled and, pressed, say why.
    const addTodo = page.getByRole('button', { name: 'Add a to-do list' });
    assert.equal(await addTodo.getAttribute('aria-disabled'), 'true');
    await addTodo.click({ force: true });
    await page.getByRole('form', { name: 'Compose' }).getByRole('alert').getByText(/is a message of its own/).waitFor();
    await box.press('Enter');
    const made = page.locator('li.message .poll-widget').filter({ hasText: 'Where to?' });
    await made.waitFor();
    for (const o of ['Park', 'Beach', 'Home']) await made.getByRole('button', { name: new RegExp(`^Vote for ${o}:`) }).waitFor();
    const newest = await fetchMessages(s.ts.ownerClient, { narrow: [{ operator: 'channel', operand: 'general' }], num_before: 1 });
    const m = newest.messages[0] as { content: string; submessages: Sub[] };
    assert.deepEqual(JSON.parse(m.submessages[0]!.content), { widget_type: 'poll', extra_data: { question: 'Where to?', options: ['Park', 'Beach', 'Home'] } });
    await b.page.locator('li.message .poll-widget').filter({ hasText: 'Where to?' }).waitFor(); // live for Mel too

    await page.getByRole('button', { name: 'Add a to-do list' }).click();
    const td = page.getByRole('dialog', { name: 'Create a collaborative to-do list' });
    await td.getByRole('textbox', { name: 'Task 1', exact: true }).fill('Book tickets');
    await td.getByRole('textbox', { name: 'Task 1 description (optional)' }).fill('before Friday');
    await td.getByRole('textbox', { name: 'Task 2', exact: true }).fill('Pack');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await s.p.shot('chat-widgets-todo-dialog-390-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1024, height: 768 });
    await td.getByRole('button', { name: 'Create to-do list' }).click();
    assert.equal(await box.inputValue(), '/todo Task list\nBook tickets: before Friday\nPack');
    await box.press('Enter');
    const list = page.locator('li.message .todo-widget').filter({ hasText: 'Book tickets' });
    await list.getByRole('checkbox', { name: 'Book tickets: before Friday' }).waitFor();
    await list.getByText('Task list', { exact: true }).waitFor();
    // Nothing went wrong but the sign-in probe and the one vote refused on purpose.
    const refused = (e: string) => e.includes('status of 400') && e.includes('/json/submessage');
    assert.deepEqual(s.p.errors.filter((e) => !isSessionProbe(e)), []);
    assert.deepEqual(b.errors.filter((e) => !isSessionProbe(e) && !refused(e)), []);
  });
});
