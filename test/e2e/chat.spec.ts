/**
 * The chat web client at `/` in Debian's Chromium, as two colleagues use it: sign in, a live
 * conversation between two browsers (unread counts move and clear), history paging, a direct
 * message, an upload, the server restarted with the pages open (nothing lost or doubled), a
 * 390 px phone without sideways scrolling, an axe-core scan, and signing out ending the
 * session on the server. Screenshots: test-results/admin-ui/chat-*.png.
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, TestServer } from '../helpers/server.js';
import { restart } from '../helpers/uploads.js';

const unreadBadge = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: new RegExp(`^${name}`) }).locator('.count');

test.describe('chat web client in Chromium', () => {
  const s = serialSuite();
  let browser: Browser;
  let ts: TestServer;
  let port: number;
  let a: TestPage;
  let b: TestPage;
  let mel: Account;
  let generalId: number;

  test.beforeAll(async () => {
    ({ browser, ts } = s);
    port = Number(new URL(ts.url).port);
    mel = await ts.addUser('Mel');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    // History to page through: more than one fetch's worth.
    for (let i = 1; i <= 400; i++) await sendStream(ts.ownerClient, 'general', 'history', `old message ${i}`);
    await ts.ownerClient.post('/mark_all_as_read');
    await ts.client(mel).post('/mark_all_as_read');
    a = await s.open(null);
    b = await s.open(null);
  });

  test('both people sign in; a wrong password is refused clearly', async () => {
    await a.page.goto(`${ts.url}/`);
    await a.page.getByLabel('Email').fill(ts.owner.email);
    await a.page.getByLabel('Password').fill('wrong password');
    await a.page.getByRole('button', { name: 'Sign in' }).click();
    await a.page.getByRole('alert').filter({ hasText: 'do not match' }).waitFor();
    await signIn(a.page, ts.url, ts.owner);
    await signIn(b.page, ts.url, mel);
    await a.shot('chat-inbox');
    a.errors.splice(0, a.errors.length, ...a.errors.filter((e) => !isSessionProbe(e) && !e.includes('status of 401')));
    b.errors.splice(0, b.errors.length, ...b.errors.filter((e) => !isSessionProbe(e)));
    assert.deepEqual([...a.errors, ...b.errors], []);
  });

  test('A writes in a topic, B sees it live; unread counts move and clear; B replies and A sees it', async () => {
    await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/lunch`);
    await a.page.getByRole('textbox', { name: 'Message' }).fill('Pizza at noon?');
    await a.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await a.page.getByRole('list').getByText('Pizza at noon?').waitFor();
    await unreadBadge(b.page, 'general').filter({ hasText: '1' }).waitFor();
    await b.page.getByRole('link', { name: /^general/ }).click();
    await b.page.getByRole('link', { name: /^lunch/ }).click();
    await b.page.getByText('Pizza at noon?').waitFor();
    await unreadBadge(b.page, 'general').waitFor({ state: 'detached' });
    // The server agrees: nothing unread for Mel.
    const reg = await ts.client(mel).post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    assert.equal(reg.body.unread_msgs.count, 0);
    await b.page.getByRole('textbox', { name: 'Message' }).fill('Yes, with extra cheese');
    await b.page.getByRole('button', { name: 'Send' }).click();
    await a.page.getByText('Yes, with extra cheese').waitFor();
    // Shown once each, on both sides.
    assert.equal(await a.page.getByText('Pizza at noon?').count(), 1);
    assert.equal(await b.page.getByText('Yes, with extra cheese').count(), 1);
    await b.shot('chat-topic');
  });

  test('history: older messages load when scrolling up; the page holds a bounded window of them', async () => {
    await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/history`);
    await a.page.getByText('old message 400').waitFor();
    assert.equal(await a.page.getByText('old message 1', { exact: true }).count(), 0, 'not all loaded at once');
    let most = 0;
    for (let i = 0; i < 60 && (await a.page.getByText('old message 1', { exact: true }).count()) === 0; i++) {
      await a.page.locator('.scroller').evaluate((el) => (el.scrollTop = 0));
      await a.page.waitForTimeout(150);
      most = Math.max(most, await a.page.locator('li.message').count());
    }
    await a.page.getByText('old message 1', { exact: true }).waitFor();
    await a.page.getByText('This is the beginning of the conversation.').waitFor();
    assert.ok(most <= 70, `at most 70 messages in the page at once (saw ${most})`);
    assert.equal(await a.page.getByText('old message 400').count(), 0, 'the newest left the page while reading the oldest');
    await a.page.getByRole('button', { name: 'Jump to newest' }).click();
    await a.page.getByText('old message 400').waitFor();
  });

  test('a direct message reaches the other person', async () => {
    await a.page.goto(`${ts.url}/#narrow/dm/${mel.id}`);
    await a.page.getByRole('textbox', { name: 'Message' }).fill('Just between us');
    await a.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const dmLink = b.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /^Olive Owner/ });
    await dmLink.locator('.count').waitFor();
    await dmLink.click();
    await b.page.getByText('Just between us').waitFor();
  });

  test('a file is uploaded with the button and linked in the message', async () => {
    await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/files`);
    await a.page.getByLabel('Attach files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('meeting notes') });
    await a.page.getByRole('textbox', { name: 'Message' }).waitFor();
    await eventually(async () => (await a.page.getByRole('textbox', { name: 'Message' }).inputValue()).includes('[notes.txt](/user_uploads/'));
    await a.page.getByRole('button', { name: 'Send' }).click();
    const link = a.page.getByRole('list').getByRole('link', { name: 'notes.txt' });
    await link.waitFor();
    const href = await link.getAttribute('href');
    // The file is readable with the browser's session alone.
    const body = await a.page.evaluate(async (u) => (await fetch(u!)).text(), href);
    assert.equal(body, 'meeting notes');
  });

  test('the server restarts with both pages open: they reconnect, nothing lost or doubled', async () => {
    await b.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/lunch`);
    await b.page.getByText('Yes, with extra cheese').waitFor();
    // On the same port (the pages reconnect to the same address); the suite stops the new server.
    s.ts = ts = await restart(ts, port);
    await a.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/lunch`);
    await a.page.getByRole('textbox', { name: 'Message' }).fill('Back after the restart');
    await a.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await b.page.getByText('Back after the restart').waitFor({ timeout: 30_000 });
    assert.equal(await b.page.getByText('Back after the restart').count(), 1);
    assert.equal(await b.page.getByText('Pizza at noon?').count(), 1);
    // Chromium logs the failed polls while the server was down.
    for (const t of [a, b]) t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !/ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|status of 400|status of 502|Failed to fetch/.test(e)));
  });

  test('a 390 px phone: the sidebar is a drawer, nothing scrolls sideways', async () => {
    await b.page.setViewportSize({ width: 390, height: 844 });
    await b.page.goto(`${ts.url}/#inbox`);
    await b.page.getByRole('button', { name: 'Channels and conversations' }).click();
    await b.page.getByRole('link', { name: /^general/ }).click();
    await b.page.getByRole('heading', { name: '#general' }).waitFor();
    const wide = await b.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(wide, false);
    // The drawer closed behind the choice, and is out of the tab order.
    await b.page.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'hidden' });
    await b.shot('chat-phone');
    await b.page.getByRole('button', { name: 'Channels and conversations' }).click();
    await b.page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    await b.page.waitForTimeout(300);
    await b.shot('chat-phone-drawer');
    // The open drawer covers the top bar; its own Close button closes it.
    await b.page.getByRole('button', { name: 'Close', exact: true }).click();
    await b.page.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'hidden' });
    await b.page.setViewportSize({ width: 1024, height: 768 });
  });

  test('no serious or critical axe-core violation on the sign-in, inbox, feed, channels and account pages', async () => {
    const page = (await browser.newContext({ bypassCSP: true, viewport: { width: 1024, height: 768 } })).newPage();
    const p = await page;
    await p.goto(`${ts.url}/`);
    await p.getByLabel('Email').waitFor();
    const found: string[] = (await axeViolations(p)).map((v) => `sign-in: ${v}`);
    await signIn(p, ts.url, mel);
    for (const hash of ['#inbox', `#narrow/channel/${generalId}-general/topic/lunch`, '#channels', '#settings/account', '#recent']) {
      await p.goto(`${ts.url}/${hash}`);
      await p.getByRole('main').waitFor();
      await p.waitForTimeout(300);
      found.push(...(await axeViolations(p)).map((v) => `${hash}: ${v}`));
    }
    await p.context().close();
    assert.deepEqual(found, []);
  });

  test('signing out ends the session on the server', async () => {
    const cookies = await b.context.cookies();
    const session = cookies.find((c) => c.name === 'hearth_session');
    assert.ok(session, 'the session cookie is set');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Strict');
    assert.equal(await b.page.evaluate(() => document.cookie.includes('hearth_session')), false, 'page scripts cannot read it');
    await b.page.goto(`${ts.url}/#settings/account`);
    await b.page.getByRole('navigation', { name: 'Account' }).getByRole('button', { name: 'Sign out' }).click();
    await b.page.getByRole('button', { name: 'Sign in' }).waitFor();
    const res = await fetch(`${ts.url}/json/users/me`, { headers: { cookie: `hearth_session=${session.value}` } });
    assert.equal(res.status, 401);
    b.errors.splice(0, b.errors.length, ...b.errors.filter((e) => !e.includes('status of 401')));
    // A request caught by the restart above may report its reset late.
    const late = (e: string) => /ERR_CONNECTION_RESET|ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE/.test(e);
    assert.deepEqual([...a.errors, ...b.errors].filter((e) => !late(e)), []);
  });
});

