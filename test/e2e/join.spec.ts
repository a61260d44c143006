/**
 * The join page an invite link opens (`/join/<key>/`) in Debian's Chromium: a colleague creates
 * their account and ends signed in to the chat (`POST /json/hearth/join` sets the HttpOnly
 * session cookie), so "Open the chat" shows the chat without signing in again; the welcome card
 * still gives the server URL and QR code for the apps. On a desktop (1280 px) and a phone
 * (390 px), nothing scrolls sideways. Screenshots: test-results/admin-ui/join-*.png.
 */
import assert from 'node:assert/strict';
import { skipWithoutChromium, test } from '../helpers/fixtures.js';
import type { Page } from 'playwright-core';
import type { TestPage } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test.describe('join page in Chromium', () => {
  // Each test on its own server (the ts fixture), with a page (pageAs) of the shared Chromium.
  test.describe.configure({ timeout: 60_000 });
  skipWithoutChromium();

  /** Makes an invite link, opens it at this width, creates the account, and checks the welcome card. */
  async function join(ts: TestServer, t: TestPage, width: number, who: { name: string; email: string }): Promise<void> {
    const made = await ts.ownerClient.post('/invites/multiuse', { invite_expires_in_minutes: 60 });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const link = made.body.invite_link as string;
    const { page } = t;
    await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Join Test Org' }).waitFor();
    assert.equal(await scrollsSideways(page), false, `join form at ${width} px`);
    await t.shot(`join-form-${width}`);
    await page.getByLabel('Your name').fill(who.name);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(`${who.name} password`);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
    await page.getByText(ts.url, { exact: true }).waitFor();
    await page.getByRole('img', { name: `QR code for ${ts.url}` }).waitFor();
    assert.equal(await scrollsSideways(page), false, `welcome card at ${width} px`);
    await t.shot(`join-welcome-${width}`);

    // Signed in by an HttpOnly cookie; nothing credential-like the page can read.
    const cookie = (await t.context.cookies()).find((c) => c.name === 'hearth_session');
    assert.ok(cookie, 'joining set the session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    const readable = await page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie]);
    assert.deepEqual(readable, [0, 0, '']);
    const user = ts.store.users.byEmailAddress(who.email);
    assert.ok(user);
    assert.deepEqual(ts.store.sessions.all().filter((s) => s.user_id === user.id).length, 1);
  }

  test('on a desktop: joined, "Open the chat" shows the chat signed in', async ({ ts, pageAs }) => {
    const t = await pageAs(null);
    await join(ts, t, 1280, { name: 'Cora', email: 'cora@example.com' });
    const open = t.page.getByRole('link', { name: 'Open the chat' });
    assert.equal(await open.getAttribute('href'), '/');
    await open.click();
    await t.page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    assert.equal(await t.page.getByRole('button', { name: 'Sign in' }).count(), 0, 'not asked to sign in again');
    assert.deepEqual(t.errors, []);
  });

  test('on a 390 px phone: nothing scrolls sideways, and the chat opens signed in', async ({ ts, pageAs }) => {
    const t = await pageAs(null);
    await join(ts, t, 390, { name: 'Pip', email: 'pip@example.com' });
    await t.page.getByRole('link', { name: 'Open the chat' }).click();
    // On a phone the conversations are in a drawer.
    await t.page.getByRole('button', { name: 'Channels and conversations' }).click();
    await t.page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    assert.equal(await t.page.getByRole('button', { name: 'Sign in' }).count(), 0, 'not asked to sign in again');
    assert.deepEqual(t.errors, []);
  });
});
