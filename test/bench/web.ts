/**
 * `npm run bench -- web`: the chat web client in Debian's Chromium against a Hearth server
 * in a child process.
 * (a) delivery: a message posted through the API to its text in a signed-in page's DOM, over
 *     200 messages; baseline: the same messages reaching an API long-poll client.
 * (b) cold load (fresh browser profile, signed in) to the first channel's messages shown, for
 *     500 users, 100 channels and 100,000 messages; baseline: 20 users, 5 channels, 1,000 messages.
 * (c) JavaScript and CSS shipped, gzipped.
 * (d) a 10,000-message channel scrolled from the top to the bottom: most DOM nodes at once and
 *     the longest main-thread task.
 * Goals: (a) p50 <= 100 ms, p99 <= 250 ms; (b) <= 1.5 s; (c) <= 150 KB; (d) <= 2,000 nodes, no task > 100 ms.
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildWebBundle } from '../../server/lib/runtime/web-bundle.js';
import { DEFAULT_DATA_SET, generateDataSet, type DataSetInfo, type DataSetOptions } from './messages-data.js';
import { ChildProc, environment, fmtInt, fmtKB, fmtMs, goal, heading, median, removeTempDir, sleep, stopAllChildren, summarize, table, tempDir } from './lib.js';

const PASSWORD = 'bench password';
const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';

interface Server {
  url: string;
  info: DataSetInfo;
  child: ChildProc;
  dir: string;
}

async function startServer(o: DataSetOptions): Promise<Server> {
  const dir = tempDir('hearth-web-');
  const info = await generateDataSet(dir, { ...o, ownerPassword: PASSWORD });
  const { child, ready } = await ChildProc.start<{ port: number }>('hearth', 'messages-server.ts', [dir], { startTimeoutMs: 120_000 });
  return { url: `http://127.0.0.1:${ready.port}`, info, child, dir };
}

async function stopServer(s: Server): Promise<void> {
  await s.child.stop();
  removeTempDir(s.dir);
}

const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

async function api(s: Server, who: number, method: string, path: string, params: Record<string, string> = {}) {
  const u = s.info.users[who]!;
  const body = new URLSearchParams(params);
  const inQuery = method === 'GET';
  const res = await fetch(`${s.url}/api/v1${path}${inQuery ? `?${body}` : ''}`, {
    method,
    headers: { authorization: basic(u.email, u.apiKey), ...(inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
    body: inQuery ? undefined : body,
  });
  return (await res.json()) as Record<string, unknown>;
}

/** A browser context signed in as the owner (the session cookie from POST /json/login). */
async function signedInPage(browser: Browser, s: Server): Promise<Page> {
  const res = await fetch(`${s.url}/json/login`, { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password: PASSWORD }) });
  const cookie = /hearth_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'hearth_session', value: cookie, url: s.url, httpOnly: true, sameSite: 'Strict' }]);
  return context.newPage();
}

const channelHash = (s: Server, i = 0) => `#narrow/channel/${s.info.channels[i]!.id}`;

async function coldLoads(browser: Browser, s: Server, rounds: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const page = await signedInPage(browser, s);
    const t0 = Date.now();
    await page.goto(`${s.url}/${channelHash(s)}`);
    await page.locator('li.message').first().waitFor({ timeout: 30_000 });
    out.push(Date.now() - t0);
    await page.context().close();
  }
  return out;
}

async function delivery(browser: Browser, s: Server, n: number): Promise<{ page: number[]; api: number[] }> {
  const channel = s.info.channels[0]!;
  const sender = s.info.users.findIndex((u) => u.id !== s.info.users[0]!.id && channel.subscribers.includes(u.id));
  const page = await signedInPage(browser, s);
  await page.goto(`${s.url}/#narrow/channel/${channel.id}/topic/${encodeURIComponent('bench delivery')}`);
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  await sleep(500);
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { seen: Record<string, number> }).seen = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('li.message .content')) {
        const m = /bench-(\d+)/.exec(el.textContent ?? '');
        if (m && !(m[1]! in seen)) seen[m[1]!] = Date.now();
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  // The baseline: an API client long-polling its own queue for the same messages.
  const reg = await api(s, 0, 'POST', '/register', { event_types: '["message"]' });
  let last = Number(reg.last_event_id);
  const apiSeen = new Map<number, number>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const r = await api(s, 0, 'GET', '/events', { queue_id: String(reg.queue_id), last_event_id: String(last) });
      const now = Date.now();
      for (const e of (r.events as { id: number; message?: { content: string } }[]) ?? []) {
        last = Math.max(last, e.id);
        const m = /bench-(\d+)/.exec(e.message?.content ?? '');
        if (m) apiSeen.set(Number(m[1]), now);
      }
    }
  })();
  const sent = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    sent.set(i, Date.now());
    await api(s, sender, 'POST', '/messages', { type: 'stream', to: String(channel.id), topic: 'bench delivery', content: `bench-${i}` });
    await sleep(20);
  }
  await sleep(1500);
  polling = false;
  // One more message wakes the parked poll so the poller can stop.
  await api(s, sender, 'POST', '/messages', { type: 'stream', to: String(channel.id), topic: 'bench delivery', content: 'done' });
  await poller.catch(() => undefined);
  const seen = await page.evaluate(() => (window as unknown as { seen: Record<string, number> }).seen);
  await page.context().close();
  const pageTimes: number[] = [];
  const apiTimes: number[] = [];
  for (const [i, t0] of sent) {
    if (seen[String(i)] !== undefined) pageTimes.push(seen[String(i)]! - t0);
    if (apiSeen.has(i)) apiTimes.push(apiSeen.get(i)! - t0);
  }
  return { page: pageTimes, api: apiTimes };
}

async function scrollThrough(browser: Browser, s: Server): Promise<{ maxNodes: number; longestTask: number; loaded: number; ms: number; reachedTop: boolean }> {
  const page = await signedInPage(browser, s);
  await page.addInitScript(() => {
    const w = window as unknown as { longest: number };
    w.longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${s.url}/${channelHash(s)}`);
  await page.locator('li.message').first().waitFor({ timeout: 30_000 });
  const nodes = () => page.evaluate(() => document.getElementsByTagName('*').length);
  let maxNodes = await nodes();
  const t0 = Date.now();
  // Up to the beginning...
  for (let i = 0; i < 1500; i++) {
    await page.locator('.scroller').evaluate((el) => (el.scrollTop = 0));
    await sleep(60);
    maxNodes = Math.max(maxNodes, await nodes());
    if (await page.getByText('This is the beginning of the conversation.').count()) break;
  }
  const reachedTop = (await page.getByText('This is the beginning of the conversation.').count()) > 0;
  // ...then down to the end, a screen at a time.
  for (let i = 0; i < 3000; i++) {
    const done = await page.locator('.scroller').evaluate((el) => {
      el.scrollTop += el.clientHeight;
      return el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    });
    if (i % 5 === 0) maxNodes = Math.max(maxNodes, await nodes());
    if (done) {
      await sleep(200);
      const still = await page.locator('.scroller').evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
      if (still) break;
    }
  }
  maxNodes = Math.max(maxNodes, await nodes());
  const loaded = await page.evaluate(() => document.querySelectorAll('li.message').length);
  const longestTask = await page.evaluate(() => (window as unknown as { longest: number }).longest);
  await page.context().close();
  return { maxNodes, longestTask, loaded, ms: Date.now() - t0, reachedTop };
}

export async function main(): Promise<void> {
  heading('web: the chat client in Chromium (delivery, cold load, size, long channel)');
  console.log(environment());
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    // (c) size
    const bundle = await buildWebBundle();
    let gz = 0;
    for (const a of bundle.assets.values()) gz += gzipSync(a.body).length;
    console.log(`(c) shipped: ${[...bundle.assets.keys()].join(', ')}; gzipped ${fmtKB(gz / 1024)}`);

    // (b) cold load, big organization vs a small one, and (a) delivery on the big one
    const small = await startServer({ users: 20, channels: 5, subscribersPerChannel: 10, topicsPerChannel: 10, messages: 1_000 });
    const smallLoads = await coldLoads(browser, small, 5);
    await stopServer(small);
    console.log(`(b) baseline cold loads: ${smallLoads.map((x) => fmtMs(x, 0)).join(', ')}`);
    const big = await startServer({ ...DEFAULT_DATA_SET, users: 500, channels: 100, subscribersPerChannel: 30, messages: 100_000 });
    const bigLoads = await coldLoads(browser, big, 5);
    console.log(`(b) cold loads at 100k messages: ${bigLoads.map((x) => fmtMs(x, 0)).join(', ')}`);
    const d = await delivery(browser, big, 200);
    console.log(`(a) delivered ${d.page.length} to the page, ${d.api.length} to the API client`);
    await stopServer(big);

    // (d) one long channel
    const long = await startServer({ users: 20, channels: 1, subscribersPerChannel: 20, topicsPerChannel: 50, messages: 11_200 });
    const scroll = await scrollThrough(browser, long);
    console.log(`(d) scrolled from ${scroll.reachedTop ? 'the first message' : 'NOT the first message'} to the last in ${fmtMs(scroll.ms, 0)}`);
    await stopServer(long);

    const pageS = summarize(d.page);
    const apiS = summarize(d.api);
    table([
      ['figure', 'value', 'baseline', 'ratio'],
      ['(a) delivery p50', fmtMs(pageS.p50, 1), `${fmtMs(apiS.p50, 1)} (API long-poll)`, (pageS.p50 / apiS.p50).toFixed(2)],
      ['(a) delivery p99', fmtMs(pageS.p99, 1), `${fmtMs(apiS.p99, 1)} (API long-poll)`, (pageS.p99 / apiS.p99).toFixed(2)],
      ['(a) delivered', `${d.page.length}/200`, `${d.api.length}/200`, ''],
      ['(b) cold load (median of 5)', fmtMs(median(bigLoads), 0), `${fmtMs(median(smallLoads), 0)} (20 users, 1k messages)`, (median(bigLoads) / median(smallLoads)).toFixed(2)],
      ['(c) JS + CSS gzipped', fmtKB(gz / 1024), '', ''],
      ['(d) most DOM nodes', fmtInt(scroll.maxNodes), `${fmtInt(scroll.loaded)} messages in the page at the end`, ''],
      ['(d) longest task', fmtMs(scroll.longestTask, 0), `scroll took ${fmtMs(scroll.ms, 0)}`, ''],
    ]);
    console.log(`goal: (a) delivery p50 <= 100 ms: ${goal(pageS.p50 <= 100 && d.page.length === 200)}; p99 <= 250 ms: ${goal(pageS.p99 <= 250)}`);
    console.log(`goal: (b) cold load <= 1.5 s: ${goal(median(bigLoads) <= 1500)}`);
    console.log(`goal: (c) JS + CSS <= 150 KB gzipped: ${goal(gz <= 150 * 1024)}`);
    console.log(`goal: (d) <= 2,000 DOM nodes: ${goal(scroll.maxNodes <= 2000 && scroll.reachedTop)}; no task over 100 ms: ${goal(scroll.longestTask <= 100)}`);
  } finally {
    await browser.close();
    await stopAllChildren();
  }
}
