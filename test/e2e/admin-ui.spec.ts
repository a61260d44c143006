/**
 * The admin UI in Debian's Chromium against a real server (temp data dir, port 0): setup
 * wizard → sign in → users → bots → settings → status and backup, each confirmed through the
 * API or the stored data; setup from a LAN address needs the token. The page signs in with the
 * browser session (an HttpOnly cookie shared with the chat at `/`, the CSRF token in memory):
 * nothing credential-like in page-readable storage, and signing out ends the session on the
 * server. A 390 px phone scrolls nothing sideways. Any console error fails.
 * Screenshots: test-results/admin-ui/*.png.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialSuite, skipReason, test } from '../helpers/fixtures.js';
import type { Browser, Page } from 'playwright-core';
import { encode } from 'uqr';
import { silentLogger } from '../../server/log.js';
import { startServer } from '../../server/start.js';
import type { Store } from '../../server/store/store.js';
import { openPage, type TestPage } from '../helpers/browser.js';
import { networkQuiet } from '../helpers/network-quiet.js';
import { Client, type TestServer } from '../helpers/server.js';

// Skipped where Chromium is missing, except in CI (.ci/run installs it), where that is a failure.
const skip = skipReason();
const OWNER = { realm: 'Acme Office', name: 'Ada Admin', email: 'ada@example.com', password: 'a good password' };

/** The stored organization's name (null: none yet). */
const realmName = (store: Store): string | null => store.realm.data.realm?.name ?? null;

/** The page asks the server whether it is signed in; a signed-out answer is a 401 Chromium logs. */
function forgetSessionProbes(t: TestPage): void {
  t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !(e.includes('status of 401') && e.includes('/json/session'))));
}

/** The browser's session cookie (null: none). */
async function sessionCookie(t: TestPage): Promise<{ value: string; httpOnly: boolean; sameSite: string } | null> {
  return (await t.context.cookies()).find((c) => c.name === 'hearth_session') ?? null;
}

/** What page script can read: both storages and document.cookie, as one string. */
const readableByPage = (page: Page) =>
  page.evaluate(() => {
    const dump = (s: Storage) => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i)!)}`).join(';');
    return { session: dump(sessionStorage), local: dump(localStorage), cookie: document.cookie };
  });

/** Whether the page scrolls sideways at its current width. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Errors Chromium logs for API answers the step expects (e.g. 401 for a wrong password), removed from the list. */
function expectNetworkErrors(t: TestPage, status: number, path: string): void {
  const expected = (e: string) => e.includes(`status of ${status}`) && e.includes(path);
  assert.ok(t.errors.some(expected), `expected a ${status} for ${path}; got ${JSON.stringify(t.errors)}`);
  t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !expected(e)));
}

/** The QR code drawn on a canvas, read back as a module matrix (dark = true). */
async function readQr(page: Page, label: string, size: number): Promise<boolean[][]> {
  return page.getByRole('img', { name: label }).evaluate((el, n) => {
    const c = el as HTMLCanvasElement;
    const ctx = c.getContext('2d')!;
    const scale = c.width / n;
    const rows: boolean[][] = [];
    for (let y = 0; y < n; y++) {
      const row: boolean[] = [];
      for (let x = 0; x < n; x++) {
        const px = ctx.getImageData(Math.floor((x + 0.5) * scale), Math.floor((y + 0.5) * scale), 1, 1).data;
        row.push(px[0]! < 128);
      }
      rows.push(row);
    }
    return rows;
  }, size);
}

test.describe('admin UI in Chromium', () => {
  // One page walks through the whole UI: the steps depend on each other.
  const s = serialSuite({ withRealm: false });
  let browser: Browser;
  let ts: TestServer;
  let t: TestPage;
  let owner: Client;
  let backupDir: string;

  test.beforeAll(async () => {
    ({ browser, ts } = s);
    t = await s.open(null);
    backupDir = await mkdtemp(join(tmpdir(), 'hearth-ui-backup-'));
  });
  test.afterAll(async () => {
    if (backupDir) await rm(backupDir, { recursive: true, force: true });
  });

  test('first-run setup creates the organization and shows the LAN URLs with QR codes', async () => {
    const { page } = t;
    await page.goto(`${ts.url}/`);
    assert.equal(new URL(page.url()).pathname, '/admin/');
    await page.getByRole('heading', { name: 'Set up Hearth' }).waitFor();
    assert.equal(await page.getByLabel('Setup token').isVisible(), false, 'no token needed from loopback');
    await t.shot('01-setup');

    await page.getByLabel('Organization name').fill(OWNER.realm);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Your email').fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByLabel('Confirm password').fill('something else');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('alert').filter({ hasText: 'do not match' }).waitFor();
    assert.equal(realmName(ts.app.store), null);

    await page.getByLabel('Confirm password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Your organization is ready' }).waitFor();
    await t.shot('02-setup-done');

    // Through the API: the organization and its owner exist, and the password works.
    assert.equal(realmName(ts.app.store), OWNER.realm);
    const key = await new Client(ts.url, null).post('/fetch_api_key', { username: OWNER.email, password: OWNER.password });
    assert.equal(key.status, 200, JSON.stringify(key.body));
    owner = new Client(ts.url, { id: key.body.user_id, email: OWNER.email, apiKey: key.body.api_key, password: OWNER.password });
    const me = await owner.get('/users/me');
    assert.equal(me.body.role, 100);
    assert.equal(me.body.full_name, OWNER.name);

    // The page lists the server's LAN URLs, each with a QR code that encodes it.
    const status = await owner.get('/hearth/status');
    const urls = status.body.lan_urls as string[];
    assert.ok(urls.length >= 1);
    for (const url of urls) {
      await page.getByRole('link', { name: url }).waitFor();
      const expected = encode(url, { ecc: 'M', border: 4 });
      const label = `QR code for ${url}`;
      await page.getByRole('img', { name: label }).waitFor();
      assert.deepEqual(await readQr(page, label, expected.size), expected.data, `QR code of ${url}`);
    }
    // Setup signed the owner in (POST /json/login with the new password): a session cookie, no key in the page.
    const cookie = await sessionCookie(t);
    assert.ok(cookie, 'the owner is signed in');
    assert.equal(ts.app.store.sessions.all().filter((s) => s.user_id === me.body.user_id).length, 1);
    await page.getByRole('button', { name: 'Continue to administration' }).click();
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();

    // The same session signs the owner in to the chat, and back.
    await page.getByRole('banner').getByRole('link', { name: 'Open the chat' }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await page.goto(`${ts.url}/admin/#users`);
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
  });

  test('signs in with email and password (keyboard only): an HttpOnly session cookie, nothing credential-like the page can read', async () => {
    const { page } = t;
    // Signing out ends the session on the server, not only in the page.
    const before = await sessionCookie(t);
    assert.ok(before);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: `Sign in to ${OWNER.realm}` }).waitFor();
    assert.equal(await sessionCookie(t), null, 'the cookie is cleared');
    const stale = await fetch(`${ts.url}/json/users/me`, { headers: { cookie: `hearth_session=${before.value}` } });
    assert.equal(stale.status, 401, 'the session ended on the server');
    assert.equal(ts.app.store.sessions.all().length, 0);
    await t.shot('03-sign-in');

    // Wrong password: an error, no session.
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    expectNetworkErrors(t, 401, '/json/login');
    assert.equal(await sessionCookie(t), null);

    // A member signs in (to the chat, same cookie) but is not let into administration: offered the chat instead.
    await owner.post('/users', { email: 'mo@example.com', password: 'member password', full_name: 'Mo Member' });
    await page.getByLabel('Email').fill('mo@example.com');
    await page.getByLabel('Password').fill('member password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'This account is not an organization administrator.' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Open the chat' }).getAttribute('href'), '/');
    assert.equal(await page.getByRole('navigation', { name: 'Admin sections' }).count(), 0);
    const mo = ts.app.store.users.byEmailAddress('mo@example.com')!;
    assert.equal(ts.app.store.sessions.all().filter((s) => s.user_id === mo.id).length, 1, 'signed in, for the chat');
    // A reload asks the server again: still the member, still not let in.
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'not an organization administrator' }).waitFor();
    await t.shot('03b-not-admin');

    // The owner, by keyboard: focus is in the email field.
    await page.getByLabel('Email').fill('');
    await page.getByLabel('Password').fill('');
    await page.getByLabel('Email').focus();
    await page.keyboard.type(OWNER.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(OWNER.password);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Admin sections' }).waitFor();
    assert.equal(ts.app.store.sessions.all().filter((s) => s.user_id === mo.id).length, 0, "the member's session in this browser was replaced");

    // The key, the session token and the CSRF token are nowhere page script can read.
    const cookie = await sessionCookie(t);
    assert.ok(cookie, 'the session cookie is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    const [session] = ts.app.store.sessions.all().filter((s) => s.user_id === owner.account!.id);
    assert.ok(session);
    const readable = await readableByPage(page);
    assert.deepEqual(readable, { session: '', local: '', cookie: '' }, 'nothing in sessionStorage, localStorage or document.cookie');
    const html = await page.content();
    for (const secret of [owner.account!.apiKey, cookie.value, session.csrf_token]) assert.ok(!html.includes(secret), 'no credential in the DOM');

    // A reload stays signed in (GET /json/session gives the CSRF token back), and changes still work.
    await page.reload();
    await page.getByRole('navigation', { name: 'Admin sections' }).waitFor();
    assert.equal(await page.getByRole('banner').getByRole('link', { name: 'Open the chat' }).getAttribute('href'), '/');
  });

  test('creates a user, changes their role, deactivates, reactivates and resets their password', async () => {
    const { page } = t;
    // Dialogs: Escape closes them and focus returns to the button that opened them.
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('dialog', { name: 'Add user' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Add user');

    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('Full name').fill('Bea Builder');
    await dialog.getByLabel('Email').fill('bea@example.com');
    await dialog.getByLabel('Initial password').fill('bea password 1');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('status').filter({ hasText: 'Bea Builder can now sign in' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'bea@example.com' });
    await row.waitFor();
    await t.shot('04-users');

    const users = async () => (await owner.get('/users')).body.members as { email: string; delivery_email: string; role: number; is_active: boolean; user_id: number }[];
    const bea = (await users()).find((u) => u.delivery_email === 'bea@example.com');
    assert.ok(bea, 'the new user exists');
    assert.equal(bea.role, 400);
    assert.equal((await new Client(ts.url, null).post('/fetch_api_key', { username: 'bea@example.com', password: 'bea password 1' })).status, 200);

    // Search narrows the list.
    await page.getByLabel('Search users').fill('bea');
    assert.equal(await page.getByRole('table', { name: 'Users' }).getByRole('row').count(), 2);
    await page.getByLabel('Search users').fill('');

    await row.getByRole('combobox', { name: 'Role of Bea Builder' }).selectOption({ label: 'Moderator' });
    assert.equal((await users()).find((u) => u.user_id === bea.user_id)?.role, 400, 'nothing changes before Save');
    await row.getByRole('button', { name: 'Save the role of Bea Builder' }).click();
    await page.getByRole('status').filter({ hasText: 'Bea Builder is now moderator' }).waitFor();
    assert.equal((await users()).find((u) => u.user_id === bea.user_id)?.role, 300);

    // The server's refusal (the only owner keeps the owner role) is shown and the choice undone.
    const adaRole = page.getByRole('combobox', { name: `Role of ${OWNER.name}` });
    await adaRole.selectOption({ label: 'Member' });
    await page.getByRole('button', { name: `Save the role of ${OWNER.name}` }).click();
    await page.getByRole('alert').filter({ hasText: `Could not change the role of ${OWNER.name}` }).waitFor();
    assert.equal(await adaRole.inputValue(), '100');
    assert.equal((await owner.get('/users/me')).body.role, 100);
    expectNetworkErrors(t, 400, `/json/users/`);

    await row.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByRole('button', { name: 'Reactivate' }).waitFor();
    assert.equal((await users()).find((u) => u.user_id === bea.user_id)?.is_active, false);
    await row.getByRole('button', { name: 'Reactivate' }).click();
    await row.getByRole('button', { name: 'Deactivate' }).waitFor();
    assert.equal((await users()).find((u) => u.user_id === bea.user_id)?.is_active, true);

    await row.getByRole('button', { name: 'Reset password' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset the password of Bea Builder' });
    await reset.getByLabel('New password').fill('bea password 2');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('status').filter({ hasText: 'The password of Bea Builder was changed' }).waitFor();
    const anon = new Client(ts.url, null);
    assert.equal((await anon.post('/fetch_api_key', { username: 'bea@example.com', password: 'bea password 2' })).status, 200);
  });

  test('creates a bot, copies its key, downloads its zuliprc and regenerates the key', async () => {
    const { page } = t;
    await page.getByRole('button', { name: 'Add bot' }).click();
    const add = page.getByRole('dialog', { name: 'Add bot' });
    await add.getByLabel('Bot name').fill('Alert Bot');
    await add.getByLabel('Bot username').fill('alerts');
    await add.getByRole('button', { name: 'Create bot' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'API key of Alert Bot' });
    await keyDialog.waitFor();
    const key = await keyDialog.getByLabel('API key').inputValue();
    const botEmail = await keyDialog.getByLabel('Bot email').inputValue();
    assert.match(key, /^\w{20,}$/);
    assert.match(botEmail, /^alerts-bot@/);
    await t.shot('05-bot-key');

    await keyDialog.getByRole('button', { name: 'Copy key' }).click();
    await keyDialog.getByRole('status').filter({ hasText: 'API key copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);

    // Through the API: the key signs the bot in.
    const bot = new Client(ts.url, { id: 0, email: botEmail, apiKey: key, password: '' });
    const me = await bot.get('/users/me');
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.is_bot, true);
    assert.equal(me.body.full_name, 'Alert Bot');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      keyDialog.getByRole('button', { name: 'Download zuliprc' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'zuliprc');
    const rc = await readFile((await download.path())!, 'utf8');
    assert.equal(rc, `[api]\nemail=${botEmail}\nkey=${key}\nsite=${ts.url}\n`);

    await keyDialog.getByRole('button', { name: 'Regenerate key' }).click();
    await keyDialog.getByRole('status').filter({ hasText: 'A new key was made' }).waitFor();
    const newKey = await keyDialog.getByLabel('API key').inputValue();
    assert.notEqual(newKey, key);
    assert.equal((await bot.get('/users/me')).status, 401, 'the old key no longer works');
    const renewed = new Client(ts.url, { id: 0, email: botEmail, apiKey: newKey, password: '' });
    assert.equal((await renewed.get('/users/me')).status, 200);
    await keyDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Bots' }).getByRole('row').filter({ hasText: 'Alert Bot' }).waitFor();

    // Another administrator's bot: GET /bots does not list its key, so the page offers to regenerate it.
    const anon = new Client(ts.url, null);
    await owner.post('/users', { email: 'ann@example.com', password: 'ann password 1', full_name: 'Ann Admin' });
    const annKey = (await anon.post('/fetch_api_key', { username: 'ann@example.com', password: 'ann password 1' })).body;
    assert.equal((await owner.patch(`/users/${annKey.user_id}`, { role: 200 })).status, 200);
    const ann = new Client(ts.url, { id: annKey.user_id, email: 'ann@example.com', apiKey: annKey.api_key, password: '' });
    const annBot = await ann.post('/bots', { full_name: 'Ann Bot', short_name: 'annbot' });
    assert.equal(annBot.status, 200, JSON.stringify(annBot.body));
    await page.reload();
    const annRow = page.getByRole('table', { name: 'Bots' }).getByRole('row').filter({ hasText: 'Ann Bot' });
    await annRow.getByRole('button', { name: 'API key' }).click();
    const annDialog = page.getByRole('dialog', { name: 'API key of Ann Bot' });
    await annDialog.getByText('belongs to another administrator').waitFor();
    assert.equal(await annDialog.getByRole('button', { name: 'Copy key' }).isDisabled(), true);
    assert.equal(await annDialog.getByLabel('API key').inputValue(), '');
    await annDialog.getByRole('button', { name: 'Regenerate key' }).click();
    await annDialog.getByRole('status').filter({ hasText: 'A new key was made' }).waitFor();
    const annNewKey = await annDialog.getByLabel('API key').inputValue();
    assert.notEqual(annNewKey, annBot.body.api_key);
    const annBotEmail = await annDialog.getByLabel('Bot email').inputValue();
    assert.equal((await new Client(ts.url, { id: 0, email: annBotEmail, apiKey: annNewKey, password: '' }).get('/users/me')).status, 200);
    assert.equal(await annDialog.getByRole('button', { name: 'Copy key' }).isDisabled(), false);
    await annDialog.getByRole('button', { name: 'Done' }).click();
  });

  test('changes organization settings', async () => {
    const { page } = t;
    const sub = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    const mods = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'moderators' }], invite_only: true });
    assert.equal(mods.status, 200, JSON.stringify(mods.body));
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Organization name').waitFor();
    await page.getByLabel('Organization name').fill('Acme Corp');
    await page.getByLabel('Organization description').fill('The **Acme** team chat');
    await page.getByLabel('Who can see email addresses').selectOption({ label: 'Administrators only' });
    await page.getByLabel('Maximum upload size (MiB)').fill('10');
    assert.equal(await page.getByLabel(/^Read receipts/).isChecked(), true, 'on by default');
    await page.getByLabel(/^Read receipts/).uncheck();
    await page.getByLabel('Message reports go to').locator('option', { hasText: '#moderators' }).waitFor({ state: 'attached' });
    await page.getByLabel('Message reports go to').selectOption({ label: '#moderators' });
    await page.getByLabel('New channels are announced in').locator('option', { hasText: '#general' }).waitFor({ state: 'attached' });
    await page.getByLabel('New channels are announced in').selectOption({ label: '#general' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    const saved = page.getByRole('status').filter({ hasText: /Saved|saved/ });
    await saved.waitFor();
    await t.shot('06-settings');
    // The upload limit is an organization setting on Hearth: stored.
    assert.equal(ts.app.store.realm.data.realm!.settings.max_file_upload_size_mib, 10);
    assert.equal(await saved.textContent(), 'Settings saved.');

    const settings = await new Client(ts.url, null).get('/server_settings');
    assert.equal(settings.body.realm_name, 'Acme Corp');
    const realm = ts.app.store.realm.data.realm!;
    assert.equal(realm.name, 'Acme Corp');
    assert.equal(realm.description, 'The **Acme** team chat');
    assert.equal(realm.settings.email_address_visibility, 3);
    assert.equal(realm.settings.enable_read_receipts, false);
    const modsId = ts.app.store.channels.data.channels.find((c) => c.name === 'moderators')!.id;
    assert.equal(realm.settings.moderation_request_channel_id, modsId);
    assert.equal(realm.settings.new_stream_announcements_stream_id, ts.app.store.channels.data.channels.find((c) => c.name === 'general')!.id);

    // A channel folder, through the form.
    await page.getByLabel('Folder name').fill('Projects');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByRole('status').filter({ hasText: 'Folder created' }).waitFor();
    const folders = await owner.get('/channel_folders');
    assert.deepEqual(folders.body.channel_folders.map((f: { name: string }) => f.name), ['Projects']);

    // A default channel, a custom profile field and an icon.
    // The new organization's default channels (#general and #sandbox): one taken out, then put back.
    const defaultNames = async () => (await owner.get('/default_streams')).body.default_streams.map((c: { name: string }) => c.name).sort();
    assert.deepEqual(await defaultNames(), ['general', 'sandbox']);
    await page.getByRole('button', { name: 'Remove sandbox from default channels' }).click();
    await page.getByRole('list', { name: 'Default channels' }).getByText('#sandbox').waitFor({ state: 'detached' });
    assert.deepEqual(await defaultNames(), ['general']);
    await page.getByLabel('Channel', { exact: true }).selectOption({ label: 'sandbox' });
    await page.getByRole('button', { name: 'Add default channel' }).click();
    await page.getByRole('status').filter({ hasText: 'Default channel added' }).waitFor();
    assert.deepEqual(await defaultNames(), ['general', 'sandbox']);

    await page.getByLabel('Field name').fill('Phone');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('status').filter({ hasText: 'Field added' }).waitFor();
    const fields = await owner.get('/realm/profile_fields');
    assert.deepEqual(fields.body.custom_fields.map((f: { name: string; type: number }) => [f.name, f.type]), [['Phone', 1]]);

    const iconBefore = (await owner.get('/server_settings')).body.realm_icon;
    await page.getByLabel('New icon').setInputFiles(fileURLToPath(new URL('../../server/static/hearth-icon.png', import.meta.url)));
    await page.getByRole('button', { name: 'Upload icon' }).click();
    await page.getByRole('status').filter({ hasText: 'Icon updated' }).waitFor();
    const iconAfter = (await owner.get('/server_settings')).body.realm_icon as string;
    assert.notEqual(iconAfter, iconBefore);
    assert.equal(await page.getByRole('img', { name: 'Current organization icon' }).evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), true);

    // A custom emoji: a bad name is refused before the upload; a good one is listed with its image, then deactivated.
    const emojiFile = fileURLToPath(new URL('../../server/static/hearth-icon.png', import.meta.url));
    await page.getByLabel('Emoji name').fill('Bad Name');
    await page.getByLabel('Image', { exact: true }).setInputFiles(emojiFile);
    await page.getByRole('button', { name: 'Add emoji' }).click();
    await page.getByRole('alert').filter({ hasText: 'lower-case letters' }).waitFor();
    await page.getByLabel('Emoji name').fill('hearth_fire');
    await page.getByRole('button', { name: 'Add emoji' }).click();
    await page.getByRole('status').filter({ hasText: ':hearth_fire: added' }).waitFor();
    const emoji = Object.values((await owner.get('/realm/emoji')).body.emoji as Record<string, { name: string; deactivated: boolean }>);
    assert.deepEqual(emoji.map((e) => [e.name, e.deactivated]), [['hearth_fire', false]]);
    const emojiList = page.getByRole('list', { name: 'Custom emoji' });
    assert.equal(await emojiList.locator('img').first().evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), true);
    await t.shot('06c-custom-emoji');
    await page.getByRole('button', { name: 'Deactivate :hearth_fire:' }).click();
    await emojiList.getByText('No custom emoji.').waitFor();
    assert.equal(ts.app.store.emoji.data.emoji[0]!.deactivated, true);

    // A linkifier: a broken pattern shows the server's reason; a good one is listed, then deleted.
    await page.getByLabel('Pattern').fill('#(?P<id>[0-9]+');
    await page.getByLabel('URL template').fill('https://tracker.example/issues/{id}');
    await page.getByRole('button', { name: 'Add linkifier' }).click();
    await page.getByRole('alert').filter({ hasText: 'Bad regular expression' }).waitFor();
    // Chromium logs the refused request itself; that one is expected (the page shows the reason above).
    const refused = t.errors.findIndex((e) => e.includes('status of 400') && e.includes('/json/realm/filters'));
    assert.ok(refused >= 0, JSON.stringify(t.errors));
    t.errors.splice(refused, 1);
    await page.getByLabel('Pattern').fill('#(?P<id>[0-9]+)');
    await page.getByRole('button', { name: 'Add linkifier' }).click();
    await page.getByRole('status').filter({ hasText: 'Linkifier added' }).waitFor();
    const linkifiers = (await owner.get('/realm/linkifiers')).body.linkifiers as { pattern: string; url_template: string }[];
    assert.deepEqual(linkifiers.map((l) => [l.pattern, l.url_template]), [['#(?P<id>[0-9]+)', 'https://tracker.example/issues/{id}']]);
    const linkifierList = page.getByRole('list', { name: 'Linkifiers' });
    await linkifierList.getByText('https://tracker.example/issues/{id}').waitFor();
    await t.shot('06d-linkifiers');
    await page.getByRole('button', { name: 'Delete the linkifier #(?P<id>[0-9]+)' }).click();
    await linkifierList.getByText('No linkifiers.').waitFor();
    assert.deepEqual((await owner.get('/realm/linkifiers')).body.linkifiers, []);
    await t.shot('06b-settings-lists');

    // Upload limits (owners, the Security card): the organization's quota and guests' daily allowance.
    const quota = page.getByLabel('Upload quota for the organization (MiB)');
    await page.getByText(/Uploaded files now take/).waitFor();
    assert.equal(await quota.inputValue(), '10240', 'the default quota is shown');
    await quota.fill('500');
    await page.getByLabel('Uploads per guest in 24 hours (MiB)').fill('5');
    await page.getByRole('button', { name: 'Save security settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Security settings saved.' }).waitFor();
    assert.equal(ts.app.store.realm.data.realm!.settings.hearth_upload_quota_mib, 500);
    assert.equal(ts.app.store.realm.data.realm!.settings.hearth_guest_upload_mib_per_day, 5);
    assert.equal((await owner.post('/register', { fetch_event_types: ['realm'] })).body.realm_upload_quota_mib, 500);
    await quota.scrollIntoViewIfNeeded();
    await t.shot('06e-security-uploads');
  });

  test('shows the status and backs up the data folder with progress', async () => {
    const { page } = t;
    await page.getByRole('link', { name: 'Status' }).click();
    const status = (await owner.get('/hearth/status')).body;
    await page.getByText(`Hearth ${status.version} (Zulip API feature level ${status.zulip_feature_level})`).waitFor();
    await page.getByText(status.data_dir, { exact: true }).waitFor();
    await page.getByLabel('Destination folder').fill(backupDir);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByRole('status').filter({ hasText: 'Backup complete' }).waitFor();
    const bar = await page.getByRole('progressbar', { name: 'Backup progress' }).evaluate((p) => [(p as HTMLProgressElement).value, (p as HTMLProgressElement).max]);
    const done = (await owner.get('/hearth/backup')).body;
    assert.equal(done.state, 'done');
    assert.deepEqual(bar, [done.copied_bytes, done.total_bytes]);
    assert.ok(done.total_bytes > 0);
    await t.shot('07-status-backup');
    const made = await readdir(backupDir);
    assert.equal(made.length, 1);
    assert.match(made[0]!, /^hearth-backup-/);
    const copied = JSON.parse(await readFile(join(backupDir, made[0]!, 'realm.json'), 'utf8'));
    assert.equal(copied.realm.name, 'Acme Corp');
  });

  test('in the desktop window, uses the preload bridge for folders and external links', async () => {
    const { page } = t;
    // What main/preload.cts exposes, faked: record the calls.
    // (A string: tsx's compiled functions call a helper that does not exist in the page.)
    await page.addInitScript({
      content: `{
        const calls = [];
        window.hearthCalls = calls;
        window.hearth = Object.freeze({
          chooseFolder: async () => (calls.push('chooseFolder'), ${JSON.stringify(backupDir)}),
          openDataFolder: async () => void calls.push('openDataFolder'),
          openExternal: async (url) => (calls.push('openExternal ' + url), true),
        });
      }`,
    });
    await page.reload();
    await page.getByRole('button', { name: 'Choose folder…' }).click();
    assert.equal(await page.getByLabel('Destination folder').inputValue(), backupDir);
    await page.getByRole('button', { name: 'Open data folder' }).click();
    const url = ((await owner.get('/hearth/status')).body.lan_urls as string[])[0]!;
    const pagesBefore = t.context.pages().length;
    await page.getByRole('link', { name: url }).click();
    const calls = await page.evaluate(() => (window as unknown as { hearthCalls: string[] }).hearthCalls);
    assert.deepEqual(calls, ['chooseFolder', 'openDataFolder', `openExternal ${new URL(url).href}`]);
    assert.equal(t.context.pages().length, pagesBefore, 'no new window');
  });

  test('shows server HTML (the organization description) only through DOMPurify', async () => {
    const { page } = t;
    await page.getByRole('button', { name: 'Sign out' }).click();
    const description = page.locator('.realm-description');
    await description.locator('strong').filter({ hasText: 'Acme' }).waitFor();
    // A hostile description (as if the server's own sanitiser had failed): shown without its script.
    await page.route('**/json/server_settings', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      body.realm_description = '<p><b>Bold</b><img src="/nope.png" onerror="window.pwned=1"><script>window.pwned=2</script><a href="javascript:window.pwned=3">x</a><span style="color:red">styled</span><img src="https://evil.example/track.png" alt="tracker"></p>';
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    await description.locator('b').filter({ hasText: 'Bold' }).waitFor();
    const html = await description.innerHTML();
    assert.doesNotMatch(html, /onerror|<script|javascript:|style=|evil\.example/i, html);
    assert.match(html, /styled/);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    await page.unroute('**/json/server_settings');
    // Expected here only: the sanitised <img> asks for its (missing) file (404).
    await page.waitForTimeout(200);
    t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !e.includes('/nope.png')));
  });

  test('creates an invite link; a colleague opens it and creates their own account', async () => {
    const { page } = t;
    // The previous test signed out.
    await page.goto(`${ts.url}/admin/#users`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Invite links' }).waitFor();
    await page.getByLabel('Joins as').selectOption({ label: 'Member' });
    await page.getByLabel('Link expires after').selectOption({ label: '7 days' });
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const linkInput = page.getByLabel('New invite link');
    await linkInput.waitFor();
    const link = await linkInput.inputValue();
    assert.match(link, /\/join\/[a-z0-9]{24}\/$/);
    const listed = (await owner.get('/invites')).body.invites as { link_url: string; expiry_date: number; invited: number }[];
    const made = listed.find((i) => i.link_url === link)!;
    assert.equal(made.expiry_date - made.invited, 7 * 86400);
    await page.getByRole('list', { name: 'Invite links' }).getByText(link).waitFor();
    await t.shot('04b-invite-link');

    const colleague = await openPage(browser, ts.url);
    try {
      await colleague.page.goto(link);
      await colleague.page.getByRole('heading', { name: /^Join / }).waitFor();
      await colleague.page.getByLabel('Your name').fill('Cora Colleague');
      await colleague.page.getByLabel('Email').fill('cora@example.com');
      await colleague.page.getByLabel('Password').fill('cora password 1');
      await colleague.page.getByRole('button', { name: 'Create my account' }).click();
      await colleague.page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
      await colleague.page.getByText(ts.url, { exact: true }).waitFor();
      await colleague.shot('04c-joined');
      // Joined is signed in: the chat opens without asking again.
      await colleague.page.getByRole('link', { name: 'Open the chat' }).click();
      await colleague.page.getByRole('navigation', { name: 'Conversations' }).waitFor();
      assert.equal(await colleague.page.getByRole('button', { name: 'Sign in' }).count(), 0);
      assert.deepEqual(colleague.errors, []);
    } finally {
      await colleague.close();
    }
    const login = await new Client(ts.url, null).post('/fetch_api_key', { username: 'cora@example.com', password: 'cora password 1' });
    assert.equal(login.status, 200, JSON.stringify(login.body));

    // Revoked, the link stops working.
    await page.getByRole('button', { name: /^Revoke the invite link/ }).first().click();
    await page.getByRole('status').filter({ hasText: 'Invite link revoked' }).waitFor();
    assert.ok(!((await owner.get('/invites')).body.invites as { link_url: string }[]).some((i) => i.link_url === link));
  });

  test('goes back to sign-in when the server ends the session (the account was deactivated)', async () => {
    const ann = await openPage(browser, ts.url);
    try {
      await ann.page.goto(`${ts.url}/admin/`);
      await ann.page.getByLabel('Email').fill('ann@example.com');
      await ann.page.getByLabel('Password').fill('ann password 1');
      await ann.page.getByRole('button', { name: 'Sign in' }).click();
      await ann.page.getByRole('table', { name: 'Users' }).waitFor();
      await networkQuiet(ann.page);
      const annId = (await owner.get('/users')).body.members.find((u: { delivery_email: string }) => u.delivery_email === 'ann@example.com').user_id;
      assert.equal((await owner.delete(`/users/${annId}`)).status, 200);
      // The chat's event long-poll hears the session end at once: the page goes back to sign-in with no click.
      await ann.page.getByRole('heading', { name: /^Sign in to / }).waitFor();
      assert.equal(await sessionCookie(ann), null, 'the dead session\'s cookie is cleared');
      expectNetworkErrors(ann, 401, '/json/events');
      // The page's other calls in flight got the same 401, and the page then asked whether it is signed in.
      ann.errors.splice(0, ann.errors.length, ...ann.errors.filter((e) => !(e.includes('status of 401') && e.includes('/json/'))));
      assert.deepEqual(ann.errors, []);
    } finally {
      await ann.close();
    }
  });

  test('a 390 px phone: sign-in, users, settings and status scroll nothing sideways (tables scroll in their own box)', async () => {
    const { page } = t;
    const shotAt = async (width: number, name: string) => {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await page.waitForTimeout(100);
      assert.equal(await scrollsSideways(page), false, `${name} at ${width} px`);
      await t.shot(`${name}-${width}`);
    };
    try {
      for (const route of ['users', 'settings', 'status']) {
        await page.goto(`${ts.url}/admin/#${route}`);
        await page.getByRole('navigation', { name: 'Admin sections' }).waitFor();
        await networkQuiet(page);
        for (const width of [1280, 390, 360]) await shotAt(width, `09-${route}`);
        if (route === 'users') {
          // The users table is wider than a phone: it scrolls inside its box.
          const box = page.getByRole('region', { name: 'Users list' });
          assert.ok(await box.evaluate((el) => el.scrollWidth > el.clientWidth), 'the table scrolls in its box');
          await box.evaluate((el) => el.scrollBy(1000, 0));
          assert.equal(await scrollsSideways(page), false);
          await t.shot('09-users-360-table-scrolled');
        }
      }
      // At 360 px the chat's account links, Sign out among them, are in the drawer.
      await page.getByRole('button', { name: 'Channels and conversations' }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: /^Sign in to / }).waitFor();
      for (const width of [1280, 390, 360]) await shotAt(width, '09-sign-in');
    } finally {
      await page.setViewportSize({ width: 1024, height: 768 });
    }
  });

  test('logged no console errors', () => {
    forgetSessionProbes(t);
    assert.deepEqual(t.errors, []);
  });
});

const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

test.describe('admin UI setup from another computer', () => {
  test.describe.configure({ timeout: 60_000 });
  const why = skip || (lanAddress ? false : 'no non-loopback interface');
  test.skip(why !== false, String(why));
  test('needs the setup token: refused without it, accepted with the token the window passes', async ({ chromium: browser }) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-ui-lan-'));
    // This machine plays another one: the server counts only loopback as its own addresses.
    const config = { networkInterfaces: () => ({ lo: networkInterfaces().lo }) };
    const server = await startServer({ dataDir, host: lanAddress!, port: 0, log: silentLogger, setupToken: true, config });
    const t = await openPage(browser, server.url);
    try {
      const { page } = t;
      // Through the API: no token, no setup.
      const api = new Client(server.url, null);
      const refused = await api.post('/hearth/setup', { realm_name: 'X', email: 'x@example.com', password: 'long enough pw' });
      assert.equal(refused.status, 403);

      // The page asks for the token; a wrong one is refused and nothing is created.
      await page.goto(`${server.url}/admin/`);
      await page.getByLabel('Setup token').waitFor();
      await page.getByLabel('Organization name').fill('Lan Office');
      await page.getByLabel('Your name').fill('Lee');
      await page.getByLabel('Your email').fill('lee@example.com');
      await page.getByLabel('Password', { exact: true }).fill('lee password');
      await page.getByLabel('Confirm password').fill('lee password');
      await page.getByLabel('Setup token').fill('not-the-token');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await page.getByRole('alert').waitFor();
      await t.shot('08-lan-setup-refused');
      expectNetworkErrors(t, 403, '/json/hearth/setup');
      assert.equal(realmName(server.store), null);

      // A stale token in the address: refused, and the page then asks for the token.
      await page.goto('about:blank');
      await page.goto(`${server.url}/admin/#setup_token=stale-token`);
      await page.getByRole('heading', { name: 'Set up Hearth' }).waitFor();
      assert.equal(await page.getByLabel('Setup token').isVisible(), false);
      await page.getByLabel('Organization name').fill('Lan Office');
      await page.getByLabel('Your name').fill('Lee');
      await page.getByLabel('Your email').fill('lee@example.com');
      await page.getByLabel('Password', { exact: true }).fill('lee password');
      await page.getByLabel('Confirm password').fill('lee password');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await page.getByLabel('Setup token').waitFor({ state: 'visible' });
      expectNetworkErrors(t, 403, '/json/hearth/setup');
      assert.equal(realmName(server.store), null);

      // The desktop window's address carries the token in the fragment: no field, setup works.
      await page.goto('about:blank');
      await page.goto(`${server.url}/admin/#setup_token=${encodeURIComponent(server.setupToken!)}`);
      await page.getByRole('heading', { name: 'Set up Hearth' }).waitFor();
      assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
      assert.equal(await page.getByLabel('Setup token').isVisible(), false);
      await page.getByLabel('Organization name').fill('Lan Office');
      await page.getByLabel('Your name').fill('Lee');
      await page.getByLabel('Your email').fill('lee@example.com');
      await page.getByLabel('Password', { exact: true }).fill('lee password');
      await page.getByLabel('Confirm password').fill('lee password');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await page.getByRole('heading', { name: 'Your organization is ready' }).waitFor();
      await page.getByRole('link', { name: server.url }).waitFor();
      assert.equal(realmName(server.store), 'Lan Office');
      assert.deepEqual(t.errors, []);
    } finally {
      await t.close();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

test.describe('admin UI on the server computer of a LAN-wide server (where the desktop window is)', () => {
  test.describe.configure({ timeout: 60_000 });
  const why = skip || (lanAddress ? false : 'no non-loopback interface');
  test.skip(why !== false, String(why));
  test('a bot\'s zuliprc names the server\'s LAN address, not the loopback one the page uses', async ({ chromium: browser }) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-ui-wildcard-'));
    // Bound to every interface, as the desktop app by default; the page is opened on loopback, as the window does.
    const server = await startServer({ dataDir, host: '0.0.0.0', port: 0, log: silentLogger });
    const origin = `http://127.0.0.1:${server.port}`;
    const t = await openPage(browser, origin);
    try {
      const made = await new Client(origin, null).post('/hearth/setup', { realm_name: 'Wide Office', email: 'wes@example.com', password: 'wes password', full_name: 'Wes' });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const wes = new Client(origin, { id: made.body.user_id, email: 'wes@example.com', apiKey: made.body.api_key, password: 'wes password' });
      const lan = ((await wes.get('/hearth/status')).body.lan_urls as string[]).find((u) => new URL(u).hostname !== '127.0.0.1');
      assert.ok(lan, 'a wildcard bind on a machine with a LAN address lists it');

      const { page } = t;
      await page.goto(`${origin}/admin/`);
      await page.getByLabel('Email').fill('wes@example.com');
      await page.getByLabel('Password').fill('wes password');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Add bot' }).click();
      const add = page.getByRole('dialog', { name: 'Add bot' });
      await add.getByLabel('Bot name').fill('Door Bot');
      await add.getByLabel('Bot username').fill('door');
      await add.getByRole('button', { name: 'Create bot' }).click();
      const keyDialog = page.getByRole('dialog', { name: 'API key of Door Bot' });
      const key = await keyDialog.getByLabel('API key').inputValue();
      const botEmail = await keyDialog.getByLabel('Bot email').inputValue();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        keyDialog.getByRole('button', { name: 'Download zuliprc' }).click(),
      ]);
      const rc = await readFile((await download.path())!, 'utf8');
      assert.equal(rc, `[api]\nemail=${botEmail}\nkey=${key}\nsite=${lan}\n`);
      // The address works: the bot signs in through it.
      assert.equal((await new Client(lan!, { id: 0, email: botEmail, apiKey: key, password: '' }).get('/users/me')).status, 200);
      forgetSessionProbes(t);
      assert.deepEqual(t.errors, []);
    } finally {
      await t.close();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
