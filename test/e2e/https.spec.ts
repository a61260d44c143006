/**
 * HTTPS in Chromium: on plain HTTP the sign-in page says the connection is not encrypted and
 * links the secure address and the trust page; the trust page shows the fingerprint, what the
 * authority may vouch for and the downloads (1280 and 390 px); over HTTPS (Chromium told to
 * accept this server's key, as a device that trusts the authority would) the notice is gone and
 * the session cookie is Secure. The admin Status page shows the authority, warns about one from
 * before Name Constraints, and an owner replaces it there.
 */
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser } from 'playwright-core';
import { doCreateRealm } from '../../server/actions/users.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { axeViolations } from '../helpers/axe.js';
import { launchBrowser, openPage, type TestPage } from '../helpers/browser.js';
import { isSessionProbe } from '../helpers/chat-page.js';

const PASSWORD = 'long enough password';

test.describe('HTTPS and the trust page in Chromium', () => {
  serialSuite({ server: false, timeout: 90_000 });
  let browser: Browser;
  let server: RunningServer;
  let dir: string;
  let t: TestPage;
  let fingerprint: string;

  test.beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-https-ui-'));
    server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, httpsPort: 0, log: silentLogger });
    await doCreateRealm(server.server.app, 'Secure Office', { email: 'o@example.com', password: PASSWORD, fullName: 'Olive' });
    fingerprint = new X509Certificate(await readFile(join(dir, 'tls', 'ca.crt'), 'utf8')).fingerprint256;
    // Accept exactly this server's key (what trusting the authority gives a real device).
    const serverCert = new X509Certificate(await readFile(join(dir, 'tls', 'server.crt'), 'utf8'));
    const spki = createHash('sha256').update(serverCert.publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
    // Its own Chromium: the launch switch below accepts exactly this server's key.
    browser = await launchBrowser([`--ignore-certificate-errors-spki-list=${spki}`]);
    t = await openPage(browser, server.url);
  });

  test.afterAll(async () => {
    await t?.close();
    await browser?.close();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('on plain HTTP the sign-in page says so and links the secure address and the trust page', async () => {
    const { page } = t;
    await page.goto(`${server.url}/`);
    const note = page.getByRole('region', { name: 'Connection not encrypted' });
    await note.getByText('This connection is not encrypted').waitFor();
    const secure = `https://127.0.0.1:${server.httpsPort}/`;
    assert.equal(await note.getByRole('link', { name: secure }).getAttribute('href'), secure);
    await page.setViewportSize({ width: 390, height: 844 });
    await t.shot('https-signin-plain-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await note.getByRole('link', { name: 'trust this server' }).click();
    await page.getByRole('heading', { name: 'Trust this Hearth server', level: 1 }).waitFor();
  });

  test('an invite link opened over plain HTTP sends people to the trust page and the HTTPS invite first', async () => {
    const { page } = t;
    const owner = server.store.users.all().find((u) => u.email === 'o@example.com')!;
    const res = await fetch(`${server.url}/api/v1/invites/multiuse`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`o@example.com:${owner.api_key}`).toString('base64')}` },
      body: new URLSearchParams({}),
    });
    const link = String((await res.json()).invite_link);
    const key = /\/join\/([a-z0-9]+)\//.exec(link)![1]!;
    await page.goto(`${server.url}/join/${key}/`);
    const note = page.getByRole('region', { name: 'Connection not encrypted' });
    await note.getByRole('link', { name: 'trust this server' }).waitFor();
    const secure = `https://127.0.0.1:${server.httpsPort}/join/${key}/`;
    assert.equal(await note.getByRole('link', { name: secure }).getAttribute('href'), secure);
    await page.goto(secure);
    await page.getByLabel('Email').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Connection not encrypted' }).count(), 0);
    await page.goto(`${server.url}/hearth/trust`);
  });

  test('the trust page: fingerprint, downloads, steps per system; fits a phone; no serious axe violation', async () => {
    const { page } = t;
    await page.getByText(fingerprint).waitFor();
    await page.getByText("It can vouch only for this network's own names").waitFor();
    for (const name of ['Download the certificate (.crt)', 'For Windows and Android (.cer)', 'Profile for iPhone, iPad and Mac']) {
      await page.getByRole('link', { name }).waitFor();
    }
    for (const system of ['Windows', 'macOS', 'Linux', 'Firefox (any system)', 'iPhone and iPad', 'Android']) {
      await page.getByRole('heading', { name: system, level: 2 }).waitFor();
    }
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the certificate (.crt)' }).click();
    assert.equal((await download).suggestedFilename(), 'hearth-ca.crt');
    await t.shot('https-trust-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(100);
    await t.shot('https-trust-390');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1), 'nothing scrolls sideways');
    assert.deepEqual(await axeViolations(page), []);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('over HTTPS: no notice, signing in works and the session cookie is Secure', async () => {
    const { page, context } = t;
    await page.goto(`https://127.0.0.1:${server.httpsPort}/`);
    await page.getByRole('heading', { name: 'Sign in to Secure Office' }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Connection not encrypted' }).count(), 0);
    await page.getByLabel('Email').fill('o@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    const cookies = await context.cookies(`https://127.0.0.1:${server.httpsPort}/`);
    assert.ok(cookies.length > 0 && cookies.every((c) => c.secure && c.httpOnly), JSON.stringify(cookies));
    // One's own zuliprc names the HTTPS address and the authority, downloaded beside it.
    await page.goto(`https://127.0.0.1:${server.httpsPort}/#settings/account`);
    const card = page.getByRole('region', { name: 'API key' });
    await card.getByLabel('Password').fill(PASSWORD);
    await card.getByRole('button', { name: 'Show API key' }).click();
    // The two downloads may start in either order: each is waited for by its name.
    const files: Promise<import('playwright-core').Download>[] = [
      page.waitForEvent('download', (d) => d.suggestedFilename() === 'zuliprc'),
      page.waitForEvent('download', (d) => d.suggestedFilename() === 'hearth-ca.crt'),
    ];
    await card.getByRole('button', { name: 'Download zuliprc' }).click();
    const [rc, caFile] = (await Promise.all(files)) as [import('playwright-core').Download, import('playwright-core').Download];
    assert.equal(rc.suggestedFilename(), 'zuliprc');
    const text = await readFile((await rc.path())!, 'utf8');
    assert.match(text, new RegExp(`^site=https://127\\.0\\.0\\.1:${server.httpsPort}$`, 'm'));
    assert.match(text, /^cert_bundle=hearth-ca\.crt$/m);
    assert.equal(await readFile((await caFile.path())!, 'utf8'), await readFile(join(dir, 'tls', 'ca.crt'), 'utf8'));
    assert.deepEqual(t.errors.filter((e) => !isSessionProbe(e)), []);
  });

  test('the Status page shows the authority, warns about an unlimited one, and an owner replaces it', async () => {
    const { page } = t;
    const https = `https://127.0.0.1:${server.httpsPort}`;
    // An installation whose authority predates Name Constraints, as the status answer tells it.
    // (The real answer is fetched over plain HTTP: Playwright's own fetch does not trust the authority.)
    const owner = server.store.users.all().find((u) => u.email === 'o@example.com')!;
    const authorization = `Basic ${Buffer.from(`o@example.com:${owner.api_key}`).toString('base64')}`;
    await page.route('**/hearth/status', async (route) => {
      const body = await (await fetch(`${server.url}/api/v1/hearth/status`, { headers: { authorization } })).json();
      await route.fulfill({ json: { ...body, ca_name_constrained: false, https_names_left_out: ['reception', '2001:db8::20'] } });
    });
    await page.goto(`${https}/admin/`);
    await page.getByRole('link', { name: 'Status' }).click();
    const card = page.getByRole('region', { name: 'Certificate authority' });
    await card.getByText(fingerprint).waitFor();
    await card.getByText('This authority was made by an earlier version of Hearth').waitFor();
    await card.getByText('HTTPS does not work by reception, 2001:db8::20').waitFor();
    await t.shot('https-status-unlimited-ca');
    await page.unroute('**/hearth/status');
    // (The page accepts every dialog: test/helpers/browser.ts.)
    const asked = page.waitForEvent('dialog');
    await card.getByRole('button', { name: 'Replace the authority…' }).click();
    assert.match((await asked).message(), /^Replace the certificate authority\? Every device that installed the current one/);
    await card.getByRole('status').filter({ hasText: 'A new authority is in use' }).waitFor();
    const fresh = new X509Certificate(await readFile(join(dir, 'tls', 'ca.crt'), 'utf8')).fingerprint256;
    assert.notEqual(fresh, fingerprint);
    await card.getByText(fresh).waitFor();
    assert.equal(await card.getByText('This authority was made by an earlier version of Hearth').count(), 0);
    assert.deepEqual(await axeViolations(page), []);
    await t.shot('https-status-replaced-ca');
    assert.deepEqual(t.errors.filter((e) => !isSessionProbe(e)), []);
  });
});
