/**
 * The organization settings' Integrations section and the outgoing bots' form under Users and
 * bots, in Debian's Chromium against a real server (temp data dir, port 0), as an owner uses
 * them: Gitea, a channel and a topic give a URL carrying the new Gitea bot's key (made once,
 * then reused); Copy puts it on the clipboard; "Send a test message" posts in that channel and
 * topic, and the URL itself takes a real Gitea delivery. The owner allows outgoing webhooks to
 * this computer; an outgoing bot's URL and format are edited, and its last call shows once a
 * mention has called it. Each step is checked in the server's store. A 390 px phone scrolls
 * nothing sideways; axe-core finds no serious or critical violation; any console error fails. Screenshots: test-results/admin-ui/admin-integrations-*.png.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { TestPage } from '../helpers/browser.js';
import { axeViolations } from '../helpers/axe.js';
import { isSessionProbe, signInToAdmin } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { sendStream } from '../helpers/messages.js';
import type { TestServer } from '../helpers/server.js';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Admin sections' });
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Both widths' screenshots, and no sideways scrolling on the phone. */
async function shots(t: TestPage, name: string): Promise<void> {
  await t.page.setViewportSize({ width: 1280, height: 900 });
  await t.page.waitForTimeout(150);
  await t.shot(`admin-integrations-${name}-1280`);
  await t.page.setViewportSize({ width: 390, height: 844 });
  // The drawer slides away as the page becomes a phone's.
  await t.page.waitForTimeout(400);
  assert.equal(await scrollsSideways(t.page), false, `${name}: no sideways scrolling at 390 px`);
  await t.shot(`admin-integrations-${name}-390`);
  await t.page.setViewportSize({ width: 1280, height: 900 });
}

test.describe('admin Integrations in Chromium', () => {
  const s = serialSuite();
  let ts: TestServer;
  let t: TestPage;
  let forgeId: number;
  let target: Server;
  let targetUrl: string;
  let outgoingId: number;

  test.beforeAll(async () => {
    ts = s.ts;
    forgeId = await createChannel(ts, ts.ownerClient, 'forge');
    await createChannel(ts, ts.ownerClient, 'alerts');
    const made = await ts.ownerClient.post('/bots', { full_name: 'Helpdesk bot', short_name: 'helpdesk', bot_type: 3, payload_url: JSON.stringify('http://192.0.2.10/hook') });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    outgoingId = made.body.user_id;
    // The outgoing bot's service: answers every call with a reply.
    target = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"content": "On it."}'));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/helpdesk`;
    t = await s.open(null);
    await signInToAdmin(t.page, ts.url, ts.owner);
  });
  test.afterAll(async () => {
    target?.closeAllConnections();
    await new Promise<void>((resolve) => (target ? target.close(() => resolve()) : resolve()));
  });
  test.afterEach(() => {
    // The page's first look for a session, before signing in, is the one 401 expected.
    assert.deepEqual(t.errors.filter((e) => !isSessionProbe(e)), [], 'no console errors');
  });

  const giteaBots = () => ts.store.users.all().filter((u) => u.is_bot && u.bot_type === 2 && u.email.startsWith('gitea'));

  test('Gitea, a channel and a topic: the URL has the bot’s key; Copy; a test message shows in the channel', async () => {
    const { page } = t;
    await nav(page).getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Organization settings: Integrations', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).hash, '#organization/integrations');
    const card = page.getByRole('region', { name: 'Connect a tool' });
    await card.getByLabel('Tool').selectOption('gitea');
    await card.getByLabel('Channel').selectOption({ label: '#forge' });
    await card.getByLabel('Topic').fill('deploys');
    assert.equal(giteaBots().length, 0);
    await card.getByRole('button', { name: 'Get the URL' }).click();
    const field = card.getByLabel('Webhook URL for Gitea / Forgejo');
    await field.waitFor();
    await card.getByRole('status').filter({ hasText: 'Made the bot Gitea bot' }).waitFor();

    // The bot: an incoming webhook, "Gitea bot", gitea-bot@…; its key in the URL.
    const [bot] = giteaBots();
    assert.ok(bot, 'the Gitea bot was made');
    assert.equal(bot.full_name, 'Gitea bot');
    assert.match(bot.email, /^gitea-bot@/);
    assert.equal(bot.bot_owner_id, ts.owner.id);
    const url = await field.inputValue();
    const parsed = new URL(url);
    assert.equal(parsed.pathname, '/api/v1/external/gitea');
    assert.equal(parsed.search, `?api_key=${bot.api_key}&stream=${forgeId}&topic=deploys`);
    // The origin other computers reach: a LAN address where the server has one, never loopback then.
    const status = await ts.ownerClient.get('/hearth/status');
    const lan = (status.body.lan_urls as string[]).map((u) => new URL(u)).find((u) => !/^(127\.|localhost$|\[::1\]$)/.test(u.hostname));
    assert.equal(parsed.origin, lan ? lan.origin : new URL(ts.url).origin);
    await card.getByText('Settings › Webhooks › Add webhook › Gitea', { exact: false }).waitFor();

    // Copy.
    await card.getByRole('button', { name: 'Copy' }).click();
    await card.getByRole('status').filter({ hasText: 'URL copied.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);

    // Send a test message: in #forge > deploys, as the bot.
    const before = ts.store.messages.maxId;
    await card.getByRole('button', { name: 'Send a test message' }).click();
    await card.getByRole('status').filter({ hasText: 'Test message sent to #forge > deploys.' }).waitFor();
    const sent = await eventually(() => [...ts.store.messages.all()].find((m) => m.id > before && m.sender_id === bot.id), 'the test message is stored');
    assert.equal(sent.stream_id, forgeId);
    assert.equal(sent.topic, 'deploys');
    assert.equal(sent.client, 'ZulipGiteaWebhook');
    assert.match(sent.content, /pushed.* 1 commit to branch main/);
    assert.match(sent.content, /Test message from Hearth/);
    await shots(t, 'gitea');
    await page.emulateMedia({ colorScheme: 'dark' });
    await t.shot('admin-integrations-gitea-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(await axeViolations(page), [], 'axe: no serious or critical violation');

    // Asked again: the same bot, no second one.
    await card.getByLabel('Topic').fill('');
    await card.getByRole('button', { name: 'Get the URL' }).click();
    await eventually(async () => !(await field.inputValue()).includes('topic='), 'the URL without a topic');
    assert.equal(giteaBots().length, 1);

    // The URL takes a real Gitea delivery.
    const delivery = await fetch(`${ts.url}${parsed.pathname}${parsed.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Gitea-Event': 'push' },
      body: JSON.stringify({
        ref: 'refs/heads/main',
        before: '1'.repeat(40),
        after: '2'.repeat(40),
        compare_url: 'https://git.office.lan/ops/infra/compare/1...2',
        commits: [{ id: '2'.repeat(40), message: 'Rotate keys', url: 'https://git.office.lan/ops/infra/commit/2', author: { name: 'Ann', username: 'ann' }, timestamp: '2026-01-01T00:00:00Z' }],
        repository: { name: 'infra', full_name: 'ops/infra', html_url: 'https://git.office.lan/ops/infra' },
        pusher: { login: 'ann', username: 'ann', full_name: 'Ann' },
        sender: { login: 'ann', username: 'ann', full_name: 'Ann' },
      }),
    });
    assert.equal(delivery.status, 200, await delivery.text());
    const real = ts.store.messages.get(ts.store.messages.maxId)!;
    assert.equal(real.sender_id, bot.id);
    assert.equal(real.topic, 'deploys');
    assert.match(real.content, /Rotate keys/);
  });

  test('the owner allows outgoing webhooks to this computer', async () => {
    const { page } = t;
    const box = page.getByRole('checkbox', { name: 'Allow outgoing webhooks to this computer' });
    assert.equal(await box.isChecked(), false);
    await box.check();
    await page.getByRole('status').filter({ hasText: 'Outgoing webhooks may now call this computer.' }).waitFor();
    await eventually(() => ts.store.realm.data.realm?.settings.hearth_allow_loopback_webhooks === true, 'the setting is on');
    await shots(t, 'page');
  });

  test('Users and bots: an outgoing bot’s URL and format are edited; its last call shows', async () => {
    const { page } = t;
    await nav(page).getByRole('link', { name: 'Users and bots' }).click();
    const form = page.getByRole('form', { name: 'Outgoing webhook of Helpdesk bot' });
    await form.getByText('Not called yet.').waitFor();
    assert.equal(await form.getByLabel('Endpoint URL').inputValue(), 'http://192.0.2.10/hook');
    await form.getByLabel('Endpoint URL').fill(targetUrl);
    await form.getByLabel('Outgoing webhook message format').selectOption({ label: 'Slack compatible' });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved the outgoing webhook of Helpdesk bot.' }).waitFor();
    let service = ts.store.users.get(outgoingId)!.bot_settings!.outgoing!;
    assert.equal(service.base_url, targetUrl);
    assert.equal(service.interface, 2);
    // Back to Zulip's format.
    await form.getByLabel('Outgoing webhook message format').selectOption({ label: 'Zulip' });
    await form.getByRole('button', { name: 'Save' }).click();
    await eventually(() => ts.store.users.get(outgoingId)!.bot_settings!.outgoing!.interface === 1, 'the format saved');
    service = ts.store.users.get(outgoingId)!.bot_settings!.outgoing!;
    assert.equal(service.base_url, targetUrl);

    // A mention calls it; the section, opened again, shows the call.
    await sendStream(ts.ownerClient, 'alerts', 'help', '@**Helpdesk bot** the printer is out of paper');
    await eventually(() => ts.store.outgoingWebhooks.data.last_calls?.[String(outgoingId)]?.text === 'HTTP 200', 'the call is recorded');
    await nav(page).getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Organization settings: Integrations', level: 1 }).waitFor();
    await nav(page).getByRole('link', { name: 'Users and bots' }).click();
    await form.getByText(/^Last call .*: OK, HTTP 200$/).waitFor();
    await form.scrollIntoViewIfNeeded();
    await shots(t, 'outgoing-bot');
    assert.deepEqual(await axeViolations(page), [], 'axe: no serious or critical violation');
  });

  test('Users and bots: Add bot makes an outgoing webhook with its URL and format; the server’s refusal shows in the dialog', async () => {
    const { page } = t;
    await page.getByRole('button', { name: 'Add bot' }).click();
    const add = page.getByRole('dialog', { name: 'Add bot' });
    // The outgoing webhook's fields only for that type.
    assert.equal(await add.getByLabel('Endpoint URL').count(), 0);
    await add.getByLabel('Bot type').selectOption({ label: 'Outgoing webhook' });
    await add.getByLabel('Bot name').fill('Ticket bot');
    await add.getByLabel('Bot username').fill('helpdesk');
    await add.getByLabel('Endpoint URL').fill(targetUrl);
    await add.getByLabel('Outgoing webhook message format').selectOption({ label: 'Slack compatible' });
    await t.shot('admin-integrations-add-outgoing-bot');
    // Taken by the Helpdesk bot: the server says so in the dialog, which stays open.
    await add.getByRole('button', { name: 'Create bot' }).click();
    await add.getByRole('alert').filter({ hasText: 'Username already in use' }).waitFor();
    const refused = t.errors.findIndex((e) => e.includes('status of 400') && e.includes('/json/bots'));
    assert.ok(refused >= 0, 'the refused request is the console error');
    t.errors.splice(refused, 1);
    await add.getByLabel('Bot username').fill('tickets');
    await add.getByRole('button', { name: 'Create bot' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'API key of Ticket bot' });
    await keyDialog.waitFor();
    const made = ts.store.users.all().find((u) => u.is_bot && u.full_name === 'Ticket bot')!;
    assert.equal(made.bot_type, 3);
    const service = made.bot_settings!.outgoing!;
    assert.equal(service.base_url, targetUrl);
    assert.equal(service.interface, 2);
    await keyDialog.getByRole('button', { name: 'Done' }).click();
    // Listed with the outgoing bots, its URL and format as given.
    const form = page.getByRole('form', { name: 'Outgoing webhook of Ticket bot' });
    await form.getByText('Not called yet.').waitFor();
    assert.equal(await form.getByLabel('Endpoint URL').inputValue(), targetUrl);
    assert.equal(await form.getByLabel('Outgoing webhook message format').inputValue(), '2');
  });
});
