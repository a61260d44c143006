/**
 * Zulip's links open their views (issue 29, item 11: `#narrow/dm/6-Lucas-Moreau` said "unknown user"):
 * links in messages (the server's `/#narrow/…` topic links and links people paste from Zulip's apps:
 * `dm/ID-name`, `dm/IDs-group`, `pm-with/`, `stream/ID-name/topic/…` with `.XX` escapes, `near/ID`,
 * `search/`) open in this tab, and a Zulip URL opened in the address bar opens its view, also when
 * the link names oneself. Screenshots: test-results/admin-ui/chat-links*.png.
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import type { Account, TestServer } from '../helpers/server.js';

test.describe("Zulip's narrow links in Chromium", () => {
  const s = serialSuite();
  let ts: TestServer;
  let p: TestPage;
  let lucas: Account;
  let mel: Account;
  let generalId: number;
  let nearId: number;
  let movedId: number;

  const title = () => p.page.locator('#feed-title, #search-title');
  const links = () => p.page.getByRole('listitem').filter({ hasText: 'Links from Zulip' });

  test.beforeAll(async () => {
    ts = s.ts;
    lucas = await ts.addUser('Lucas');
    mel = await ts.addUser('Mel');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, lucas.id, mel.id] });
    await sendStream(ts.ownerClient, 'general', 'lunch plans (v1.2)', 'pizza on Friday?');
    nearId = await sendStream(ts.ownerClient, 'general', 'lunch plans (v1.2)', 'the message a link points at');
    for (let i = 1; i <= 30; i++) await sendStream(ts.ownerClient, 'general', 'lunch plans (v1.2)', `later ${i}`);
    movedId = await sendStream(ts.ownerClient, 'general', 'before the move', 'a message moved since its link was made');
    const moved = await ts.ownerClient.patch(`/messages/${movedId}`, { topic: 'after the move', propagate_mode: 'change_one' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    await sendDirect(ts.client(lucas), [ts.owner.id], 'a direct message from Lucas');
    await sendDirect(ts.client(mel), [ts.owner.id, lucas.id], 'a group message from Mel');
    const topic = 'lunch.20plans.20.28v1.2E2.29';
    await sendStream(
      ts.ownerClient,
      'general',
      'links',
      [
        'Links from Zulip:',
        `* [Lucas, new form](#narrow/dm/${lucas.id}-Lucas-Moreau)`,
        `* [the group](#narrow/dm/${lucas.id},${mel.id}-group)`,
        `* [Lucas, old form](#narrow/pm-with/${lucas.id}-lucas)`,
        `* [the topic, old form](#narrow/stream/${generalId}-general/topic/${topic})`,
        `* [a message](#narrow/channel/${generalId}-general/topic/${topic}/near/${nearId})`,
        `* [a search](#narrow/search/pizza)`,
        `* #**general>lunch plans (v1.2)**`,
        `* ${ts.url}/#narrow/dm/${ts.owner.id},${lucas.id}-dm`,
      ].join('\n'),
    );
    p = await s.open(null);
    await p.page.setViewportSize({ width: 1280, height: 800 });
    await signIn(p.page, ts.url, ts.owner);
  });

  const openLinks = async () => {
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/links`);
    await links().waitFor();
  };

  test('links in a message open their views in this tab', async () => {
    await openLinks();
    await p.shot('chat-links');
    const cases: [string, string, string][] = [
      ['Lucas, new form', 'Lucas', 'a direct message from Lucas'],
      ['the group', 'Lucas, Mel', 'a group message from Mel'],
      ['Lucas, old form', 'Lucas', 'a direct message from Lucas'],
      ['the topic, old form', '#general > lunch plans (v1.2)', 'later 30'],
      ['#general > lunch plans (v1.2)', '#general > lunch plans (v1.2)', 'later 30'],
      ['a search', 'Search results', 'pizza on Friday?'],
    ];
    for (const [name, heading, text] of cases) {
      await openLinks();
      const link = links().getByRole('link', { name, exact: true });
      assert.equal(await link.getAttribute('target'), null, `${name} opens here`);
      await link.click();
      await title().filter({ hasText: heading }).waitFor();
      assert.equal(await title().textContent(), heading, name);
      await p.page.getByRole('main').getByText(text, { exact: true }).first().waitFor();
      assert.equal(p.context.pages().length, 1, 'no other tab');
    }
    // The full address of this server, as pasted from the address bar: a link naming oneself and Lucas.
    await openLinks();
    await links().getByRole('link', { name: new RegExp(`/#narrow/dm/${ts.owner.id},${lucas.id}-dm$`) }).click();
    await title().filter({ hasText: 'Lucas' }).waitFor();
    assert.equal(await title().textContent(), 'Lucas');
    await p.page.getByRole('main').getByText('a direct message from Lucas').waitFor();
  });

  test('a message link opens the topic at that message, highlighted', async () => {
    await openLinks();
    await links().getByRole('link', { name: 'a message', exact: true }).click();
    await title().filter({ hasText: '#general > lunch plans (v1.2)' }).waitFor();
    const target = p.page.locator('li.message.target');
    await target.getByText('the message a link points at').waitFor();
    const box = (await target.boundingBox())!;
    const scroller = (await p.page.locator('.feed .scroller').boundingBox())!;
    assert.ok(box.y >= scroller.y && box.y + box.height <= scroller.y + scroller.height, 'the message is on screen');
    await p.shot('chat-links-near');
  });

  test("Zulip's URLs opened in the address bar, on a fresh page", async () => {
    const visits: [string, string, string][] = [
      [`#narrow/dm/${lucas.id}-Lucas-Moreau`, 'Lucas', 'a direct message from Lucas'],
      [`#narrow/dm/${ts.owner.id},${lucas.id},${mel.id}-group`, 'Lucas, Mel', 'a group message from Mel'],
      // The oldest form: an address, Zulip-encoded (lucas2.40example.2Ecom).
      [`#narrow/pm-with/${lucas.email.replace('@', '.40').replace(/\.(?!40)/g, '.2E')}`, 'Lucas', 'a direct message from Lucas'],
      [`#narrow/stream/${generalId}-old-name/subject/lunch.20plans.20.28v1.2E2.29/with/${nearId}`, '#general > lunch plans (v1.2)', 'the message a link points at'],
    ];
    for (const [hash, heading, text] of visits) {
      await p.page.goto('about:blank');
      await p.page.goto(`${ts.url}/${hash}`);
      await title().filter({ hasText: heading }).waitFor();
      assert.equal(await title().textContent(), heading, hash);
      await p.page.getByRole('main').getByText(text, { exact: true }).waitFor();
      assert.equal(await p.page.getByText(/unknown user/i).count(), 0);
    }
    await p.shot('chat-links-pasted');
  });

  test('with/ID follows a message moved since the link was made; near/ID stays where the link says', async () => {
    const link = `#narrow/channel/${generalId}-general/topic/before.20the.20move/with/${movedId}`;
    await p.page.goto(`${ts.url}/#inbox`);
    await p.page.goto(`${ts.url}/${link}`);
    await title().filter({ hasText: '#general > after the move' }).waitFor();
    await p.page.locator('li.message.target').getByText('a message moved since its link was made').waitFor();
    assert.equal(await p.page.evaluate(() => location.hash), `#narrow/channel/${generalId}-general/topic/after.20the.20move/near/${movedId}`);
    // Back leaves the link, not to the old topic.
    await p.page.goBack();
    await p.page.waitForFunction(() => location.hash === '#inbox');
    await p.page.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/before.20the.20move/near/${movedId}`);
    await title().filter({ hasText: '#general > before the move' }).waitFor();
  });

  test('on a 390 px phone, light and dark', async () => {
    await p.page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await p.page.emulateMedia({ colorScheme: scheme });
        await openLinks();
        await links().scrollIntoViewIfNeeded();
        await p.page.waitForTimeout(300);
        assert.ok(await p.page.evaluate(() => document.documentElement.scrollWidth <= 390));
        await p.page.screenshot({ path: `test-results/admin-ui/chat-links-phone-${scheme}.png` });
        await links().getByRole('link', { name: 'the group', exact: true }).click();
        await title().filter({ hasText: 'Lucas, Mel' }).waitFor();
      }
    } finally {
      await p.page.emulateMedia({ colorScheme: null });
      await p.page.setViewportSize({ width: 1280, height: 800 });
    }
    assert.deepEqual(p.errors.filter((e) => !isSessionProbe(e)), []);
  });
});
