/**
 * The chat on phones (issue 29, item 8), in Debian's Chromium at 390×844 and 360×640, light and
 * dark, in a channel with 20 one-line messages: one top bar row (the drawer button, the view's
 * title, a search button), the message list at least 60% of the height with at least eight
 * messages wholly in view, the compose box one line (the message field and Send) until it is used,
 * then the topic field and the other buttons; nothing scrolls sideways. Search (the button and /),
 * Settings, Account, Admin and Sign out (in the drawer) and the view's buttons (a "More actions"
 * menu) stay reachable, by keyboard too; axe-core finds no serious or critical violation at 390 px,
 * light and dark. At 1280 px the top bar, the header's buttons and the two-row compose box are as
 * before. Screenshots: test-results/admin-ui/phone-*.png.
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import type { Account, TestServer } from '../helpers/server.js';

const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 640 },
] as const;

type Box = { top: number; bottom: number; left: number; right: number; height: number; width: number };

/** Where an element is on the page (null when not rendered). */
const boxOf = (p: Page, selector: string) =>
  p.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el || !el.getClientRects().length) return null;
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width } as Box;
  }, selector);

/** The messages wholly inside the message list's visible box. */
const wholeMessagesInView = (p: Page) =>
  p.evaluate(() => {
    const list = document.querySelector('#main .scroller')!.getBoundingClientRect();
    return [...document.querySelectorAll('#main li.message')].filter((li) => {
      const r = li.getBoundingClientRect();
      return r.height > 0 && r.top >= list.top - 0.5 && r.bottom <= list.bottom + 0.5;
    }).length;
  });

const scrollsSideways = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth || document.body.scrollWidth > window.innerWidth);

/** The message field's text area (without padding) in lines of its own line height. */
const messageLines = (p: Page) =>
  p.getByRole('textbox', { name: 'Message' }).evaluate((el) => {
    const s = getComputedStyle(el);
    const inner = el.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
    return inner / parseFloat(s.lineHeight);
  });

test.describe('chat on a phone in Chromium', () => {
  const s = serialSuite();
  let ts: TestServer;
  let a: TestPage;
  let mel: Account;
  let generalId: number;
  const compose = (p: Page) => p.getByRole('form', { name: 'Compose' });
  const drawerButton = (p: Page) => p.getByRole('button', { name: 'Channels and conversations' });
  const searchButton = (p: Page) => p.getByRole('button', { name: 'Search', exact: true });
  const openChannel = async (p: Page) => {
    await p.goto(`${p.url().split('#')[0]}#narrow/channel/${generalId}-general`);
    await p.getByRole('heading', { name: '#general', exact: true }).waitFor();
    await p.getByText('standup line 20', { exact: true }).waitFor();
  };

  test.beforeAll(async () => {
    ts = s.ts;
    mel = await ts.addUser('Mel');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    // 20 one-line messages, two people taking turns four at a time (a name line every four).
    for (let i = 1; i <= 20; i++) await sendStream(Math.ceil(i / 4) % 2 ? ts.ownerClient : ts.client(mel), 'general', 'standup', `standup line ${i}`);
    await ts.ownerClient.post('/mark_all_as_read');
    a = await s.open(null);
  });

  test('signs in', async () => {
    await a.page.setViewportSize({ width: 1280, height: 800 }); // (the sidebar, which signIn waits for, is in a drawer on phones)
    await signIn(a.page, ts.url, ts.owner);
    a.errors.splice(0, a.errors.length, ...a.errors.filter((e) => !isSessionProbe(e)));
  });

  for (const size of PHONES) {
    test(`${size.width}×${size.height}: one header row, the message list ≥ 60% with ≥ 8 messages, compose one line until used`, async () => {
      const p = a.page;
      await p.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await p.emulateMedia({ colorScheme: theme });
        await openChannel(p);
        await p.reload(); // a fresh compose box: not yet used
        await p.getByText('standup line 20', { exact: true }).waitFor();
        await p.waitForTimeout(300);

        // One header row: the drawer button, the view's title and the search button side by side in the top bar.
        const bar = (await boxOf(p, '.topbar'))!;
        assert.ok(bar.height <= 56, `the top bar is one row: ${bar.height}px`);
        for (const [what, box] of [
          ['drawer button', await drawerButton(p).boundingBox()],
          ['title', await p.getByRole('heading', { name: '#general', exact: true }).boundingBox()],
          ['search button', await searchButton(p).boundingBox()],
        ] as const) {
          assert.ok(box, `${what} shown`);
          assert.ok(box.y >= bar.top - 0.5 && box.y + box.height <= bar.bottom + 0.5, `${what} inside the top bar row: ${JSON.stringify(box)} in ${JSON.stringify(bar)}`);
        }
        // Nothing else above the messages: the list starts right under the bar.
        const list = (await boxOf(p, '#main .scroller'))!;
        assert.ok(list.top - bar.bottom <= 1, `the messages start under the bar: ${list.top} vs ${bar.bottom}`);
        assert.ok(list.height >= 0.6 * size.height, `the message list is ${list.height}px of ${size.height}px (${Math.round((100 * list.height) / size.height)}%)`);
        const whole = await wholeMessagesInView(p);
        assert.ok(whole >= 8, `${whole} messages wholly in view`);

        // The compose box: one line, the message field and Send side by side; no topic field, no other buttons.
        const lines = await messageLines(p);
        assert.ok(lines > 0.9 && lines < 1.5, `the message field is one line: ${lines.toFixed(2)} lines`);
        const field = (await p.getByRole('textbox', { name: 'Message' }).boundingBox())!;
        const send = (await compose(p).getByRole('button', { name: 'Send' }).boundingBox())!;
        assert.ok(send.y < field.y + field.height && send.y + send.height > field.y, 'Send beside the field');
        const form = (await boxOf(p, 'form.compose'))!;
        assert.ok(form.height <= 64, `the compose box is one row: ${form.height}px`);
        assert.equal(await compose(p).getByRole('combobox', { name: 'Topic' }).isVisible(), false, 'no topic field yet');
        assert.equal(await compose(p).getByText('Attach files').isVisible(), false, 'no Attach files yet');
        assert.match((await p.getByRole('textbox', { name: 'Message' }).getAttribute('placeholder')) ?? '', /^Message #general/);
        assert.equal(await scrollsSideways(p), false, 'nothing scrolls sideways');
        console.log(
          `${size.width}×${size.height} ${theme}: top bar ${bar.height}px, message list ${list.height}px (${Math.round((100 * list.height) / size.height)}%), ` +
            `${whole} messages wholly in view, compose ${form.height}px (${lines.toFixed(2)} lines)`,
        );
        await a.shot(`phone-${size.width}-${theme}-channel`);
        if (size.width === 390) assert.deepEqual(await axeViolations(p), [], `axe-core at 390 px, ${theme}`);

        // Used (tapped), it opens: the topic field, two rows, Attach files; the list still gets most of the height.
        await p.getByRole('textbox', { name: 'Message' }).click();
        await compose(p).getByRole('combobox', { name: 'Topic' }).waitFor();
        await compose(p).getByText('Attach files').waitFor();
        assert.ok((await messageLines(p)) >= 1.9, 'two rows once used');
        await p.getByRole('textbox', { name: 'Message' }).fill('a word');
        await p.waitForTimeout(100);
        // The list, shorter now, still ends at the newest message.
        const newest = (await p.getByText('standup line 20', { exact: true }).boundingBox())!;
        const shorter = (await boxOf(p, '#main .scroller'))!;
        assert.ok(newest.y >= shorter.top && newest.y + newest.height <= shorter.bottom, `the newest message still in view: ${newest.y} in ${shorter.top}–${shorter.bottom}`);
        assert.equal(await scrollsSideways(p), false, 'nothing scrolls sideways with the compose box open');
        await a.shot(`phone-${size.width}-${theme}-compose-open`);
        if (size.width === 390) assert.deepEqual(await axeViolations(p), [], `axe-core at 390 px, compose open, ${theme}`);
        await p.getByRole('textbox', { name: 'Message' }).fill('');
      }
      await p.emulateMedia({ colorScheme: 'light' });
    });
  }

  test('on phones search, Settings, Account, Admin and the view’s buttons stay reachable, by keyboard too', async () => {
    const p = a.page;
    for (const size of PHONES) {
      await p.setViewportSize(size);
      await openChannel(p);
      // Search: a button that opens the field over the bar, focused.
      assert.equal(await p.getByRole('combobox', { name: 'Search', exact: true }).isVisible(), false, 'the field waits behind its button');
      assert.equal(await searchButton(p).getAttribute('aria-expanded'), 'false');
      await searchButton(p).click();
      const field = p.getByRole('combobox', { name: 'Search', exact: true });
      await field.waitFor();
      assert.equal(await searchButton(p).getAttribute('aria-expanded'), 'true');
      await eventually(() => field.evaluate((el) => el === document.activeElement)); // the field has the keyboard (in the next frame)
      const fieldBox = (await field.boundingBox())!;
      assert.ok(fieldBox.x >= 0 && fieldBox.x + fieldBox.width <= size.width && fieldBox.y >= 0 && fieldBox.y + fieldBox.height <= 56, `in the bar: ${JSON.stringify(fieldBox)}`);
      await a.shot(`phone-${size.width}-search-open`);
      if (size.width === 390) assert.deepEqual(await axeViolations(p), [], 'axe-core: the search field open');
      // Escape closes it, back to its button.
      await field.press('Escape');
      await field.waitFor({ state: 'hidden' });
      assert.equal(await searchButton(p).evaluate((el) => el === document.activeElement), true, 'focus back on the search button');
      assert.equal(await searchButton(p).getAttribute('aria-expanded'), 'false');
      // Enter on the button, then a search.
      await searchButton(p).press('Enter');
      await field.waitFor();
      await field.fill('line 7');
      await field.press('Enter');
      await p.getByRole('heading', { name: 'Search results' }).waitFor();
      await p.locator('.results').getByText('standup line 7').first().waitFor();
      await field.waitFor({ state: 'hidden' });
      assert.equal(await scrollsSideways(p), false, 'search results: nothing scrolls sideways');
      await p.getByRole('button', { name: 'Close search' }).click();
      await p.getByRole('heading', { name: '#general', exact: true }).waitFor();
      // The / key opens it too.
      await p.getByLabel('Messages', { exact: true }).focus();
      await p.keyboard.press('/');
      await field.waitFor();
      await eventually(() => field.evaluate((el) => el === document.activeElement)); // / puts the keyboard in the field
      await field.press('Escape');
      await field.waitFor({ state: 'hidden' });

      // The view's buttons: behind "More actions", a disclosure the keyboard opens and Escape closes.
      const more = p.getByRole('button', { name: 'More actions' });
      assert.equal(await p.getByRole('button', { name: 'Mark all as read' }).isVisible(), false, 'Mark all as read waits in the menu');
      assert.equal(await more.getAttribute('aria-expanded'), 'false');
      await more.press('Enter');
      await p.getByRole('button', { name: 'Mark all as read' }).waitFor();
      assert.equal(await more.getAttribute('aria-expanded'), 'true');
      await p.getByRole('button', { name: 'Next unread topic' }).waitFor();
      const menuBox = (await boxOf(p, '.header-menu-items'))!;
      assert.ok(menuBox.left >= 0 && menuBox.right <= size.width, `the menu fits: ${JSON.stringify(menuBox)}`);
      await a.shot(`phone-${size.width}-more-actions`);
      if (size.width === 390) assert.deepEqual(await axeViolations(p), [], 'axe-core: More actions open');
      await p.keyboard.press('Escape');
      await p.getByRole('button', { name: 'Mark all as read' }).waitFor({ state: 'hidden' });
      assert.equal(await more.evaluate((el) => el === document.activeElement), true, 'focus back on More actions');
      // A button in it works, and closes it.
      await sendStream(ts.client(mel), 'general', 'standup', 'one more line');
      const unread = p.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /^general/ }).locator('.count');
      await drawerButton(p).click();
      await unread.waitFor();
      await p.keyboard.press('Escape');
      await p.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'hidden' });
      await more.click();
      await p.getByRole('button', { name: 'Mark all as read' }).click();
      await p.getByRole('button', { name: 'Mark all as read' }).waitFor({ state: 'hidden' });
      await drawerButton(p).click();
      await unread.waitFor({ state: 'detached' });
      await p.keyboard.press('Escape');
      await p.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'hidden' });

      // Settings, Account and Admin: in the drawer, which closes behind the choice.
      const accountNav = p.getByRole('navigation', { name: 'Account' });
      assert.equal(await accountNav.count(), 0, 'no account links in the bar (nor in the closed drawer)');
      await drawerButton(p).click();
      await accountNav.getByRole('link', { name: 'Settings' }).click();
      await p.getByRole('heading', { name: /^Settings/ }).waitFor();
      await p.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'hidden' });
      assert.equal(await scrollsSideways(p), false, 'settings: nothing scrolls sideways');
      await drawerButton(p).press('Enter');
      await accountNav.getByRole('link', { name: 'Account' }).waitFor();
      await p.waitForTimeout(300); // the drawer's slide
      await a.shot(`phone-${size.width}-drawer`);
      if (size.width === 390) assert.deepEqual(await axeViolations(p), [], 'axe-core: the drawer open');
      // By keyboard: Tab from the drawer's Close button reaches the links.
      await p.getByRole('button', { name: 'Close', exact: true }).focus();
      await p.keyboard.press('Tab');
      const focused = await p.evaluate(() => document.activeElement?.textContent);
      assert.ok(['Admin', 'Settings'].includes(focused ?? ''), `Tab after Close reaches the account links (${focused})`);
      await accountNav.getByRole('link', { name: 'Account' }).click();
      await p.getByRole('heading', { name: 'Your account' }).waitFor();
      await drawerButton(p).click();
      const admin = accountNav.getByRole('link', { name: 'Admin' });
      assert.equal(await admin.getAttribute('href'), '/admin/');
      assert.ok(await accountNav.getByRole('button', { name: 'Sign out' }).isVisible(), 'Sign out in the drawer');
      await p.keyboard.press('Escape');
      await p.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'hidden' });
    }
  });

  test('on phones every view’s title and buttons fit the one top bar row: a topic, search results, the Inbox, Settings', async () => {
    const p = a.page;
    const views = [
      { hash: `#narrow/channel/${generalId}-general/topic/standup`, title: '#general > standup' },
      { hash: '#narrow/search/line', title: 'Search results' },
      { hash: '#inbox', title: 'Inbox' },
      { hash: '#settings/notifications', title: 'Settings: Notifications' },
    ];
    for (const size of PHONES) {
      await p.setViewportSize(size);
      for (const view of views) {
        await p.goto(`${p.url().split('#')[0]}${view.hash}`);
        const heading = p.getByRole('heading', { name: view.title, exact: true });
        await heading.waitFor();
        await p.waitForTimeout(200);
        const bar = (await boxOf(p, '.topbar'))!;
        const search = (await searchButton(p).boundingBox())!;
        const menu = (await drawerButton(p).boundingBox())!;
        // The title and each of the header's buttons: in the bar's row, between the drawer and Search buttons.
        const parts = await p.evaluate(() =>
          [...document.querySelectorAll('#main .feed-header > *')]
            .filter((el) => el.getClientRects().length)
            .map((el) => {
              const r = el.getBoundingClientRect();
              return { what: el.tagName + '.' + el.className, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
            }),
        );
        assert.ok(parts.length > 0);
        for (const part of parts) {
          assert.ok(part.top >= bar.top - 0.5 && part.bottom <= bar.bottom + 0.5, `${view.title} at ${size.width}: ${part.what} in the bar's row: ${JSON.stringify(part)}`);
          assert.ok(part.left >= menu.x + menu.width - 0.5 && part.right <= search.x + 0.5, `${view.title} at ${size.width}: ${part.what} between the buttons: ${JSON.stringify(part)}`);
        }
        assert.equal(await scrollsSideways(p), false, `${view.title} at ${size.width}: nothing scrolls sideways`);
        await a.shot(`phone-${size.width}-${view.hash.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '')}`);
      }
    }
  });

  test('1280 px: the desktop layout as before (links, search field and header buttons in view, compose two rows)', async () => {
    const p = a.page;
    await p.setViewportSize({ width: 1280, height: 800 });
    for (const theme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: theme });
      await openChannel(p);
      await p.reload();
      await p.getByText('standup line 20', { exact: true }).waitFor();
      const bar = (await boxOf(p, '.topbar'))!;
      const nav = p.getByRole('navigation', { name: 'Account' });
      for (const name of ['Admin', 'Settings', 'Account']) assert.ok(await nav.getByRole('link', { name }).isVisible(), `${name} in the top bar`);
      assert.ok(await nav.getByRole('button', { name: 'Sign out' }).isVisible());
      assert.ok(await p.getByRole('combobox', { name: 'Search', exact: true }).isVisible(), 'the search field in the bar');
      assert.equal(await searchButton(p).isVisible(), false, 'no search button');
      assert.equal(await drawerButton(p).isVisible(), false, 'no drawer button');
      assert.equal(await p.getByRole('button', { name: 'More actions' }).isVisible(), false, 'no More actions button');
      assert.ok(await p.getByRole('button', { name: 'Mark all as read' }).isVisible(), 'Mark all as read in the header');
      const title = (await p.getByRole('heading', { name: '#general', exact: true }).boundingBox())!;
      assert.ok(title.y >= bar.bottom, 'the title under the top bar, in the view’s header');
      assert.ok(await p.getByRole('navigation', { name: 'Conversations' }).isVisible(), 'the sidebar');
      const lines = await messageLines(p);
      assert.ok(lines >= 1.9 && lines < 2.5, `the message field is two rows: ${lines.toFixed(2)}`);
      assert.ok(await compose(p).getByRole('combobox', { name: 'Topic' }).isVisible(), 'the topic field');
      assert.ok(await compose(p).getByText('Attach files').isVisible(), 'Attach files');
      await a.shot(`phone-desktop-1280-${theme}`);
      assert.deepEqual(await axeViolations(p), [], `axe-core at 1280 px, ${theme}`);
    }
    await p.emulateMedia({ colorScheme: 'light' });
  });

  test('signing out from the drawer', async () => {
    const p = a.page;
    await p.setViewportSize(PHONES[1]);
    await openChannel(p);
    await drawerButton(p).click();
    await p.getByRole('navigation', { name: 'Account' }).getByRole('button', { name: 'Sign out' }).click();
    await p.getByRole('button', { name: 'Sign in' }).waitFor();
    await p.reload();
    await p.getByRole('button', { name: 'Sign in' }).waitFor();
    // The long poll open while signing out is answered 401, as the session probe after the reload.
    a.errors.splice(0, a.errors.length, ...a.errors.filter((e) => !isSessionProbe(e) && !(e.includes('status of 401') && e.includes('/json/events'))));
    assert.deepEqual(a.errors, []);
  });
});
