/**
 * The Status page's "Export for Zulip" card, in Debian's Chromium against a real server (temp
 * data dir, port 0): the card says how many people allow exporting their private data; the
 * owner clicks "Export for Zulip", sees the progress (a labelled progress bar and a line such as
 * "Messages: 2,000 of 2,949") and then the export in the list with a Download link; the server
 * lists it (GET /export/realm: not pending, with its URL) and the link answers the signed-in
 * browser with a .tar.gz (gzip magic, a tar inside) and anyone else with a 401. An export that
 * fails (a file where its folder should go) says so plainly; Delete removes one (its link then
 * answers 404); an administrator who is not an owner is offered the public export and makes
 * one. 1280 and 390 px: nothing scrolls sideways; axe-core finds no serious or critical
 * violation; any console error fails. The Server card shows the disk's free space, and a warning
 * when the status answer says it is low (made so by route: 512 MiB of 100 GiB).
 *
 * The progress lines: a small organization's export is written in less than one poll (500
 * ms), so the first answers of GET /json/hearth/export after the click are scripted (route),
 * in the order and shape the server sends them, including its packing step, which reports
 * 'uploads' 1 of 1 again after 'custom emoji'; the export itself is real and the page then
 * follows the server's own answers to the end.
 * Screenshots: test-results/admin-ui/admin-export-1280.png, admin-export-390.png (and -running, -failed).
 */
import assert from 'node:assert/strict';
import { writeFile, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import { openPage, type TestPage } from '../helpers/browser.js';
import { isSessionProbe, signInToAdmin } from '../helpers/chat-page.js';
import { networkQuiet } from '../helpers/network-quiet.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import type { Account, Client, TestServer } from '../helpers/server.js';

interface RealmExport {
  id: number;
  export_time: number;
  acting_user_id: number;
  export_url: string | null;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  pending: boolean;
  export_type: number;
}

const exportCard = (page: Page) => page.getByRole('region', { name: 'Export for Zulip' });
const pastExports = (page: Page) => exportCard(page).getByRole('list', { name: 'Past exports' });
const downloadLinks = (page: Page) => exportCard(page).getByRole('link', { name: /^Download the export of / });
/** Whether the page scrolls sideways at its current width. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

async function signInToStatus(page: Page, url: string, who: Account): Promise<void> {
  await signInToAdmin(page, url, who);
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Status' }).click();
  await page.getByRole('heading', { name: 'Status', level: 1 }).waitFor();
}

/** Fits inside `width` px. */
async function assertInside(el: Locator, width: number): Promise<void> {
  const box = await el.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= width, `inside ${width} px: ${JSON.stringify(box)}`);
}

test.describe('admin Status page: Export for Zulip in Chromium', () => {
  // One page walks through the steps; they depend on each other.
  const s = serialSuite();
  let browser: Browser;
  let ts: TestServer;
  let t: TestPage;
  let owner: Client;
  let ada: Account;
  let firstUrl: string;

  const exportsList = async (client = owner) => {
    const res = await client.get('/export/realm');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.exports as RealmExport[];
  };

  test.beforeAll(async () => {
    ({ browser, ts } = s);
    owner = ts.ownerClient;
    const [mel, sam] = await ts.people('Mel', 'Sam');
    ada = await ts.addUser('Ada', 200);
    // Something to export: a public and a private channel, a direct message; Mel allows exporting her private data.
    await createChannel(ts, owner, 'general', { principals: [ts.owner.id, mel.account.id, sam.account.id] });
    await createChannel(ts, owner, 'hiring', { invite_only: true, principals: [ts.owner.id, mel.account.id] });
    for (const [to, content] of [['general', 'Lunch at noon?'], ['hiring', 'Two interviews on Friday']]) {
      const res = await owner.post('/messages', { type: 'stream', to, topic: 'plans', content });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const dm = await mel.client.post('/messages', { type: 'direct', to: [sam.account.id], content: 'See you there' });
    assert.equal(dm.status, 200, JSON.stringify(dm.body));
    const consent = await mel.client.patch('/settings', { allow_private_data_export: true });
    assert.equal(consent.status, 200, JSON.stringify(consent.body));

    t = await s.open(null);
    await signInToStatus(t.page, ts.url, ts.owner);
  });

  test('the card says what it does and who allows exporting their private data', async () => {
    const { page } = t;
    const card = exportCard(page);
    await card.getByRole('heading', { name: 'Export for Zulip', level: 2 }).waitFor();
    await card.getByText("Writes this organization in the form Zulip's importer reads, for moving to a Zulip server.").waitFor();
    // The steps are in the help center now (they were a README section).
    assert.equal(await card.getByRole('link', { name: 'Moving to Zulip' }).getAttribute('href'), '/help/moving-to-zulip');
    // Owner, Mel, Sam and Ada; only Mel allows it.
    await card
      .getByText(
        '1 of 4 people allows exporting their private data; direct messages and private channels of the others are left out (stop Hearth and run hearth export for everything).',
      )
      .waitFor();
    assert.equal(await card.getByRole('code').filter({ hasText: 'hearth export' }).count(), 1);
    await pastExports(page).getByText('No exports yet.').waitFor();
    const button = card.getByRole('button', { name: 'Export for Zulip', exact: true });
    assert.equal(await button.isEnabled(), true);
    assert.equal(await card.getByRole('progressbar').count(), 0, 'no progress bar before an export');
    assert.equal(await card.getByText('organization owner only', { exact: false }).isVisible(), false, 'an owner is not told to ask an owner');
  });

  test('the owner exports: progress, then the export with a Download link; the server agrees and the file is a .tar.gz', async () => {
    const { page } = t;
    const card = exportCard(page);
    await networkQuiet(page);
    // The first answers after the click, in the server's shape (see the header); each twice (one second).
    const scripted = [
      { phase: 'messages', done: 2000, total: 2949 },
      { phase: 'uploads', done: 1572864, total: 3145728 },
      { phase: 'custom emoji', done: 1, total: 2 },
      { phase: 'packing', done: 0, total: 1 },
    ].flatMap((p) => [p, p]);
    let served = 0;
    let real = 0;
    await page.route(`${ts.url}/json/hearth/export`, async (route) => {
      const next = scripted.shift();
      if (!next) {
        real++;
        return route.continue();
      }
      served++;
      await route.fulfill({ json: { result: 'success', msg: '', export: { id: 1, ...next, error: null } } });
    });
    try {
      await card.getByRole('button', { name: 'Export for Zulip', exact: true }).click();
      const bar = card.getByRole('progressbar', { name: 'Export progress' });
      await card.getByRole('status').filter({ hasText: 'Messages: 2,000 of 2,949' }).waitFor();
      await bar.waitFor();
      assert.equal(await bar.getAttribute('value'), '2000');
      assert.equal(await bar.getAttribute('max'), '2949');
      await t.shot('admin-export-running');
      assert.equal(await card.getByRole('button', { name: 'Export for Zulip', exact: true }).isDisabled(), true, 'one export at a time');
      // Meanwhile the list shows the real export as being written.
      await pastExports(page).getByText('Being written…').or(downloadLinks(page)).first().waitFor();
      await card.getByRole('status').filter({ hasText: 'Uploads: 1.5 MiB of 3.0 MiB' }).waitFor();
      await card.getByRole('status').filter({ hasText: 'Custom emoji: 1 of 2' }).waitFor();
      // The server's packing step reports 'uploads' again: not "Uploads: 1 bytes of 1 bytes".
      await card.getByRole('status').filter({ hasText: 'Packing the archive…' }).waitFor();
      assert.equal(await card.getByText('1 bytes').count(), 0);

      await card.getByRole('status').filter({ hasText: 'Export finished: download it from the list below.' }).waitFor();
      await downloadLinks(page).first().waitFor();
    } finally {
      await page.unroute(`${ts.url}/json/hearth/export`);
    }
    assert.equal(served, 8);
    assert.ok(real >= 1, 'the page followed the server to the end');
    assert.equal(await card.getByRole('progressbar').count(), 0, 'the progress bar goes when done');
    assert.equal(await card.getByRole('button', { name: 'Export for Zulip', exact: true }).isEnabled(), true);
    // Polling stopped: no more calls in the next second.
    let later = 0;
    const count = (r: { url: () => string }) => void (r.url().endsWith('/json/hearth/export') && later++);
    page.on('request', count);
    await page.waitForTimeout(1200);
    page.off('request', count);
    assert.equal(later, 0, 'no polling after the end');

    // The server: one export, finished, standard, by the owner, with its URL.
    const exports = await exportsList();
    assert.equal(exports.length, 1, JSON.stringify(exports));
    const [done] = exports as [RealmExport];
    assert.equal(done.pending, false);
    assert.equal(done.failed_timestamp, null);
    assert.equal(done.deleted_timestamp, null);
    assert.equal(done.export_type, 2);
    assert.equal(done.acting_user_id, ts.owner.id);
    assert.ok(done.export_url, 'export_url is set');
    assert.match(done.export_url, /^http:\/\/127\.0\.0\.1:\d+\/hearth\/exports\/1\/[^/]+\/hearth-export-[\d-]+\.tar\.gz$/);
    assert.equal(await pastExports(page).getByRole('listitem').count(), 1);
    const link = downloadLinks(page).first();
    assert.equal(await link.getAttribute('href'), done.export_url);
    assert.equal(await link.innerText(), 'Download');
    firstUrl = done.export_url;

    // The link, with the browser's session: a .tar.gz.
    const res = await page.context().request.get(firstUrl);
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], 'application/gzip');
    const body = await res.body();
    assert.deepEqual([body[0], body[1]], [0x1f, 0x8b], 'gzip magic');
    const tar = gunzipSync(body);
    assert.equal(tar.subarray(257, 262).toString(), 'ustar', 'a tar inside');
    assert.match(tar.subarray(0, 100).toString(), /^hearth-export-/);
    // Anyone not signed in: refused.
    const anon = await ts.anonymous.call('GET', new URL(firstUrl).pathname, {}, { raw: true });
    assert.equal(anon.status, 401);
  });

  test('1280 and 390 px: the card fits, nothing scrolls sideways on a phone', async () => {
    const { page } = t;
    try {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
        await page.waitForTimeout(150);
        assert.equal(await scrollsSideways(page), false, `#status at ${width} px`);
        const card = exportCard(page);
        for (const el of [card, card.getByRole('button', { name: 'Export for Zulip', exact: true }), downloadLinks(page).first(), card.getByRole('button', { name: /^Delete the export of / })]) {
          await assertInside(el, width);
        }
        await card.scrollIntoViewIfNeeded();
        await t.shot(`admin-export-${width}`);
      }
    } finally {
      await page.setViewportSize({ width: 1024, height: 768 });
    }
  });

  test('an export that fails says so plainly', async () => {
    const { page } = t;
    const card = exportCard(page);
    // A file where the next export's folder goes: writing it fails.
    await mkdir(join(ts.dataDir, 'exports'), { recursive: true });
    const inTheWay = join(ts.dataDir, 'exports', '2');
    await writeFile(inTheWay, 'not a folder');
    try {
      await card.getByRole('button', { name: 'Export for Zulip', exact: true }).click();
      await card.getByRole('alert').filter({ hasText: /^The export failed: / }).waitFor();
      await pastExports(page).getByRole('listitem').filter({ hasText: 'Failed: nothing to download' }).waitFor();
      await t.shot('admin-export-failed');
    } finally {
      await rm(inTheWay, { force: true });
    }
    assert.equal(await card.getByRole('progressbar').count(), 0);
    const exports = await exportsList();
    const failed = exports.find((e) => e.id === 2);
    assert.ok(failed, JSON.stringify(exports));
    assert.equal(failed.pending, false);
    assert.equal(typeof failed.failed_timestamp, 'number');
    assert.equal(failed.export_url, null);
    // Newest first: the failed one, then the good one (still downloadable).
    const items = pastExports(page).getByRole('listitem');
    assert.equal(await items.count(), 2);
    assert.match(await items.nth(0).innerText(), /Failed: nothing to download/);
    assert.equal(await items.nth(1).getByRole('link', { name: /^Download/ }).count(), 1);
    assert.equal(await card.getByRole('button', { name: 'Export for Zulip', exact: true }).isEnabled(), true, 'another can be tried');
  });

  test('Delete removes an export: the list says so, the server agrees, the link answers 404', async () => {
    const { page } = t;
    const card = exportCard(page);
    const remove = card.getByRole('button', { name: /^Delete the export of / });
    assert.equal(await remove.count(), 1);
    // The page asks first (openPage accepts).
    await remove.click();
    await card.getByRole('status').filter({ hasText: /^The export of .* was deleted\.$/ }).waitFor();
    await pastExports(page).getByText(/^Deleted /).waitFor();
    assert.equal(await downloadLinks(page).count(), 0);
    // Focus stays in the card (on the list's heading), not lost with the removed button.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Past exports');
    const first = (await exportsList()).find((e) => e.id === 1);
    assert.ok(first);
    assert.equal(typeof first.deleted_timestamp, 'number');
    assert.equal(first.export_url, null);
    const gone = await page.context().request.get(firstUrl);
    assert.equal(gone.status(), 404);
  });

  test('an administrator who is not an owner is offered the public export, and makes one', async () => {
    const a = await openPage(browser, ts.url);
    try {
      const { page } = a;
      await signInToStatus(page, ts.url, ada);
      const card = exportCard(page);
      const button = card.getByRole('button', { name: 'Export public channels for Zulip' });
      await button.waitFor();
      await card
        .getByText('Private channels and direct messages can be exported by an organization owner only; as an administrator you can export the public channels.')
        .waitFor();
      assert.equal(await card.getByRole('button', { name: 'Export for Zulip', exact: true }).count(), 0);
      await networkQuiet(page);
      await button.click();
      await card.getByRole('status').filter({ hasText: 'Export finished: download it from the list below.' }).waitFor();
      const items = pastExports(page).getByRole('listitem');
      await eventually(async () => (await items.count()) === 3);
      assert.match(await items.nth(0).innerText(), /public channels only/);
      assert.equal(await items.nth(0).getByRole('link', { name: /^Download the export of / }).count(), 1);
      const mine = (await exportsList()).find((e) => e.acting_user_id === ada.id);
      assert.ok(mine, 'the export is listed');
      assert.equal(mine.export_type, 1);
      assert.equal(mine.pending, false);
      assert.ok(mine.export_url);
      const file = await page.context().request.get(mine.export_url);
      assert.equal(file.status(), 200);
      assert.deepEqual([...(await file.body()).subarray(0, 2)], [0x1f, 0x8b]);
      assert.deepEqual(a.errors.filter((e) => !isSessionProbe(e)), []);
    } finally {
      await a.close();
    }
  });

  test('no serious or critical axe-core violation on the Status page (1280 and 390 px)', async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    try {
      const p = await context.newPage();
      await signInToStatus(p, ts.url, ts.owner);
      await downloadLinks(p).first().waitFor();
      await networkQuiet(p);
      const found = (await axeViolations(p)).map((v) => `1280: ${v}`);
      await p.setViewportSize({ width: 390, height: 844 });
      found.push(...(await axeViolations(p)).map((v) => `390: ${v}`));
      assert.deepEqual(found, []);
    } finally {
      await context.close();
    }
  });

  test('the Server card shows the free disk space, and a warning when it falls under 1 GiB or 5%', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await context.newPage();
      await signInToStatus(p, ts.url, ts.owner);
      // The real figure, from the server's statfs of the data dir.
      const facts = p.getByRole('region', { name: 'Server' });
      await facts.getByText('Free disk space').waitFor();
      // The server's own answer, with the disk made nearly full: 512 MiB of 100 GiB.
      await p.route(`${ts.url}/json/hearth/status`, async (route) => {
        const real = await (await route.fetch()).json();
        await route.fulfill({ json: { ...real, disk_free_bytes: 512 * 1024 ** 2, disk_total_bytes: 100 * 1024 ** 3, disk_space_low: true } });
      });
      await p.reload();
      const warning = p.getByRole('alert').filter({ hasText: 'nearly full' });
      await warning.waitFor();
      assert.match(await warning.innerText(), /512\.0 MiB \(<1% of 100\.0 GiB\) free/);
      assert.match(await warning.innerText(), /every change \(messages\s+included\) is refused until space is freed/);
      assert.equal(await facts.getByText('512.0 MiB (<1% of 100.0 GiB)').count(), 1);
      await p.unroute(`${ts.url}/json/hearth/status`);
    } finally {
      await context.close();
    }
  });

  test('logged no console errors', () => {
    t.errors.splice(0, t.errors.length, ...t.errors.filter((e) => !isSessionProbe(e)));
    assert.deepEqual(t.errors, []);
  });
});
