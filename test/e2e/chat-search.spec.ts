/**
 * Search, keyboard shortcuts and unread counts in the chat web client (Chromium): Zulip's
 * search operators from the one search box (channel:, topic:, sender:, has:link, is:starred,
 * negation, words with the server's highlighting, a bad narrow), a result opened in its
 * conversation, the shortcuts J/K/arrows/N/R/C/X/Esc/`/`/? (and nothing while typing), Inbox
 * sections folding across a reload, and a seeded random sequence of 40 actions through the
 * page and the API after each of which the page's unread counts equal the server's.
 * Screenshots: test-results/admin-ui/chat-search-*.png, chat-shortcuts-*.png.
 */
import assert from 'node:assert/strict';
import { seededRandom } from '../../server/lib/seeded-random.js';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import { openPage, type TestPage } from '../helpers/browser.js';
import { signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import type { Account, Client, TestServer } from '../helpers/server.js';

/** Runs a search from the box, as a person would: `/`, the query, Enter. */
async function search(page: Page, query: string): Promise<void> {
  await blur(page);
  await page.keyboard.press('/');
  const box = page.getByRole('search').getByRole('combobox', { name: 'Search' });
  await box.fill(query);
  await box.press('Enter');
}

/** Focus back to the page itself (no field, no message). */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
const results = (page: Page) => page.getByRole('main').locator('li.message');
const selected = (page: Page) => page.locator('li.message[aria-current="true"]');
const hashOf = (page: Page) => page.evaluate(() => decodeURIComponent(location.hash));
/** The text of the focused element's label (aria-label, label, placeholder). */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    if (!el) return '';
    return [el.getAttribute('aria-label'), ...[...(el.labels ?? [])].map((l) => l.textContent), el.getAttribute('placeholder'), el.tagName].join('|');
  });

test.describe('chat search, shortcuts and unread counts', () => {
  const s = serialSuite({ timeout: 180_000 });
  let browser: Browser;
  let ts: TestServer;
  let a: TestPage;
  let mel: Account;
  let melClient: Client;
  const channels: Record<string, number> = {};
  const ids: Record<string, number> = {};

  test.beforeAll(async () => {
    ({ browser, ts } = s);
    mel = await ts.addUser('Mel');
    melClient = ts.client(mel);
    for (const name of ['general', 'design']) channels[name] = await createChannel(ts, ts.ownerClient, name, { principals: [ts.owner.id, mel.id] });
    ids.pizza = await sendStream(ts.ownerClient, 'general', 'lunch', 'Pizza at noon?');
    ids.cheese = await sendStream(melClient, 'general', 'lunch', 'Yes, with extra cheese');
    ids.menu = await sendStream(melClient, 'general', 'links', 'The menu is at https://example.com/menu');
    ids.palette = await sendStream(ts.ownerClient, 'design', 'colors', 'The palette uses warm colors');
    ids.box = await sendStream(melClient, 'design', 'colors', 'A pizza box in those colors?');
    ids.dm = await sendDirect(melClient, [ts.owner.id], 'A secret pizza plan');
    await ts.ownerClient.post('/messages/flags', { messages: [ids.palette], op: 'add', flag: 'starred' });
    await ts.ownerClient.post('/mark_all_as_read');
    a = await s.open(null);
    await signIn(a.page, ts.url, ts.owner);
    // The signed-out page's session probe is a 401 Chromium logs.
    a.errors.length = 0;
  });

  test('search operators: channel, topic, sender, has:link, is:starred, negation, words with highlights, phrases', async () => {
    const page = a.page;
    const expect = async (query: string, present: string[], absent: string[]) => {
      await search(page, query);
      for (const text of present) await results(page).filter({ hasText: text }).first().waitFor();
      for (const text of absent) assert.equal(await results(page).filter({ hasText: text }).count(), 0, `${query}: ${text} is not a result`);
    };
    await expect('channel:general', ['Pizza at noon?', 'extra cheese', 'example.com/menu'], ['palette', 'secret pizza']);
    assert.equal(await hashOf(page), '#narrow/channel/general');
    await page.getByRole('list', { name: 'Searching for' }).getByText('channel: general').waitFor();
    await expect('topic:lunch', ['Pizza at noon?', 'extra cheese'], ['example.com/menu', 'palette']);
    await expect('channel:general topic:"lunch"', ['Pizza at noon?'], ['example.com/menu']);
    await expect('sender:me', ['Pizza at noon?', 'palette'], ['extra cheese', 'secret pizza']);
    await expect(`sender:${mel.email}`, ['extra cheese', 'secret pizza'], ['Pizza at noon?']);
    await expect('has:link', ['example.com/menu'], ['Pizza at noon?', 'extra cheese']);
    await expect('channel:general -topic:lunch', ['example.com/menu'], ['Pizza at noon?', 'extra cheese']);
    await expect('-channel:general sender:me', ['palette'], ['Pizza at noon?']);
    await expect('pizza', ['Pizza at noon?', 'pizza box', 'secret pizza'], ['extra cheese', 'palette']);
    // The server's highlighting, sanitised, in the results and the conversation headings.
    const marks = await page.getByRole('main').locator('.highlight').allTextContents();
    assert.ok(marks.length >= 3 && marks.every((m) => m.toLowerCase() === 'pizza'), `highlights: ${JSON.stringify(marks)}`);
    await expect('pizza -secret', ['Pizza at noon?', 'pizza box'], ['secret pizza']);
    await expect('"extra cheese"', ['extra cheese'], ['Pizza at noon?']);
    await expect('colors channel:design', ['palette', 'pizza box'], ['Pizza at noon?']);
    assert.ok((await page.getByRole('main').locator('.conv-heading .highlight').allTextContents()).includes('colors'), 'the topic is highlighted too');
    // is:starred names a view of its own: the starred messages.
    await search(page, 'is:starred');
    await page.getByRole('heading', { name: 'Starred messages' }).waitFor();
    await results(page).filter({ hasText: 'palette' }).waitFor();
    assert.equal(await results(page).filter({ hasText: 'Pizza at noon?' }).count(), 0);
    await expect('is:starred sender:me', ['palette'], ['pizza box']);
    // A narrow the server refuses says why.
    await search(page, 'channel:nosuchchannel');
    await page.getByRole('alert').filter({ hasText: 'This search cannot be run: unknown channel nosuchchannel' }).waitFor();
    await search(page, 'is:nonsense');
    await page.getByRole('alert').filter({ hasText: 'cannot be run' }).waitFor();
    // Back returns to the previous search (the hash holds it); the box follows.
    await page.goBack();
    await page.getByText('This search cannot be run: unknown channel nosuchchannel').waitFor();
    await page.goBack();
    await results(page).filter({ hasText: 'palette' }).waitFor();
    await eventually(async () => (await page.getByRole('combobox', { name: 'Search' }).inputValue()) === 'is:starred sender:me', 'the box shows the search', 5_000);
    // A search link works in a page of its own.
    const other = await openPage(browser, ts.url);
    await signIn(other.page, ts.url, ts.owner);
    await other.page.goto(`${ts.url}/#narrow/sender/me/search/pizza`);
    await results(other.page).filter({ hasText: 'Pizza at noon?' }).waitFor();
    await eventually(async () => (await other.page.getByRole('combobox', { name: 'Search' }).inputValue()) === 'sender:me pizza', 'the box shows the search', 5_000);
    await other.close();
    assert.deepEqual(a.errors.filter((e) => !/status of 400/.test(e)), []);
    a.errors.length = 0;
  });

  test('a result opens in its conversation at that message, selected', async () => {
    const page = a.page;
    await search(page, 'pizza');
    await page.setViewportSize({ width: 1280, height: 800 });
    await results(page).filter({ hasText: 'secret pizza' }).waitFor();
    await a.shot('chat-search-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, 'no sideways scrolling at 390 px');
    await a.shot('chat-search-390');
    await page.setViewportSize({ width: 1024, height: 768 });
    const result = results(page).filter({ hasText: 'Pizza at noon?' });
    await result.getByRole('link', { name: /open in the conversation/ }).click();
    await page.getByRole('heading', { name: '#general > lunch' }).waitFor();
    assert.match(await hashOf(page), new RegExp(`/topic/lunch/near/${ids.pizza}$`));
    await selected(page).filter({ hasText: 'Pizza at noon?' }).waitFor();
    await page.getByText('Yes, with extra cheese').waitFor();
    // The heading of a group opens the conversation too.
    await search(page, 'colors');
    await page.getByRole('main').getByRole('link', { name: /#design > colors/ }).click();
    await page.getByRole('heading', { name: '#design > colors' }).waitFor();
  });

  test('shortcuts: J/K and arrows select, I actions, : react, R/Enter reply, C new topic, X new DM, W people, Esc, / and ?, nothing while typing', async () => {
    const page = a.page;
    await page.goto(`${ts.url}/#narrow/channel/${channels.general}-general/topic/lunch`);
    await page.getByText('Yes, with extra cheese').waitFor();
    await blur(page);
    await page.keyboard.press('j');
    await selected(page).filter({ hasText: 'Pizza at noon?' }).waitFor();
    await page.keyboard.press('j');
    await selected(page).filter({ hasText: 'extra cheese' }).waitFor();
    await page.keyboard.press('k');
    await selected(page).filter({ hasText: 'Pizza at noon?' }).waitFor();
    assert.equal(await selected(page).count(), 1);
    // The selected message has focus (the arrows then work, inside the message list).
    await page.keyboard.press('ArrowDown');
    await selected(page).filter({ hasText: 'extra cheese' }).waitFor();
    await page.keyboard.press('ArrowUp');
    await selected(page).filter({ hasText: 'Pizza at noon?' }).waitFor();
    // I opens the selected message's actions menu, `:` its emoji picker; Esc closes each.
    await page.keyboard.press('i');
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: /Quote and reply/ }).waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.keyboard.press(':');
    await page.getByRole('searchbox', { name: 'Search emoji' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('searchbox', { name: 'Search emoji' }).waitFor({ state: 'detached' });
    await selected(page).filter({ hasText: 'Pizza at noon?' }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(150);
    await a.shot('chat-selected-390');
    await page.setViewportSize({ width: 1024, height: 768 });
    // Typing: the keys are letters in the box, and select nothing.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await page.keyboard.type('jkncx/?');
    assert.equal(await box.inputValue(), 'jkncx/?');
    await selected(page).filter({ hasText: 'Pizza at noon?' }).waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.match(await hashOf(page), /topic\/lunch$/);
    // Esc leaves the box, focus back on the selected message; Esc again clears the selection.
    await box.fill('');
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement?.closest('li.message')?.getAttribute('aria-current')), 'true');
    await page.keyboard.press('Escape');
    assert.equal(await selected(page).count(), 0);
    // R replies to the selected message: from the combined feed to its topic, the box focused.
    await page.keyboard.press('a');
    await page.getByRole('heading', { name: 'Combined feed' }).waitFor();
    await results(page).filter({ hasText: 'A secret pizza plan' }).waitFor();
    // Clicking a message (its text, not a link or button in it) selects it.
    await page.locator('li.message', { hasText: 'The menu is at' }).locator('.content').click({ position: { x: 3, y: 5 } });
    await selected(page).filter({ hasText: 'The menu is at' }).waitFor();
    await page.keyboard.press('r');
    await page.getByRole('heading', { name: '#general > links' }).waitFor();
    assert.match(await hashOf(page), new RegExp(`topic/links/near/${ids.menu}$`));
    await eventually(async () => /Message/.test(await focusedName(page)), 'the Message box has focus', 3_000).catch(() => undefined);
    assert.match(await focusedName(page), /Message/);
    // Enter does the same, on a direct message.
    await page.keyboard.press('Escape');
    await page.keyboard.press('a');
    await results(page).filter({ hasText: 'A secret pizza plan' }).locator('.content').click({ position: { x: 3, y: 5 } });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Mel' }).waitFor();
    assert.match(await hashOf(page), new RegExp(`#narrow/dm/${mel.id}/near/${ids.dm}$`));
    // A wait, not an assertion (as before): the focus may move later.
    await eventually(async () => /Message/.test(await focusedName(page)), 'the Message box has focus', 3_000).catch(() => undefined);
    // C: a new topic in the open conversation's channel, the Topic field focused.
    await page.keyboard.press('Escape');
    await page.goto(`${ts.url}/#narrow/channel/${channels.design}-design/topic/colors`);
    await page.getByText('The palette uses warm colors').waitFor();
    await page.locator('body').press('c');
    await page.getByRole('heading', { name: '#design', exact: true }).waitFor();
    await eventually(async () => /Topic/.test(await focusedName(page)), () => focusedName(page), 3_000);
    // X: a new direct message, the people field focused.
    await page.keyboard.press('Escape');
    await page.keyboard.press('x');
    await eventually(async () => /People|recipient/i.test(await focusedName(page)), () => focusedName(page), 3_000);
    await page.keyboard.press('Escape');
    // W: the people filter.
    await page.keyboard.press('w');
    await eventually(async () => /Filter people/.test(await focusedName(page)), () => focusedName(page), 3_000);
    await page.keyboard.press('Escape');
    // `/` focuses the search box; typing `?` there is a character; Esc clears it and leaves.
    await page.keyboard.press('/');
    const searchBox = page.getByRole('combobox', { name: 'Search' });
    assert.equal(await searchBox.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.type('what?');
    assert.equal(await searchBox.inputValue(), 'what?');
    assert.equal(await page.getByRole('dialog').count(), 0);
    await page.keyboard.press('Escape');
    assert.equal(await searchBox.inputValue(), '');
    assert.equal(await searchBox.evaluate((el) => el === document.activeElement), false);
    // Esc in a search view goes back to where the search started.
    await page.goto(`${ts.url}/#inbox`);
    await search(page, 'pizza');
    await results(page).first().waitFor();
    await page.locator('body').press('Escape');
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // ? opens the list (a labelled dialog), Esc closes it, focus returns.
    await page.goto(`${ts.url}/#narrow/channel/${channels.general}-general/topic/lunch`);
    await page.getByText('Yes, with extra cheese').waitFor();
    const opener = page.locator('.scroller[aria-label="Messages"]');
    await opener.focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    await dialog.getByText('Next unread topic').waitFor();
    await dialog.getByText('channel:general').waitFor();
    assert.equal(await dialog.evaluate((d) => d.contains(document.activeElement)), true, 'focus moves into the dialog');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: 'test-results/admin-ui/chat-shortcuts-1280.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: 'test-results/admin-ui/chat-shortcuts-390.png' });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.keyboard.press('j'); // the dialog has the keyboard
    assert.equal(await selected(page).count(), 0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Focus goes back once the dialog has closed (on a loaded machine a frame after it left the page).
    await eventually(() => opener.evaluate((el) => el === document.activeElement), 'focus returns to the message list', 2_000);
    assert.deepEqual(a.errors, []);
  });

  test('N and "Next unread topic" go through the unread topics; Inbox sections fold and stay folded', async () => {
    const page = a.page;
    await page.goto(`${ts.url}/#inbox`);
    await page.getByText('All caught up!').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Next unread topic' }).isVisible(), false, 'nothing to go to');
    await page.locator('body').press('n');
    await page.getByRole('status').filter({ hasText: 'There are no more unread topics.' }).waitFor();
    await sendStream(melClient, 'general', 'plans', 'Friday plans?');
    await sendStream(melClient, 'design', 'fonts', 'Which font?');
    const fold = page.getByRole('button', { name: '#general topics' });
    await fold.waitFor();
    await page.getByRole('button', { name: '#design topics' }).waitFor();
    // Folding a section hides its topics, across a reload.
    assert.equal(await fold.getAttribute('aria-expanded'), 'true');
    await fold.click();
    assert.equal(await fold.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('link', { name: 'plans', exact: true }).isVisible(), false);
    await page.reload();
    await page.getByRole('button', { name: '#general topics' }).waitFor();
    assert.equal(await page.getByRole('button', { name: '#general topics' }).getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('link', { name: 'fonts', exact: true }).isVisible(), true);
    await a.shot('chat-inbox-folded');
    await page.getByRole('button', { name: '#general topics' }).click();
    await page.getByRole('link', { name: 'plans', exact: true }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await a.shot('chat-inbox-390');
    await page.setViewportSize({ width: 1024, height: 768 });
    // The button and N: design (by name) first, then general.
    await page.getByRole('button', { name: 'Next unread topic' }).click();
    await page.getByRole('heading', { name: '#design > fonts' }).waitFor();
    await page.getByText('Which font?').waitFor();
    // Read (on screen for a moment), then on.
    const sidebarCount = (name: string) => page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: new RegExp(`^${name}`) }).locator('.count');
    await sidebarCount('design').waitFor({ state: 'detached' });
    await page.locator('body').press('n');
    await page.getByRole('heading', { name: '#general > plans' }).waitFor();
    await page.getByText('Friday plans?').waitFor();
    await eventually(async () => (await page.getByRole('navigation', { name: 'Conversations' }).locator('.count').count()) === 0, 'all read', 5_000);
  });

  test('message shortcuts: Shift+H edit history, Shift+V read receipts, M move, E edit, U sender, + and = reactions, V image, Ctrl+S star, Shift+M mute topic, Shift+U mark unread from here; refused ones say why', async () => {
    const page = a.page;
    const flagsOf = async (id: number) => (await ts.ownerClient.get(`/messages/${id}`)).body.message.flags as string[];
    const plain = await sendStream(ts.ownerClient, 'general', 'keys', 'Never edited');
    const edited = await sendStream(ts.ownerClient, 'general', 'keys', 'First words');
    await ts.ownerClient.patch(`/messages/${edited}`, { content: 'Second words' });
    await ts.ownerClient.post('/mark_all_as_read');
    await page.goto(`${ts.url}/#narrow/channel/${channels.general}-general/topic/keys`);
    await page.getByText('Second words').waitFor();
    await blur(page);
    await page.keyboard.press('j');
    await selected(page).filter({ hasText: 'Never edited' }).waitFor();
    await page.keyboard.press('Shift+H');
    await page.getByRole('status').filter({ hasText: 'This message has no edit history to show.' }).waitFor();
    assert.equal(await page.getByRole('dialog', { name: 'Edit history' }).count(), 0);
    await page.keyboard.press('j');
    await selected(page).filter({ hasText: 'Second words' }).waitFor();
    for (const [key, name] of [['Shift+H', 'Edit history'], ['Shift+V', 'Read receipts'], ['m', 'Move messages']] as const) {
      await page.keyboard.press(key);
      const dialog = page.getByRole('dialog', { name });
      await dialog.waitFor();
      if (name === 'Edit history') await dialog.getByText('First words').waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // Focus went back to the message's actions button, so the next key still reaches the page.
      await blur(page);
    }
    // E edits one's own message; U opens the sender's card; + reacts 👍, = takes the first reaction back.
    await page.keyboard.press('e');
    const box = page.getByRole('textbox', { name: 'Edit message' });
    await box.waitFor();
    await box.press('Escape');
    await box.waitFor({ state: 'detached' });
    await blur(page);
    await page.keyboard.press('u');
    const card = page.getByRole('dialog', { name: 'Olive Owner' });
    await card.waitFor();
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    await blur(page);
    const reactions = async () => ((await ts.ownerClient.get(`/messages/${edited}`)).body.message.reactions as { emoji_code: string }[]).map((r) => r.emoji_code);
    await page.keyboard.press('+');
    await eventually(async () => (await reactions()).join() === '1f44d', 'the 👍 is on the server', 5_000);
    await selected(page).getByRole('button', { name: /^thumbs up|^\+1/ }).waitFor();
    await page.keyboard.press('=');
    await eventually(async () => (await reactions()).length === 0, '= took it back', 5_000);
    await selected(page).getByRole('button', { name: /^thumbs up|^\+1/ }).waitFor({ state: 'detached' });
    await page.keyboard.press('=');
    await page.getByRole('status').filter({ hasText: 'This message has no reaction yet.' }).waitFor();
    await page.keyboard.press('v');
    await page.getByRole('status').filter({ hasText: 'This message has no image.' }).waitFor();
    // Ctrl+S stars (the browser's Save is not offered), and again unstars.
    await page.keyboard.press('Control+s');
    await selected(page).getByText('★ starred').waitFor();
    assert.ok((await flagsOf(edited)).includes('starred'));
    await page.keyboard.press('Control+s');
    await selected(page).getByText('★ starred').waitFor({ state: 'detached' });
    assert.ok(!(await flagsOf(edited)).includes('starred'));
    // Shift+M mutes the topic on the server, and again unmutes it.
    const mutedKeys = async () =>
      ((await ts.ownerClient.post('/register', { fetch_event_types: JSON.stringify(['user_topic']) })).body.user_topics as { topic_name: string; visibility_policy: number }[])
        .filter((t) => t.topic_name === 'keys' && t.visibility_policy === 1).length;
    await page.keyboard.press('Shift+M');
    await page.getByRole('status').filter({ hasText: 'Muted #general > keys' }).waitFor();
    assert.equal(await mutedKeys(), 1);
    // The page learns of the mute from its event queue (nothing on this page shows it); give the event a moment.
    await page.waitForTimeout(300);
    await page.keyboard.press('Shift+M');
    await page.getByRole('status').filter({ hasText: 'Unmuted #general > keys' }).waitFor();
    assert.equal(await mutedKeys(), 0);
    await page.keyboard.press('k');
    await selected(page).filter({ hasText: 'Never edited' }).waitFor();
    await page.keyboard.press('Shift+U');
    await eventually(async () => !(await flagsOf(plain)).includes('read') && !(await flagsOf(edited)).includes('read'), 'both unread on the server', 5_000);
    await ts.ownerClient.post('/mark_all_as_read');
    assert.deepEqual(a.errors, []);
  });

  test('no serious or critical axe-core violation: search results, a search error, the folded Inbox, the shortcuts dialog', async () => {
    const page = a.page;
    const found: string[] = [];
    const scan = async (what: string) => found.push(...(await axeViolations(page)).map((v) => `${what}: ${v}`));
    await search(page, 'pizza');
    await results(page).first().waitFor();
    await scan('search results');
    await search(page, 'channel:nosuchchannel');
    await page.getByRole('alert').waitFor();
    await scan('search error');
    await page.goto(`${ts.url}/#inbox`);
    await sendStream(melClient, 'general', 'axe', 'One more');
    await page.getByRole('button', { name: '#general topics' }).click();
    await scan('inbox, folded');
    await page.getByRole('button', { name: '#general topics' }).click();
    await blur(page);
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await scan('shortcuts dialog');
    await page.keyboard.press('Escape');
    await ts.ownerClient.post('/mark_all_as_read');
    assert.deepEqual(found, []);
    a.errors.splice(0, a.errors.length, ...a.errors.filter((e) => !/status of 400/.test(e)));
  });

  test('40 random steps through the page and the API: the unread counts on the page always equal the server ones', async () => {
    const page = a.page;
    const seed = Number(process.env.HEARTH_SEED ?? 20260815);
    const rand = seededRandom(seed);
    const pick = <T,>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const topics = ['alpha', 'beta', 'gamma', 'Delta'];
    const log: string[] = [];
    const owner = ts.ownerClient;
    let sent = 0;

    async function serverCounts() {
      const reg = await owner.post('/register', { fetch_event_types: ['message', 'update_message_flags', 'user_topic'] });
      assert.equal(reg.status, 200);
      const muted = new Set(
        (reg.body.user_topics as { stream_id: number; topic_name: string; visibility_policy: number }[])
          .filter((t) => t.visibility_policy === 1)
          .map((t) => `${t.stream_id}:${t.topic_name.toLowerCase()}`),
      );
      const perChannel: Record<string, number> = { general: 0, design: 0 };
      for (const s of reg.body.unread_msgs.streams as { stream_id: number; topic: string; unread_message_ids: number[] }[]) {
        if (muted.has(`${s.stream_id}:${s.topic.toLowerCase()}`)) continue;
        const name = Object.keys(channels).find((n) => channels[n] === s.stream_id)!;
        perChannel[name] = (perChannel[name] ?? 0) + s.unread_message_ids.length;
      }
      return { total: reg.body.unread_msgs.count as number, ...perChannel };
    }

    const pageCounts = () =>
      page.evaluate(() => {
        const nav = document.querySelector('nav[aria-label="Conversations"]')!;
        const count = (label: string) => {
          const a = [...nav.querySelectorAll('a')].find((x) => x.querySelector('.label')?.textContent === label);
          return Number(a?.querySelector('.count')?.textContent ?? 0);
        };
        return { total: count('Inbox'), general: count('general'), design: count('design') };
      });

    async function compare(step: number) {
      // Settled: the page and the server agree, twice in a row half a second apart.
      let last = '';
      let agreed = '';
      await eventually(async () => {
        const [p, s] = [await pageCounts(), await serverCounts()];
        last = `page ${JSON.stringify(p)} server ${JSON.stringify(s)}`;
        const now = JSON.stringify(p) === JSON.stringify(s) ? JSON.stringify(p) : '';
        const settled = now !== '' && now === agreed;
        agreed = now;
        if (now && !settled) await page.waitForTimeout(400);
        return settled;
      }, () => `seed ${seed}, step ${step}: ${last}\n${log.join('\n')}`, 8_000);
      if (process.env.HEARTH_TRACE) console.log(step, last);
    }

    const inbox = async () => {
      await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /^Inbox/ }).click();
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    };

    const actions: [number, string, () => Promise<void>][] = [
      [5, 'Mel writes in a topic', async () => {
        const ch = pick(['general', 'design']);
        const topic = pick(topics);
        await sendStream(melClient, ch, topic, `message ${++sent} in ${topic}`);
        log.push(`  Mel → ${ch} > ${topic}`);
      }],
      [2, 'Mel writes a direct message', async () => {
        await sendDirect(melClient, [ts.owner.id], `direct ${++sent}`);
      }],
      [3, 'the page opens a topic from the Inbox', async () => {
        await inbox();
        const links = page.locator('.inbox .rows a');
        const n = await links.count();
        if (!n) return;
        const link = links.nth(Math.floor(rand() * n));
        log.push(`  opens ${await link.textContent()}`);
        // The row may go meanwhile (read elsewhere): then nothing opens.
        if (await link.click({ timeout: 2_000 }).then(() => true, () => false)) await page.locator('.feed .scroller').waitFor();
      }],
      [2, 'the page marks a conversation read (its Inbox count)', async () => {
        await inbox();
        const counts = page.locator('.inbox .rows button.count');
        const n = await counts.count();
        if (n) await counts.nth(Math.floor(rand() * n)).click({ timeout: 2_000 }).catch(() => log.push('  (the row went away)'));
      }],
      [1, 'the page marks all read', async () => {
        await inbox();
        const b = page.getByRole('button', { name: 'Mark all as read' });
        if (await b.isVisible()) await b.click({ timeout: 2_000 }).catch(() => log.push('  (nothing left to mark)'));
      }],
      [1, 'the API marks all read', async () => {
        await owner.post('/mark_all_as_read');
      }],
      [1, 'the API marks a topic read', async () => {
        await owner.post('/mark_topic_as_read', { stream_id: channels[pick(['general', 'design'])], topic_name: pick(topics) });
      }],
      [2, 'the API mutes or unmutes a topic', async () => {
        const ch = pick(['general', 'design']);
        const topic = pick(topics);
        const policy = rand() < 0.6 ? 1 : 0;
        log.push(`  ${policy ? 'mutes' : 'unmutes'} ${ch} > ${topic}`);
        await owner.post('/user_topics', { stream_id: channels[ch], topic, visibility_policy: policy });
      }],
      [1, 'the API stars a message', async () => {
        const res = await owner.get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [] });
        const ms = res.body.messages as { id: number }[];
        if (ms.length) await owner.post('/messages/flags', { messages: [pick(ms).id], op: 'add', flag: 'starred' });
      }],
      [2, 'the page presses N', async () => {
        await page.locator('body').press('Escape');
        await page.keyboard.press('n');
        await page.waitForTimeout(300);
      }],
      [1, 'the owner writes from the page', async () => {
        await page.goto(`${ts.url}/#narrow/channel/${channels.general}-general/topic/${pick(topics)}`);
        const box = page.getByRole('textbox', { name: 'Message' });
        await box.fill(`from the page ${++sent}`);
        await box.press('Enter');
      }],
    ];
    const weighted = actions.flatMap((x) => Array<(typeof x)>(x[0]).fill(x));
    await page.goto(`${ts.url}/#inbox`);
    await compare(0);
    for (let step = 1; step <= 40; step++) {
      const [, name, run] = pick(weighted);
      log.push(`${step}. ${name}`);
      if (process.env.HEARTH_TRACE) console.log(log.at(-1));
      await run();
      await compare(step);
    }
    assert.deepEqual(a.errors, []);
  });
});
