/**
 * The admin window's Channels page and the Settings page's Welcome note, in Debian's Chromium
 * against a real server (temp data dir, port 0), as an administrator uses them: every channel
 * is listed with whether new people join it; a public default channel made with everyone
 * subscribed reaches a member who was already there and a person added later; a private one
 * has only its creator and cannot be a default channel; "New people join" toggles off and on
 * and the server agrees; a taken name shows the server's reason and creates nothing. The
 * welcome note is saved (PATCH /realm) and "Send me a test" makes a Welcome Bot direct
 * message. Each step is checked through the API as well as on the page. A 390 px phone
 * scrolls nothing sideways; axe-core finds no serious or critical violation; any console
 * error fails. Screenshots: test-results/admin-ui/admin-channels-*.png, admin-welcome-*.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import { ARTIFACTS, type TestPage } from '../helpers/browser.js';
import { isSessionProbe, signInToAdmin } from '../helpers/chat-page.js';
import { networkQuiet } from '../helpers/network-quiet.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { Client, type Account, type TestServer } from '../helpers/server.js';

const WELCOME_BOT = 'welcome-bot@zulip.com';

interface Stream {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
}

const channelsTable = (page: Page) => page.getByRole('table', { name: 'Channels' });
/** The table row of channel `name` (its row header is exactly `#name`, plus any description). */
const channelRow = (page: Page, name: string) =>
  channelsTable(page).getByRole('row').filter({ has: page.getByRole('rowheader').getByText(`#${name}`, { exact: true }) });
const joinToggle = (page: Page, name: string) => page.getByRole('checkbox', { name: `New people join #${name}`, exact: true });
const createForm = (page: Page) => page.getByRole('form', { name: 'Create a channel' });

/** Whether the page scrolls sideways at its current width. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Errors Chromium logs for API answers the step expects (e.g. 409 for a taken name), removed from the list. */
function expectNetworkErrors(t: TestPage, status: number, path: string): void {
  const expected = (e: string) => e.includes(`status of ${status}`) && e.includes(path);
  assert.ok(t.errors.some(expected), `expected a ${status} for ${path}; got ${JSON.stringify(t.errors)}`);
  t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !expected(e)));
}

test.describe('admin Channels page and Welcome note in Chromium', () => {
  // One page walks through the steps; they depend on each other.
  const s = serialSuite();
  let browser: Browser;
  let ts: TestServer;
  let t: TestPage;
  let mel: Account;
  let owner: Client;

  const streams = async () => (await owner.get('/streams', { include_all: true })).body.streams as Stream[];
  const streamNamed = async (name: string) => (await streams()).find((s) => s.name === name);
  const defaultNames = async () => {
    const res = await owner.get('/default_streams');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.default_streams as Stream[]).map((s) => s.name).sort();
  };
  const subscriptionNames = async (client: Client) => {
    const res = await client.get('/users/me/subscriptions');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.subscriptions as Stream[]).map((s) => s.name).sort();
  };
  const members = async (streamId: number) => ((await owner.get(`/streams/${streamId}/members`)).body.subscribers as number[]).sort((a, b) => a - b);

  test.beforeAll(async () => {
    ({ browser, ts } = s);
    owner = ts.ownerClient;
    mel = await ts.addUser('Mel');
    // The test organization starts without channels: two to list, one with a description.
    await createChannel(ts, owner, 'general', { principals: [ts.owner.id, mel.id] });
    await createChannel(ts, owner, 'design', { subscriptions: [{ name: 'design', description: 'Mockups and **reviews**' }] });
    t = await s.open(null);
    await signInToAdmin(t.page, ts.url, ts.owner);
  });

  test('lists every channel with who can join it and whether new people join it', async () => {
    const { page } = t;
    assert.deepEqual((await streams()).map((s) => s.name).sort(), ['design', 'general']);
    assert.deepEqual(await defaultNames(), []);
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Channels' }).click();
    await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor();
    // One web app: /admin/#channels is the chat page's #organization/channels.
    assert.equal(new URL(page.url()).hash, '#organization/channels');
    assert.equal(await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Channels' }).getAttribute('aria-current'), 'page');
    await channelRow(page, 'general').waitFor();
    // A header row and one row per channel, sorted by name.
    const rows = channelsTable(page).getByRole('row');
    assert.equal(await rows.count(), 3);
    assert.deepEqual(await channelsTable(page).getByRole('rowheader').allInnerTexts().then((x) => x.map((s) => s.split(/\s/)[0])), ['#design', '#general']);
    // The description is the server's rendering of its Markdown.
    await channelRow(page, 'design').locator('strong', { hasText: 'reviews' }).waitFor();
    assert.equal(await channelRow(page, 'design').getByText('**reviews**').count(), 0);
    for (const name of ['design', 'general']) {
      await channelRow(page, name).getByText('Public: anyone in the organization').waitFor();
      assert.equal(await joinToggle(page, name).isChecked(), false, `#${name} is not a default channel yet`);
      assert.equal(await joinToggle(page, name).isEnabled(), true);
    }
    // The form's defaults: public, everyone subscribed, a default channel.
    const form = createForm(page);
    assert.equal(await form.getByLabel('Private: only the people subscribed can see it').isChecked(), false);
    assert.equal(await form.getByLabel('Subscribe everyone now').isChecked(), true);
    assert.equal(await form.getByLabel('New people join it too (a default channel)').isChecked(), true);
  });

  test('creates a public default channel with everyone subscribed: a member and a person added later are in it', async () => {
    const { page } = t;
    const form = createForm(page);
    await form.getByLabel('Channel name').fill('lunch');
    await form.getByLabel('Description').fill('Where we eat on Fridays');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await form.getByRole('status').filter({ hasText: /^#lunch created \(ID \d+\)\.$/ }).waitFor();
    // The new row: public, a default channel; the form is empty again.
    await channelRow(page, 'lunch').getByText('Where we eat on Fridays').waitFor();
    await channelRow(page, 'lunch').getByText('Public: anyone in the organization').waitFor();
    assert.equal(await joinToggle(page, 'lunch').isChecked(), true);
    assert.equal(await form.getByLabel('Channel name').inputValue(), '');
    assert.equal(await form.getByLabel('Description').inputValue(), '');

    // The server agrees: a public channel, a default channel, the owner and Mel subscribed.
    const lunch = await streamNamed('lunch');
    assert.ok(lunch, 'the channel exists');
    assert.equal(lunch.invite_only, false);
    assert.equal(lunch.description, 'Where we eat on Fridays');
    assert.deepEqual(await defaultNames(), ['lunch']);
    assert.deepEqual(await members(lunch.stream_id), [ts.owner.id, mel.id].sort((a, b) => a - b));
    assert.ok((await subscriptionNames(ts.client(mel))).includes('lunch'), 'Mel, already a member, was subscribed');

    // Someone added afterwards joins it (a default channel), and not #design (not one).
    const added = await owner.post('/users', { email: 'nia@example.com', password: 'nia password 1', full_name: 'Nia New' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const key = (await ts.anonymous.post('/fetch_api_key', { username: 'nia@example.com', password: 'nia password 1' })).body;
    const nia = new Client(ts.url, { id: key.user_id, email: 'nia@example.com', apiKey: key.api_key, password: 'nia password 1' });
    assert.deepEqual(await subscriptionNames(nia), ['lunch']);
  });

  test('creates a private channel: it cannot be a default channel and only its creator is in it', async () => {
    const { page } = t;
    const form = createForm(page);
    const priv = form.getByLabel('Private: only the people subscribed can see it');
    const everyone = form.getByLabel('Subscribe everyone now');
    const makeDefault = form.getByLabel('New people join it too (a default channel)');
    await priv.check();
    assert.equal(await makeDefault.isChecked(), false, 'private: not a default channel');
    assert.equal(await makeDefault.isDisabled(), true);
    // Public again: the choice is offered again.
    await priv.uncheck();
    assert.equal(await makeDefault.isEnabled(), true);
    await priv.check();
    assert.equal(await makeDefault.isDisabled(), true);
    assert.equal(await everyone.isChecked(), false, 'private: starts with its creator only');
    await form.getByLabel('Channel name').fill('  hiring  ');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await form.getByRole('status').filter({ hasText: /^#hiring created/ }).waitFor();
    const row = channelRow(page, 'hiring');
    await row.getByText('Private: invited people only').waitFor();
    assert.equal(await joinToggle(page, 'hiring').isChecked(), false);
    assert.equal(await joinToggle(page, 'hiring').isDisabled(), true, 'a private channel cannot be a default channel');
    await t.shot('admin-channels-created');

    // The server agrees: private (trimmed name), not a default channel, only the owner in it.
    const hiring = await streamNamed('hiring');
    assert.ok(hiring, 'the channel exists, its name trimmed');
    assert.equal(hiring.invite_only, true);
    assert.deepEqual(await defaultNames(), ['lunch']);
    assert.deepEqual(await members(hiring.stream_id), [ts.owner.id]);
    assert.ok(!(await subscriptionNames(ts.client(mel))).includes('hiring'));
    assert.equal((await ts.client(mel).get('/streams')).body.streams.some((s: Stream) => s.name === 'hiring'), false, 'Mel cannot see it');

    // Unchecking Private gives the default-channel choice back.
    await priv.uncheck();
    assert.equal(await makeDefault.isEnabled(), true);
    assert.equal(await everyone.isChecked(), true);
    await makeDefault.check();
  });

  test('toggles whether new people join a channel, and the server agrees', async () => {
    const { page } = t;
    const toggle = joinToggle(page, 'design');
    await toggle.check();
    await page.getByRole('status').filter({ hasText: 'New people now join #design.' }).waitFor();
    await eventually(async () => (await toggle.isEnabled()) && (await toggle.isChecked()));
    assert.deepEqual(await defaultNames(), ['design', 'lunch']);

    await joinToggle(page, 'lunch').uncheck();
    await page.getByRole('status').filter({ hasText: 'New people no longer join #lunch.' }).waitFor();
    await eventually(async () => joinToggle(page, 'lunch').isEnabled());
    assert.deepEqual(await defaultNames(), ['design']);
    // Subscriptions are not touched: Mel stays in #lunch.
    assert.ok((await subscriptionNames(ts.client(mel))).includes('lunch'));

    // A reload shows what the server stored.
    await page.reload();
    await channelRow(page, 'design').waitFor();
    assert.equal(await joinToggle(page, 'design').isChecked(), true);
    assert.equal(await joinToggle(page, 'lunch').isChecked(), false);
    assert.equal(await joinToggle(page, 'general').isChecked(), false);

    // And back on.
    await joinToggle(page, 'lunch').check();
    await page.getByRole('status').filter({ hasText: 'New people now join #lunch.' }).waitFor();
    await eventually(async () => joinToggle(page, 'lunch').isEnabled());
    assert.deepEqual(await defaultNames(), ['design', 'lunch']);
  });

  test("a taken name shows the server's reason and creates nothing", async () => {
    const { page } = t;
    const before = (await streams()).length;
    const form = createForm(page);
    await form.getByLabel('Channel name').fill('general');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await form.getByRole('alert').filter({ hasText: "Channel 'general' already exists" }).waitFor();
    expectNetworkErrors(t, 409, '/json/channels/create');
    assert.equal((await streams()).length, before, 'nothing was created');
    assert.equal(await channelsTable(page).getByRole('row').count(), before + 1);
    // The name stays for correcting, and the button works again.
    assert.equal(await form.getByLabel('Channel name').inputValue(), 'general');
    assert.equal(await form.getByRole('button', { name: 'Create channel' }).isEnabled(), true);
    await t.shot('admin-channels-taken');
    await form.getByLabel('Channel name').fill('');
  });

  test('saves the welcome note and sends a test of it from the Welcome Bot', async () => {
    const { page } = t;
    const NOTE = 'Lunch is at noon on Fridays. Ask **Ada** about anything.';
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Settings' }).click();
    const card = page.getByRole('form', { name: 'Welcome note' });
    const note = card.getByLabel('Note for new people');
    await note.waitFor();
    assert.equal(await note.inputValue(), '');

    // An empty note cannot be tested: the server's reason shows.
    await card.getByRole('button', { name: 'Send me a test' }).click();
    await card.getByRole('alert').filter({ hasText: 'Message must not be empty' }).waitFor();
    expectNetworkErrors(t, 400, '/json/realm/test_welcome_bot_custom_message');

    await note.fill(NOTE);
    await card.getByRole('button', { name: 'Save welcome note' }).click();
    await card.getByRole('status').filter({ hasText: 'Welcome note saved: new people get it after the greeting.' }).waitFor();
    const reg = await owner.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    assert.equal(reg.body.realm_welcome_message_custom_text, NOTE);

    await card.getByRole('button', { name: 'Send me a test' }).click();
    await card.getByRole('status').filter({ hasText: /^Sent: open the chat/ }).waitFor();
    const dms = await owner.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: WELCOME_BOT }],
      apply_markdown: false,
    });
    assert.equal(dms.status, 200, JSON.stringify(dms.body));
    const fromBot = (dms.body.messages as { sender_email: string; content: string; type: string }[]).filter((m) => m.sender_email === WELCOME_BOT);
    assert.equal(fromBot.length, 1, JSON.stringify(dms.body.messages));
    assert.equal(fromBot[0]!.type, 'private');
    assert.ok(fromBot[0]!.content.includes(NOTE), fromBot[0]!.content);

    // A reload shows the stored note.
    await page.reload();
    await page.getByRole('form', { name: 'Welcome note' }).getByLabel('Note for new people').waitFor();
    assert.equal(await page.getByLabel('Note for new people').inputValue(), NOTE);
    await t.shot('admin-welcome-1024');

    // Emptied and saved: removed.
    await page.getByLabel('Note for new people').fill('');
    await page.getByRole('button', { name: 'Save welcome note' }).click();
    await page.getByRole('status').filter({ hasText: 'Welcome note removed.' }).waitFor();
    assert.equal((await owner.post('/register', { fetch_event_types: ['realm'] })).body.realm_welcome_message_custom_text, '');
    await page.getByLabel('Note for new people').fill(NOTE);
    await page.getByRole('button', { name: 'Save welcome note' }).click();
    await page.getByRole('status').filter({ hasText: 'Welcome note saved' }).waitFor();
  });

  test('1280 and 390 px: nothing cut off, nothing scrolls sideways on a phone', async () => {
    const { page } = t;
    try {
      await page.goto(`${ts.url}/admin/#channels`);
      await channelRow(page, 'lunch').waitFor();
      await networkQuiet(page);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
        await page.waitForTimeout(150);
        assert.equal(await scrollsSideways(page), false, `#channels at ${width} px`);
        // The form's fields and button fit in the page.
        for (const box of [await createForm(page).boundingBox(), await createForm(page).getByRole('button', { name: 'Create channel' }).boundingBox()]) {
          assert.ok(box && box.x >= 0 && box.x + box.width <= width, `inside ${width} px: ${JSON.stringify(box)}`);
        }
        await t.shot(`admin-channels-${width}`);
      }
      // On the phone the table may scroll in its own box (scrolled to its end here), never the page; every toggle can be tapped.
      const tableBox = page.getByRole('region', { name: 'Channels', exact: true });
      await tableBox.evaluate((el) => el.scrollBy(1000, 0));
      assert.equal(await scrollsSideways(page), false);
      for (const name of ['design', 'general', 'lunch']) {
        const toggle = joinToggle(page, name);
        await toggle.scrollIntoViewIfNeeded();
        const box = await toggle.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
        // Not hidden under the sticky channel-name column: the toggle itself is what a tap there hits.
        assert.equal(await toggle.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === el;
        }), true, `the toggle of #${name} can be tapped at 390 px`);
      }
      await tableBox.evaluate((el) => el.scrollTo(0, 0));

      await page.goto(`${ts.url}/admin/#settings`);
      const card = page.getByRole('form', { name: 'Welcome note' });
      await card.getByLabel('Note for new people').waitFor();
      await networkQuiet(page);
      assert.equal(await scrollsSideways(page), false, '#settings at 390 px');
      for (const el of [card, card.getByLabel('Note for new people'), card.getByRole('button', { name: 'Send me a test' })]) {
        const box = await el.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `inside 390 px: ${JSON.stringify(box)}`);
      }
      await card.scrollIntoViewIfNeeded();
      // The card itself, in the phone's viewport (the whole settings page is long).
      await page.screenshot({ path: join(ARTIFACTS, 'admin-welcome-390.png') });
      await t.shot('admin-settings-390');
    } finally {
      await page.setViewportSize({ width: 1024, height: 768 });
    }
  });

  test('no serious or critical axe-core violation on the Channels page (1280 and 390 px)', async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    try {
      const p = await context.newPage();
      await signInToAdmin(p, ts.url, ts.owner);
      await p.goto(`${ts.url}/admin/#channels`);
      await channelRow(p, 'hiring').waitFor();
      const found = (await axeViolations(p)).map((v) => `1280: ${v}`);
      await p.setViewportSize({ width: 390, height: 844 });
      found.push(...(await axeViolations(p)).map((v) => `390: ${v}`));
      assert.deepEqual(found, []);
    } finally {
      await context.close();
    }
  });

  test('logged no console errors', () => {
    t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !isSessionProbe(e)));
    assert.deepEqual(t.errors, []);
  });
});
