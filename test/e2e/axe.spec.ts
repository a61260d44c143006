/**
 * axe-core on the admin and join pages (the chat's pages are scanned in chat.spec.ts): no
 * serious or critical violation on sign-in, users, settings and status, or on the join form
 * and its welcome card.
 */
import assert from 'node:assert/strict';
import { skipWithoutChromium, test } from '../helpers/fixtures.js';
import { axeViolations } from '../helpers/axe.js';

test.describe('accessibility of the admin and join pages', () => {
  // Each test on its own server (the ts fixture) and a context of the shared Chromium.
  test.describe.configure({ timeout: 60_000 });
  skipWithoutChromium();

  test('admin: sign-in, users, settings, status', async ({ chromium: browser, ts }) => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${ts.url}/admin/`);
    await page.getByLabel('Email').waitFor();
    const found = (await axeViolations(page)).map((v) => `sign-in: ${v}`);
    await page.getByLabel('Email').fill(ts.owner.email);
    await page.getByLabel('Password').fill(ts.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Admin sections' }).waitFor();
    for (const route of ['users', 'settings', 'status']) {
      await page.goto(`${ts.url}/admin/#${route}`);
      await page.getByRole('main').waitFor();
      await page.waitForTimeout(400);
      found.push(...(await axeViolations(page)).map((v) => `#${route}: ${v}`));
    }
    await context.close();
    assert.deepEqual(found, []);
  });

  test('join: the form and the welcome card', async ({ chromium: browser, ts }) => {
    const link = (await ts.ownerClient.post('/invites/multiuse', { invite_expires_in_minutes: 60 })).body.invite_link as string;
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(link);
    await page.getByLabel('Your name').waitFor();
    const found = (await axeViolations(page)).map((v) => `join form: ${v}`);
    await page.getByLabel('Your name').fill('Axel Able');
    await page.getByLabel('Email').fill('axel@example.com');
    await page.getByLabel('Password').fill('axel password');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
    found.push(...(await axeViolations(page)).map((v) => `welcome: ${v}`));
    await context.close();
    assert.deepEqual(found, []);
  });
});
