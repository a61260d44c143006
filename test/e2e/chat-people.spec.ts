/**
 * People, profile cards and personal settings in the chat web client (Debian's Chromium), as
 * two colleagues use them: B's open page makes B "Active" for A; a status B sets shows for
 * A live; B's card shows role, local time and a custom profile field, and "Send a direct
 * message" opens the conversation; the dark theme applies and is stored on the server; the
 * 24-hour setting changes message times; muting a person and alert words are listed and
 * stored. Also a 390 px phone, keyboard use of the card, axe-core, and screenshots in light
 * and dark at 1280 and 390 px: test-results/admin-ui/people-*.png.
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import { openPage, type TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, TestServer } from '../helpers/server.js';

const peopleList = (page: Page) => page.getByRole('main').getByRole('list', { name: 'People' });
const personButton = (page: Page, name: string) => peopleList(page).getByRole('button', { name: new RegExp(`^${name}`) });
const card = (page: Page) => page.getByRole('dialog');

test.describe('people, profile cards and settings in Chromium', () => {
  const s = serialSuite();
  let browser: Browser;
  let ts: TestServer;
  let a: TestPage;
  let b: TestPage;
  let mel: Account;
  let generalId: number;
  let teamField: number;

  test.beforeAll(async () => {
    ({ browser, ts } = s);
    mel = await ts.addUser('Mel', 300);
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    await sendStream(ts.client(mel), 'general', 'lunch', 'Pizza at noon?');
    // Mel lives in Tokyo; the owner's organization has a "Team" field Mel filled in.
    assert.equal((await ts.client(mel).patch('/settings', { timezone: 'Asia/Tokyo' })).status, 200);
    const field = await ts.ownerClient.post('/realm/profile_fields', { name: 'Team', field_type: 1, hint: 'Your team' });
    assert.equal(field.status, 200, JSON.stringify(field.body));
    teamField = field.body.id;
    const set = await ts.client(mel).patch('/users/me/profile_data', { data: [{ id: teamField, value: 'Platform' }] });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    a = await s.open(null);
    b = await s.open(null);
  });

  test('A sees B active once B has the chat open, in words as well as colour', async () => {
    await signIn(a.page, ts.url, ts.owner);
    await a.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: 'People' }).click();
    await a.page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    await personButton(a.page, 'Mel').getByText('Offline').waitFor();
    await signIn(b.page, ts.url, mel);
    await personButton(a.page, 'Mel').getByText('Active').waitFor();
    // The server agrees: Mel reported presence.
    const presence = await ts.ownerClient.get(`/users/${mel.id}/presence`);
    assert.equal(presence.body.presence.aggregated.status, 'active');
    // The filter box narrows the list.
    await a.page.getByRole('main').getByPlaceholder('Filter people').fill('mel');
    assert.equal(await peopleList(a.page).getByRole('button').count(), 1);
    await a.page.getByRole('main').getByPlaceholder('Filter people').fill('');
  });

  test('a status B sets shows for A live, and clears', async () => {
    await b.page.goto(`${ts.url}/#settings/account`);
    const status = b.page.getByRole('region', { name: 'Status' });
    await status.getByRole('button', { name: 'In a meeting' }).click();
    await status.getByRole('button', { name: 'Save status' }).click();
    await status.getByText('Status saved.').waitFor();
    await personButton(a.page, 'Mel').getByText('In a meeting').waitFor();
    await personButton(a.page, 'Mel').getByRole('img', { name: 'calendar:' }).waitFor();
    const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['user_status'] });
    assert.equal(reg.body.user_status[String(mel.id)].status_text, 'In a meeting');
    await status.getByRole('button', { name: 'Clear status' }).click();
    await personButton(a.page, 'Mel').getByText('In a meeting').waitFor({ state: 'detached' });
    await status.getByText('Status cleared.').waitFor();
    // Set again for the screenshots. A change from another device while B types does not
    // wipe what B typed.
    await status.getByRole('textbox', { name: 'Status' }).fill('Reviewing the roadmap');
    assert.equal((await ts.client(mel).post('/users/me/status', { status_text: 'On the phone' })).status, 200);
    await personButton(a.page, 'Mel').getByText('On the phone').waitFor();
    // B's page has the event once "Clear status" is enabled again.
    await eventually(() => status.getByRole('button', { name: 'Clear status' }).isEnabled());
    assert.equal(await status.getByRole('textbox', { name: 'Status' }).inputValue(), 'Reviewing the roadmap');
    await status.getByRole('button', { name: 'Save status' }).click();
    await personButton(a.page, 'Mel').getByText('Reviewing the roadmap').waitFor();
  });

  test("B's profile card: role, local time, a custom field; Esc closes and focus returns; DM opens", async () => {
    // By keyboard: ↓ moves from one person to the next, Enter opens the card.
    await personButton(a.page, 'Olive Owner').focus();
    await a.page.keyboard.press('ArrowDown');
    assert.match((await a.page.evaluate(() => document.activeElement?.textContent)) ?? '', /^Mel/);
    await a.page.keyboard.press('Enter');
    const dialog = card(a.page);
    await dialog.getByRole('heading', { name: 'Mel' }).waitFor();
    assert.equal(await dialog.getAttribute('aria-labelledby'), 'profile-card-name');
    await dialog.getByText('Moderator').waitFor();
    await dialog.getByText('Active').waitFor();
    await dialog.getByText('Reviewing the roadmap').waitFor();
    const fmt = (d: Date) => new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', hour: 'numeric', minute: '2-digit', hourCycle: 'h12' }).format(d);
    const shown = (await dialog.locator('dd').filter({ hasText: 'Asia/Tokyo' }).textContent()) ?? '';
    const now = Date.now();
    assert.ok([fmt(new Date(now)), fmt(new Date(now - 60_000))].some((t) => shown.includes(t)), `local time in Tokyo: ${shown}`);
    await dialog.locator('dt', { hasText: 'Team' }).waitFor();
    await dialog.locator('dd', { hasText: 'Platform' }).waitFor();
    await a.shot('people-card-1024');
    // Keyboard: Tab stays in the dialog, Esc closes, focus returns to the person.
    for (let i = 0; i < 8; i++) {
      await a.page.keyboard.press('Tab');
      assert.equal(await a.page.evaluate(() => Boolean(document.activeElement?.closest('dialog'))), true, 'focus stays in the card');
    }
    await a.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.match((await a.page.evaluate(() => document.activeElement?.textContent)) ?? '', /^Mel/);
    // Enter on the focused person opens the card again; "Send a direct message" goes to the DM.
    await a.page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Send a direct message' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventually(async () => (await a.page.evaluate(() => location.hash)) === `#narrow/dm/${mel.id}`);
    await a.page.getByRole('textbox', { name: 'Message' }).waitFor();
  });

  test("a message's sender opens their card", async () => {
    await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/lunch`);
    await a.page.getByText('Pizza at noon?').waitFor();
    await a.page.getByRole('button', { name: 'Mel', exact: true }).first().click();
    await card(a.page).getByText('Moderator').waitFor();
    await card(a.page).getByRole('button', { name: 'Close' }).click();
    await card(a.page).waitFor({ state: 'detached' });
  });

  test('dark theme applies at once and is stored on the server; light overrides it back', async () => {
    const background = () => a.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await a.page.goto(`${ts.url}/#settings/preferences`);
    const theme = a.page.getByRole('group', { name: 'Theme' });
    await theme.getByLabel('Light').check();
    await eventually(async () => (await ts.ownerClient.get('/settings')).body.user_settings.color_scheme === 3);
    const light = await background();
    await theme.getByLabel('Dark').check();
    await eventually(async () => (await background()) !== light);
    assert.equal(await background(), 'rgb(27, 26, 25)');
    await eventually(async () => (await ts.ownerClient.get('/settings')).body.user_settings.color_scheme === 2);
    // Another page of the same person follows (the user_settings event).
    const other = await openPage(browser, ts.url);
    await signIn(other.page, ts.url, ts.owner);
    assert.equal(await other.page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await other.close();
    await theme.getByLabel('Light').check();
    await eventually(async () => (await background()) === light);
  });

  test('24-hour time changes the times shown on messages', async () => {
    const timeOfMessage = async () => {
      await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/lunch`);
      await a.page.getByText('Pizza at noon?').waitFor();
      return (await a.page.locator('li.message .sender time').first().textContent()) ?? '';
    };
    assert.match(await timeOfMessage(), /(AM|PM)/);
    await a.page.goto(`${ts.url}/#settings/preferences`);
    await a.page.getByRole('group', { name: 'Time format' }).getByLabel(/24-hour/).check();
    await eventually(async () => (await ts.ownerClient.get('/settings')).body.user_settings.twenty_four_hour_time === true);
    assert.match(await timeOfMessage(), /^\d{1,2}:\d{2}$/);
    await a.page.goto(`${ts.url}/#settings/preferences`);
    await a.page.getByRole('group', { name: 'Time format' }).getByLabel(/12-hour/).check();
    await eventually(async () => (await ts.ownerClient.get('/settings')).body.user_settings.twenty_four_hour_time === false);
  });

  test('allowing administrators to export my private data (for moving to Zulip) is stored on the server', async () => {
    await a.page.goto(`${ts.url}/#settings/preferences`);
    const consent = a.page.getByRole('region', { name: 'Privacy' }).getByLabel(/Let administrators export my private data/);
    assert.equal(await consent.isChecked(), false);
    await consent.check();
    await eventually(async () => (await ts.ownerClient.get('/settings')).body.user_settings.allow_private_data_export === true);
    await consent.uncheck();
    await eventually(async () => (await ts.ownerClient.get('/settings')).body.user_settings.allow_private_data_export === false);
  });

  test('muting someone from their card lists them in Settings and on the server; unmuting clears both', async () => {
    const mutedOnServer = async () => (await ts.ownerClient.post('/register', { fetch_event_types: ['muted_users'] })).body.muted_users.map((m: { id: number }) => m.id);
    await a.page.goto(`${ts.url}/#people`);
    await personButton(a.page, 'Mel').click();
    await card(a.page).getByRole('button', { name: 'Mute this user' }).click();
    await card(a.page).getByRole('button', { name: 'Unmute this user' }).waitFor();
    await a.page.keyboard.press('Escape');
    // Mel's message is hidden in the conversation, as Zulip hides a muted sender's, until revealed.
    await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/lunch`);
    const messages = a.page.getByRole('main').getByLabel('Messages', { exact: true });
    await messages.getByText('This message was hidden because you have muted the sender.').waitFor();
    assert.equal(await messages.getByText('Pizza at noon?').count(), 0);
    assert.equal(await messages.getByText('Mel', { exact: true }).count(), 0);
    await messages.getByRole('button', { name: 'Show message' }).click();
    await messages.getByText('Pizza at noon?').waitFor();
    await a.page.goto(`${ts.url}/#settings/muted-users`);
    const list = a.page.getByRole('list', { name: 'Muted users' });
    await list.getByText('Mel', { exact: true }).waitFor();
    assert.deepEqual(await mutedOnServer(), [mel.id]);
    await list.getByRole('button', { name: 'Unmute Mel' }).click();
    await list.getByText('You have not muted anyone.').waitFor();
    assert.deepEqual(await mutedOnServer(), []);
    await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/lunch`);
    await messages.getByText('Pizza at noon?').waitFor();
    assert.equal(await messages.getByText('This message was hidden').count(), 0);
  });

  test('alert words are added and removed, and stored on the server', async () => {
    await a.page.goto(`${ts.url}/#settings/alert-words`);
    await a.page.getByLabel('New alert word').fill('deploy');
    await a.page.getByRole('button', { name: 'Add alert word' }).click();
    const list = a.page.getByRole('list', { name: 'Alert words' });
    await list.getByText('deploy', { exact: true }).waitFor();
    assert.deepEqual((await ts.ownerClient.get('/users/me/alert_words')).body.alert_words, ['deploy']);
    // A message of Mel's with the word shows it highlighted (Zulip's .alert-word); code is left alone.
    await sendStream(ts.client(mel), 'general', 'ops', 'We Deploy at five, after `deploy --dry-run`.');
    await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/ops`);
    const messages = a.page.getByRole('main').getByLabel('Messages', { exact: true });
    await messages.getByText('We Deploy at five').waitFor();
    assert.deepEqual(await messages.locator('mark').allTextContents(), ['Deploy']);
    await a.page.goto(`${ts.url}/#settings/alert-words`);
    await list.getByRole('button', { name: 'Remove deploy' }).click();
    await list.getByText('No alert words yet.').waitFor();
    assert.deepEqual((await ts.ownerClient.get('/users/me/alert_words')).body.alert_words, []);
  });

  test('per-channel notifications: a box overrides the default, Reset returns to it (null)', async () => {
    await a.page.goto(`${ts.url}/#settings/notifications`);
    const box = a.page.getByRole('checkbox', { name: 'Desktop notifications for #general' });
    assert.equal(await box.isChecked(), false);
    await box.check();
    const sub = async () => (await ts.ownerClient.get('/users/me/subscriptions')).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === generalId);
    await eventually(async () => (await sub()).desktop_notifications === true);
    await a.page.getByRole('button', { name: 'Use the default notifications for #general' }).click();
    await eventually(async () => (await sub()).desktop_notifications === null);
    await a.page.getByRole('checkbox', { name: 'Sound: Direct messages, mentions and alert words' }).uncheck();
    await eventually(async () => (await ts.ownerClient.get('/settings')).body.user_settings.enable_sounds === false);
  });

  test('screenshots at 1280 and 390 px, light and dark; nothing scrolls sideways on a phone', async () => {
    for (const width of [1280, 390]) {
      await a.page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
      for (const [scheme, name] of [[3, 'light'], [2, 'dark']] as const) {
        await ts.ownerClient.patch('/settings', { color_scheme: scheme });
        await a.page.goto(`${ts.url}/#people`);
        await eventually(async () => (await a.page.evaluate(() => document.documentElement.dataset.theme)) === name);
        await personButton(a.page, 'Mel').waitFor();
        await a.page.waitForTimeout(200);
        await a.shot(`people-${width}-${name}`);
        assert.equal(await a.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, `people ${width}`);
        await personButton(a.page, 'Mel').click();
        await card(a.page).getByText('Platform').waitFor();
        await a.shot(`people-card-${width}-${name}`);
        await a.page.keyboard.press('Escape');
        for (const tab of ['preferences', 'notifications', 'account']) {
          await a.page.goto(`${ts.url}/#settings/${tab}`);
          await a.page.getByRole('heading', { level: 1, name: /^(Settings|Your account)/ }).waitFor();
          await a.page.waitForTimeout(200);
          await a.shot(`settings-${tab}-${width}-${name}`);
          assert.equal(await a.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, `settings ${tab} ${width}`);
        }
        // A conversation: senders open cards; on wide screens the people column is beside it.
        await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/lunch`);
        await a.page.getByText('Pizza at noon?').waitFor();
        await a.page.waitForTimeout(200);
        await a.shot(`people-topic-${width}-${name}`);
      }
    }
    await ts.ownerClient.patch('/settings', { color_scheme: 1 });
    await a.page.setViewportSize({ width: 1024, height: 768 });
  });

  test('no serious or critical axe-core violation on People, the card and Settings (light and dark)', async () => {
    const p = await (await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } })).newPage();
    await signIn(p, ts.url, mel);
    const found: string[] = [];
    for (const scheme of [3, 2]) {
      await ts.client(mel).patch('/settings', { color_scheme: scheme });
      for (const hash of ['#people', '#settings/preferences', '#settings/notifications', '#settings/muted-users', '#settings/topics', '#settings/alert-words', '#settings/account']) {
        await p.goto(`${ts.url}/${hash}`);
        await p.getByRole('main').waitFor();
        await p.waitForTimeout(300);
        found.push(...(await axeViolations(p)).map((v) => `${scheme} ${hash}: ${v}`));
      }
      await p.goto(`${ts.url}/#people`);
      await p.getByRole('main').getByRole('list', { name: 'People' }).getByRole('button', { name: /^Olive Owner/ }).click();
      await p.getByRole('dialog').getByText('Owner', { exact: true }).waitFor();
      found.push(...(await axeViolations(p)).map((v) => `${scheme} card: ${v}`));
      await p.keyboard.press('Escape');
    }
    await p.context().close();
    assert.deepEqual(found, []);
    for (const t of [a, b]) t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !isSessionProbe(e)));
    assert.deepEqual([...a.errors, ...b.errors], []);
  });
});
