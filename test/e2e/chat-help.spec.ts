/**
 * The help center (/help/, renderer/help/*.md): the chat's menu links to it (top bar, and the drawer
 * on phones), so does it in the organization settings (to the admin guide); a page renders with the list of pages, readable
 * at 390 px (no sideways scrolling) and in dark mode, and axe-core finds nothing serious. An
 * unknown page is a friendly page. Screenshots: test-results/admin-ui/help-{page}-{1280,390}-{light,dark}.png.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import { axeViolations } from '../helpers/axe.js';
import { isSessionProbe } from '../helpers/chat-page.js';
import { chatSuite } from '../helpers/chat-suite.js';

test.describe('help center', () => {
  const s = chatSuite(async () => undefined);

  test("the chat's menu links to the help center, which renders", async () => {
    const { page } = s.p;
    const link = page.locator('.account-links.in-topbar a', { hasText: 'Help' });
    assert.equal(await link.getAttribute('href'), '/help/');
    await page.screenshot({ path: 'test-results/admin-ui/help-chat-menu-1024.png', clip: { x: 0, y: 0, width: 1024, height: 120 } });
    await link.click();
    await page.waitForURL(`${s.ts.url}/help/`);
    assert.equal(await page.locator('main h1').textContent(), 'Hearth help center');
    assert.equal(await page.title(), 'Hearth help center · Hearth help');
    await page.locator('.help-nav a', { hasText: 'Getting started' }).click();
    await page.waitForURL(`${s.ts.url}/help/getting-started`);
    assert.equal(await page.locator('main h1').textContent(), 'Getting started');
    assert.equal(await page.locator('.help-nav a[aria-current="page"]').textContent(), 'Getting started');
    // A link between pages, written as the Markdown file's name, goes to the page's address.
    await page.locator('main a', { hasText: 'Formatting messages' }).first().click();
    await page.waitForURL(`${s.ts.url}/help/formatting`);
    assert.equal(await page.locator('main h1').textContent(), 'Formatting messages');
    assert.deepEqual(await axeViolations(page), []);
  });

  test('on a phone the drawer has the Help link; pages fit 390 px, light and dark', async () => {
    const { page } = s.p;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${s.ts.url}/`);
    await page.locator('.topbar button.menu').click();
    const link = page.locator('.account-links.in-drawer a', { hasText: 'Help' });
    await link.waitFor();
    await page.waitForTimeout(400); // the drawer slides in
    await s.p.shot('help-chat-drawer-390');
    await link.click();
    await page.waitForURL(`${s.ts.url}/help/`);
    for (const [name, path] of [['index', '/help/'], ['getting-started', '/help/getting-started'], ['admin-guide', '/help/admin-guide'], ['formatting', '/help/formatting']] as const) {
      await page.goto(`${s.ts.url}${path}`);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        for (const theme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: theme });
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(wide <= 0, `${path} at ${width} px scrolls sideways by ${wide} px`);
          await s.p.shot(`help-${name}-${width}-${theme}`);
        }
      }
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    const colours = await page.evaluate(() => ({ bg: getComputedStyle(document.body).backgroundColor, fg: getComputedStyle(document.body).color }));
    assert.notEqual(colours.bg, 'rgb(246, 246, 248)', 'dark mode has a dark background');
    assert.deepEqual(await axeViolations(page), []);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1024, height: 768 });
  });

  test('an unknown page is a friendly page with the list of pages', async () => {
    const { page } = s.p;
    const res = await page.goto(`${s.ts.url}/help/no-such-page`);
    assert.equal(res?.status(), 404);
    assert.equal(await page.locator('main h1').textContent(), 'No such help page');
    assert.ok((await page.locator('.help-nav a').count()) >= 6);
    await s.p.shot('help-404-1280-light');
  });

  test('in the organization settings, Help links to the admin guide', async () => {
    const { page } = s.p;
    await page.goto(`${s.ts.url}/admin/`);
    const link = page.locator('.topbar a', { hasText: 'Help' });
    assert.equal(await link.getAttribute('href'), '/help/admin-guide');
    await link.click();
    await page.waitForURL(`${s.ts.url}/help/admin-guide`);
    assert.equal(await page.locator('main h1').textContent(), 'Admin guide');
    assert.deepEqual(s.p.errors.filter((e) => !isSessionProbe(e) && !e.includes('404')), []);
  });
});
