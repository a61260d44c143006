/**
 * `npm run bench -- calls`: Hearth's own calls (issue 32) in Debian's Chromium with its fake camera
 * and microphone, against a Hearth server in a child process.
 * (a) Join to first remote frame: two pages are in a fresh room; a third clicks Join; the time to the
 *     first decoded frame of each of the two others (a video element's first frame, requestVideoFrameCallback),
 *     p50 over 20 joins. Baseline (same run, same browser): a loopback RTCPeerConnection pair in one
 *     page, the fake camera's track from offer to its first frame on the other side, no Hearth signalling.
 * (b) The server's CPU per call-minute: its process.cpuUsage over a 1-minute 3-person call (heartbeats
 *     every 3 s from each page; the media never touches the server), against the same three pages
 *     idle in the chat for a minute.
 * Goal: (a) p50 <= 1 s.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { FAKE_MEDIA_ARGS } from '../helpers/calls.js';
import { generateDataSet, type DataSetInfo } from './messages-data.js';
import { ChildProc, environment, fmtMs, goal, heading, removeTempDir, sleep, stopAllChildren, summarize, table, tempDir } from './lib.js';

const PASSWORD = 'bench password';
const CHROMIUM = process.env.HEARTH_CHROMIUM ?? '/usr/bin/chromium';
const JOINS = 20;

interface Server {
  url: string;
  info: DataSetInfo;
  child: ChildProc;
  dir: string;
}

const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

async function newRoom(s: Server, i: number): Promise<string> {
  const owner = s.info.users[0]!;
  const channel = s.info.channels.find((c) => c.subscribers.includes(owner.id))!;
  const res = await fetch(`${s.url}/api/v1/calls/videocall/create`, {
    method: 'POST',
    headers: { authorization: basic(owner.email, owner.apiKey), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ room_name: `bench ${i}`, stream_id: String(channel.id), topic: `bench call ${i}` }),
  });
  const json = (await res.json()) as { url?: string; msg?: string };
  if (!json.url) throw new Error(`no call link: ${json.msg}`);
  return new URL(json.url).pathname;
}

/** A page signed in as the owner (a session of its own), on the chat. */
async function chatPage(browser: Browser, s: Server): Promise<Page> {
  const res = await fetch(`${s.url}/json/login`, { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password: PASSWORD }) });
  const cookie = /hearth_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'hearth_session', value: cookie, url: s.url, httpOnly: true, sameSite: 'Strict' }]);
  // tsx names the functions it compiles (`__name(...)`): the page functions below need it defined there.
  await context.addInitScript('window.__name = (f) => f');
  const page = await context.newPage();
  await page.goto(`${s.url}/`);
  await page.getByRole('navigation', { name: 'Conversations' }).waitFor({ timeout: 30_000 });
  return page;
}

/** Opens a call's lobby in place (as a clicked call link does) and waits for the camera's preview. */
async function openLobby(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    history.pushState(null, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('button', { name: 'Join', exact: true }).and(page.locator(':enabled')).waitFor({ timeout: 20_000 });
}

/** Clicks Join and answers, in ms from the click, when the first frame of each of `others` remote videos was shown. */
function joinAndTime(page: Page, others: number): Promise<number[]> {
  return page.evaluate(
    (n) =>
      new Promise<number[]>((resolve, reject) => {
        const t0 = performance.now();
        const firsts = new Map<HTMLVideoElement, number>();
        const watched = new Set<HTMLVideoElement>();
        const give = setTimeout(() => reject(new Error(`only ${firsts.size} of ${n} remote videos in 20 s`)), 20_000);
        const look = () => {
          for (const v of document.querySelectorAll<HTMLVideoElement>('.call-tile[data-client-id] video')) {
            if (watched.has(v)) continue;
            watched.add(v);
            v.requestVideoFrameCallback(() => {
              firsts.set(v, performance.now() - t0);
              if (firsts.size >= n) {
                clearTimeout(give);
                resolve([...firsts.values()].sort((a, b) => a - b));
              }
            });
          }
          if (firsts.size < n) requestAnimationFrame(look);
        };
        [...document.querySelectorAll('button')].find((b) => b.textContent === 'Join')!.click();
        look();
      }),
    others,
  );
}

async function leave(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('region', { name: 'Call' }).waitFor({ state: 'detached' });
}

/** Joins and waits until `others` remote videos play. */
async function joinAndWait(page: Page, others: number): Promise<void> {
  if (others > 0) await joinAndTime(page, others);
  else {
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await page.getByText('Waiting for others to join…').waitFor();
  }
}

/** The baseline: a loopback pair in one page, from createOffer to the first frame of the fake camera. */
async function loopback(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 360 }, audio: true });
    const t0 = performance.now();
    const a = new RTCPeerConnection();
    const b = new RTCPeerConnection();
    a.onicecandidate = (e) => e.candidate && void b.addIceCandidate(e.candidate);
    b.onicecandidate = (e) => e.candidate && void a.addIceCandidate(e.candidate);
    for (const t of stream.getTracks()) a.addTrack(t, stream);
    const video = document.createElement('video');
    video.muted = true;
    document.body.append(video);
    const first = new Promise<number>((resolve) => {
      b.ontrack = (e) => {
        if (e.track.kind !== 'video') return;
        video.srcObject = new MediaStream([e.track]);
        void video.play();
        video.requestVideoFrameCallback(() => resolve(performance.now() - t0));
      };
    });
    await a.setLocalDescription(await a.createOffer());
    await b.setRemoteDescription(a.localDescription!);
    await b.setLocalDescription(await b.createAnswer());
    await a.setRemoteDescription(b.localDescription!);
    const ms = await first;
    a.close();
    b.close();
    video.remove();
    for (const t of stream.getTracks()) t.stop();
    return ms;
  });
}

export async function main(): Promise<void> {
  heading('calls: Hearth calls in Chromium (fake camera and microphone)');
  console.log(environment());
  const dir = tempDir('hearth-calls-');
  const info = await generateDataSet(dir, { messages: 200, users: 5, channels: 2, subscribersPerChannel: 5, topicsPerChannel: 2, ownerPassword: PASSWORD });
  const { child, ready } = await ChildProc.start<{ port: number }>('hearth', 'messages-server.ts', [dir], { startTimeoutMs: 120_000 });
  const s: Server = { url: `http://127.0.0.1:${ready.port}`, info, child, dir };
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', ...FAKE_MEDIA_ARGS] });
  try {
    const pages = [await chatPage(browser, s), await chatPage(browser, s), await chatPage(browser, s)];
    const [a, b, c] = pages as [Page, Page, Page];

    // (a) Join to the first frames, third person into a room of two.
    const firstFrame: number[] = [];
    const bothFrames: number[] = [];
    for (let i = 0; i < JOINS; i++) {
      const room = await newRoom(s, i);
      await openLobby(a, room);
      await joinAndWait(a, 0);
      await openLobby(b, room);
      await joinAndWait(b, 1);
      await openLobby(c, room);
      const times = await joinAndTime(c, 2);
      firstFrame.push(times[0]!);
      bothFrames.push(times[1]!);
      for (const p of [c, b, a]) await leave(p);
    }
    const base: number[] = [];
    for (let i = 0; i < JOINS; i++) base.push(await loopback(a));

    const f = summarize(firstFrame);
    const both = summarize(bothFrames);
    const lb = summarize(base);
    console.log(`\n(a) Join to first remote frame, third person into a room of two, ${JOINS} joins:`);
    table([
      ['', 'p50', 'p90', 'max'],
      ['first of the two others', fmtMs(f.p50, 0), fmtMs(f.p90, 0), fmtMs(f.max, 0)],
      ['both others', fmtMs(both.p50, 0), fmtMs(both.p90, 0), fmtMs(both.max, 0)],
      ['baseline: loopback pair, no signalling', fmtMs(lb.p50, 0), fmtMs(lb.p90, 0), fmtMs(lb.max, 0)],
    ]);
    console.log(`  Hearth's join and signalling add ${fmtMs(both.p50 - lb.p50, 0)} at p50 to a bare connection's first frame (both others)`);

    // (b) The server's CPU: a minute of a 3-person call against a minute of the same pages idle.
    const cpu = async () => (await s.child.call('cpu')) as number;
    const idle0 = await cpu();
    await sleep(60_000);
    const idleMs = (await cpu()) - idle0;
    const room = await newRoom(s, JOINS);
    await openLobby(a, room);
    await joinAndWait(a, 0);
    await openLobby(b, room);
    await joinAndWait(b, 1);
    await openLobby(c, room);
    await joinAndWait(c, 2);
    const call0 = await cpu();
    await sleep(60_000);
    const callMs = (await cpu()) - call0;
    for (const p of [c, b, a]) await leave(p);
    console.log('\n(b) Server CPU per call-minute (3 people, video):');
    table([
      ['', 'CPU ms per minute', 'share of one core'],
      ['3-person call', callMs.toFixed(0), `${((callMs / 60_000) * 100).toFixed(2)}%`],
      ['baseline: the same 3 pages idle in the chat', idleMs.toFixed(0), `${((idleMs / 60_000) * 100).toFixed(2)}%`],
    ]);
    console.log(`  the call itself: ${(callMs - idleMs).toFixed(0)} ms of server CPU per call-minute`);
    console.log(`\ngoal: Join to both others' first frames p50 <= 1 s (${fmtMs(both.p50, 0)}): ${goal(both.p50 <= 1000)}`);
  } finally {
    await browser.close();
    await stopAllChildren();
    removeTempDir(dir);
  }
}
