/**
 * Hearth's own calls in the browser (issue 32), with Chromium's fake camera and microphone
 * (test/helpers/calls.ts): Olive's compose box makes a call link for a private channel's topic;
 * Olive, Mel and Sam join it and each receives the two others' video with moving pictures; Mel's
 * mute, Sam's camera-off and Mel's shared screen show on the others' pages; the chat stays usable around the call; Sam
 * leaves and the others' tiles drop; Kit, who cannot read the channel, is refused with words on the
 * page. The server restarts mid-call: the pictures keep moving and the pages join the signalling
 * again by themselves. A direct call rings Mel (the dialog), who accepts; a second one he declines, and Olive sees
 * "Declined"; Mel accepts one on a page without a camera (the call view says so, he joins with sound
 * only); one nobody answers is missed (the ring timeout shortened): "Missed call from …" and "No
 * answer". A room at the server's limit (lowered for the test) tells the next person "This call is
 * full.". Olive sets STUN/TURN servers in the organization settings (a refusal first). Sam's network
 * drops mid-call (his context offline, no leave): Olive and Mel see him leave within 10 s (the server's
 * real heartbeat timeout, 8.5 s, and its 1 s sweep) and keep each other's moving pictures. Screenshots at
 * 1280 and 390 px: test-results/admin-ui/calls-*.png.
 */
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { serialSuite, test } from '../helpers/fixtures.js';
import { axeViolations } from '../helpers/axe.js';
import { openPage, type TestPage } from '../helpers/browser.js';
import { signIn } from '../helpers/chat-page.js';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { launchWithFakeMedia, playingRemoteVideos, remoteTiles, roomOf, tileLabels } from '../helpers/calls.js';
import type { Account, TestServer } from '../helpers/server.js';
import { restart } from '../helpers/uploads.js';

test.describe('calls in Chromium', () => {
  const s = serialSuite({ timeout: 180_000 });
  let ts: TestServer;
  let browser: Browser;
  let olive: TestPage;
  let mel: TestPage;
  let sam: TestPage;
  let melAccount: Account;
  let kitAccount: Account;
  let samAccount: Account;
  let channelId = 0;
  let callUrl = '';
  const pages: TestPage[] = [];

  async function open(who: Account, width = 1280): Promise<TestPage> {
    const p = await openPage(browser, ts.url);
    pages.push(p);
    await p.page.setViewportSize({ width, height: 800 });
    await signIn(p.page, ts.url, who);
    return p;
  }

  async function join(p: TestPage, url: string) {
    await p.page.goto(url);
    await p.page.getByRole('region', { name: 'Call' }).getByRole('button', { name: 'Join', exact: true }).click();
    await p.page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
  }

  test.beforeAll(async () => {
    ts = s.ts;
    browser = await launchWithFakeMedia();
    melAccount = await ts.addUser('Mel');
    samAccount = await ts.addUser('Sam');
    kitAccount = await ts.addUser('Kit');
    channelId = await createChannel(ts, ts.ownerClient, 'standup', { invite_only: true, principals: [ts.owner.id, melAccount.id, samAccount.id] });
    olive = await open(ts.owner);
    mel = await open(melAccount);
    sam = await open(samAccount);
  });

  test.afterAll(async () => {
    for (const p of pages) await p.close();
    await browser?.close();
  });

  test("compose's Video call button inserts a Hearth call link for the topic", async () => {
    await olive.page.goto(`${ts.url}/#narrow/channel/${channelId}-standup/topic/daily`);
    await olive.page.getByRole('heading', { name: '#standup > daily', exact: true }).waitFor();
    const box = olive.page.getByRole('textbox', { name: 'Message' });
    await olive.page.getByRole('button', { name: 'Voice call' }).waitFor();
    await olive.page.getByRole('button', { name: 'Video call' }).click();
    const text = await eventually(async () => {
      const v = await box.inputValue();
      return /^\[Join video call\.\]\(http:\/\/127\.0\.0\.1:\d+\/calls\/hearth\/[A-Za-z0-9_-]{21}\)$/.test(v) && v;
    }, 'the call link in the box');
    callUrl = /\((.+)\)/.exec(text)![1]!;
    await box.press('Enter');
    await olive.page.getByRole('link', { name: 'Join video call.' }).waitFor();
  });

  test('three people join; each receives the two others\' video with moving pictures', async () => {
    // Olive opens the link from the message: the lobby opens in the page, with the camera's preview.
    await olive.page.getByRole('link', { name: 'Join video call.' }).click();
    await olive.page.getByRole('heading', { name: 'Video call' }).waitFor();
    await olive.page.getByLabel('Your camera').waitFor();
    await eventually(() => olive.page.evaluate(() => (document.querySelector<HTMLVideoElement>('.call-preview video')?.videoWidth ?? 0) > 0), 'the preview plays');
    await olive.page.getByLabel('Camera', { exact: true }).waitFor();
    await olive.page.getByLabel('Microphone', { exact: true }).waitFor();
    await olive.shot('calls-lobby-1280');
    await olive.page.getByRole('button', { name: 'Join', exact: true }).click();
    await olive.page.getByText('Waiting for others to join…').waitFor();
    assert.equal(new URL(olive.page.url()).pathname, `/calls/hearth/${roomOf(callUrl)}`);
    // The message with the link shows who is in the call, and a Join button.
    await mel.page.goto(`${ts.url}/#narrow/channel/${channelId}-standup/topic/daily`);
    const line = mel.page.locator('li.message .call-link-state');
    await line.getByText('In this call: Olive Owner').waitFor();
    await line.getByRole('button', { name: 'Join' }).click();
    await mel.page.getByRole('region', { name: 'Call' }).getByRole('button', { name: 'Join', exact: true }).click();
    await olive.page.getByText('Mel joined the call.').waitFor({ state: 'attached' });
    await line.getByText('In this call: Olive Owner, Mel').waitFor({ state: 'attached' });
    await join(sam, callUrl);
    for (const p of [olive, mel, sam]) {
      await eventually(async () => (await playingRemoteVideos(p.page)) === 2, async () => `2 playing remote videos (${await playingRemoteVideos(p.page)})`, 20_000);
    }
    // The fake microphone beeps: someone's tile lights up as speaking.
    await eventually(async () => (await tileLabels(olive.page)).some((l) => l.endsWith(', speaking')), 'a speaking tile', 15_000);
    await olive.page.getByRole('list', { name: 'Call tiles' }).waitFor();
    await olive.shot('calls-three-1280');
    assert.deepEqual(await axeViolations(olive.page, ['.call-layer']), [], 'no serious or critical axe-core violation in the call');
  });

  test('mute, camera-off and screen sharing are seen by the others', async () => {
    await mel.page.getByRole('button', { name: 'Mute' }).click();
    await sam.page.getByRole('button', { name: 'Turn camera off' }).click();
    for (const p of [olive, sam]) await eventually(async () => (await tileLabels(p.page)).some((l) => l.startsWith('Mel, muted')), 'Mel muted');
    for (const p of [olive, mel]) await eventually(async () => (await tileLabels(p.page)).some((l) => l.startsWith('Sam') && l.includes('camera off')), 'Sam camera off');
    await olive.page.getByRole('region', { name: 'In the call (3)' }).getByText('Mel · Muted').waitFor();
    await mel.page.getByRole('button', { name: 'Unmute' }).click();
    await eventually(async () => (await tileLabels(olive.page)).some((l) => l.startsWith('Mel') && !l.includes('muted')), 'Mel unmuted');
    await sam.page.getByRole('button', { name: 'Turn camera on' }).click();
    await eventually(async () => (await playingRemoteVideos(olive.page)) === 2, 'Sam\'s camera back', 15_000);
    // Screen sharing swaps the camera's track for the screen's (Chromium's fake capture picks the screen).
    await mel.page.getByRole('button', { name: 'Share screen' }).click();
    await mel.page.getByRole('button', { name: 'Stop sharing' }).waitFor();
    for (const p of [olive, sam]) await eventually(async () => (await tileLabels(p.page)).some((l) => l.startsWith('Mel') && (l.includes('sharing the screen'))), 'Mel sharing');
    await eventually(async () => (await playingRemoteVideos(olive.page)) === 2, 'the screen\'s pictures move', 15_000);
    await mel.page.getByRole('button', { name: 'Stop sharing' }).click();
    await mel.page.getByRole('button', { name: 'Share screen' }).waitFor();
  });

  test('the call stays while the person reads the chat', async () => {
    await olive.page.getByRole('button', { name: 'Back to the chat' }).click();
    // Moving around the chat (the hash) keeps the call, drawn as a small box.
    await olive.page.evaluate(() => (location.hash = '#inbox'));
    await olive.page.getByRole('heading', { name: 'Inbox' }).first().waitFor();
    await olive.page.getByRole('button', { name: 'Open the call' }).waitFor();
    assert.equal(await remoteTiles(olive.page), 2);
    await olive.page.getByRole('button', { name: 'Open the call' }).click();
    await olive.page.getByRole('button', { name: 'Back to the chat' }).waitFor();
  });

  test('the server restarts mid-call: the media keeps flowing, the pages join the signalling again', async () => {
    // On the same port (the pages reconnect to the same address); the suite stops the new server.
    s.ts = ts = await restart(ts, Number(new URL(ts.url).port));
    for (const p of [olive, mel, sam]) assert.equal(await playingRemoteVideos(p.page), 2, 'the pictures move while the server is away');
    // Once the pages registered anew and joined again, the signalling works: Mel's mute reaches the others.
    await eventually(async () => (await ts.ownerClient.get(`/calls/hearth/${roomOf(callUrl)}`)).body.participants?.length === 3, 'the three back in the room', 30_000);
    await mel.page.getByRole('button', { name: 'Mute' }).click();
    for (const p of [olive, sam]) await eventually(async () => (await tileLabels(p.page)).some((l) => l.startsWith('Mel, muted')), 'Mel muted after the restart');
    await mel.page.getByRole('button', { name: 'Unmute' }).click();
    for (const p of [olive, mel, sam]) assert.equal(await remoteTiles(p.page), 2);
    for (const p of [olive, mel, sam]) assert.equal(await playingRemoteVideos(p.page), 2);
  });

  test('one leaves and the others\' tiles drop', async () => {
    await sam.page.getByRole('button', { name: 'Leave' }).click();
    for (const p of [olive, mel]) await eventually(async () => (await remoteTiles(p.page)) === 1, 'one remote tile left');
    await olive.page.getByText('Sam left the call.').waitFor({ state: 'attached' });
    assert.equal(new URL(sam.page.url()).pathname, '/');
  });

  test('someone who cannot read the channel is refused, with words on the page', async () => {
    const kit = await open(kitAccount);
    await kit.page.goto(callUrl);
    await kit.page.getByRole('alert').filter({ hasText: 'You cannot join this call.' }).waitFor();
    assert.equal(await kit.page.getByRole('button', { name: 'Join', exact: true }).count(), 0);
    await kit.shot('calls-refused-1280');
  });

  test('no camera: the words, and joining with sound only; not a secure context: the words and the trust page', async () => {
    const noCamera = await openPage(browser, ts.url);
    pages.push(noCamera);
    await noCamera.page.addInitScript(() => {
      const md = navigator.mediaDevices;
      const real = md.getUserMedia.bind(md);
      md.getUserMedia = (c?: MediaStreamConstraints) => (c?.video ? Promise.reject(new DOMException('none', 'NotFoundError')) : real(c));
    });
    await signIn(noCamera.page, ts.url, samAccount);
    await noCamera.page.goto(callUrl);
    const call = noCamera.page.getByRole('region', { name: 'Call' });
    await call.getByRole('alert').filter({ hasText: 'No camera was found: you join without it.' }).waitFor();
    assert.equal(await call.getByRole('button', { name: 'Join without video' }).count(), 0);
    await call.getByRole('button', { name: 'Join', exact: true }).click();
    await eventually(async () => (await tileLabels(olive.page)).some((l) => l.startsWith('Sam, camera off')), 'Sam without camera on Olive\'s page');
    await call.getByRole('button', { name: 'Leave' }).click();
    await eventually(async () => (await remoteTiles(olive.page)) === 1, 'Sam gone');

    const noMedia = await openPage(browser, ts.url);
    pages.push(noMedia);
    // As on plain HTTP from another computer: not a secure context, so no navigator.mediaDevices.
    await noMedia.page.addInitScript(() => {
      Object.defineProperty(navigator, 'mediaDevices', { value: undefined });
      Object.defineProperty(window, 'isSecureContext', { value: false });
    });
    await signIn(noMedia.page, ts.url, samAccount);
    await noMedia.page.goto(callUrl);
    const note = noMedia.page.getByRole('region', { name: 'Call' }).getByRole('alert');
    await note.getByText('Browsers allow the camera and microphone only on secure pages (HTTPS).', { exact: false }).waitFor();
    await note.getByRole('link', { name: 'how to trust this server' }).waitFor();
    await noMedia.page.getByRole('button', { name: 'Join to watch and listen' }).waitFor();
    await noMedia.shot('calls-no-media-1280');
  });

  test('at 390 px the call fits and its controls are reachable', async () => {
    await mel.page.setViewportSize({ width: 390, height: 844 });
    const width = await mel.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling (${width})`);
    await mel.page.getByRole('button', { name: 'Leave' }).focus();
    await mel.shot('calls-two-390');
    await olive.page.getByRole('button', { name: 'Leave' }).click();
    await mel.page.getByRole('button', { name: 'Leave' }).click();
    await mel.page.setViewportSize({ width: 1280, height: 800 });
  });

  test('a direct call rings the other: accepted, then declined', async () => {
    const create = async () => {
      const res = await ts.ownerClient.post('/calls/videocall/create', { room_name: 'Mel', user_ids: JSON.stringify([melAccount.id]) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return String(res.body.url);
    };
    const first = await create();
    await join(olive, first);
    const ring = mel.page.getByRole('dialog', { name: 'Incoming video call' });
    await ring.getByText('Olive Owner is calling you.').waitFor();
    await mel.shot('calls-ringing-1280');
    await ring.getByRole('button', { name: 'Accept' }).click();
    await mel.page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    for (const p of [olive, mel]) await eventually(async () => (await playingRemoteVideos(p.page)) === 1, 'the other\'s video', 20_000);
    await mel.page.getByRole('button', { name: 'Leave' }).click();
    await olive.page.getByRole('button', { name: 'Leave' }).click();

    const second = await create();
    await join(olive, second);
    await mel.page.getByRole('dialog', { name: 'Incoming video call' }).getByRole('button', { name: 'Decline' }).click();
    await olive.page.getByText('Declined', { exact: true }).waitFor();
    await olive.page.getByRole('button', { name: 'Leave' }).click();
  });

  test('a ring accepted without a camera: the call view says so, and Mel joins with sound only', async () => {
    const noCamera = await openPage(browser, ts.url);
    pages.push(noCamera);
    await noCamera.page.addInitScript(() => {
      const md = navigator.mediaDevices;
      const real = md.getUserMedia.bind(md);
      md.getUserMedia = (c?: MediaStreamConstraints) => (c?.video ? Promise.reject(new DOMException('none', 'NotFoundError')) : real(c));
    });
    await signIn(noCamera.page, ts.url, melAccount);
    const res = await ts.ownerClient.post('/calls/videocall/create', { room_name: 'Mel', user_ids: JSON.stringify([melAccount.id]) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await join(olive, String(res.body.url));
    await noCamera.page.getByRole('dialog', { name: 'Incoming video call' }).getByRole('button', { name: 'Accept' }).click();
    const call = noCamera.page.getByRole('region', { name: 'Call' });
    await call.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await call.getByRole('alert').filter({ hasText: 'No camera was found: you join without it.' }).waitFor();
    await eventually(async () => (await tileLabels(olive.page)).some((l) => l.startsWith('Mel, camera off')), 'Mel without camera on Olive\'s page');
    await noCamera.shot('calls-accepted-no-camera-1280');
    await call.getByRole('button', { name: 'Leave' }).click();
    await olive.page.getByRole('button', { name: 'Leave' }).click();
    await noCamera.close();
    pages.splice(pages.indexOf(noCamera), 1);
  });

  test('a ring nobody answers: "Missed call from Olive Owner." for Mel, "No answer" for Olive', async () => {
    ts.app.config.callRingTimeoutMs = 3000;
    try {
      const res = await ts.ownerClient.post('/calls/videocall/create', { room_name: 'Mel', user_ids: JSON.stringify([melAccount.id]) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await join(olive, String(res.body.url));
      await mel.page.getByRole('dialog', { name: 'Incoming video call' }).waitFor();
      await mel.page.getByRole('status').filter({ hasText: 'Missed call from Olive Owner.' }).waitFor({ timeout: 15_000 });
      assert.equal(await mel.page.getByRole('dialog', { name: 'Incoming video call' }).count(), 0, 'the ring dialog closed');
      await olive.page.getByText('No answer', { exact: true }).waitFor();
      await olive.page.getByRole('button', { name: 'Leave' }).click();
    } finally {
      ts.app.config.callRingTimeoutMs = 30_000;
    }
  });

  test('a full room: the next person is told "This call is full."', async () => {
    // The server's limit for a video room (6) lowered to 2 for the test: Sam is the third.
    ts.app.calls.limits.video = 2;
    try {
      await join(olive, callUrl);
      await join(mel, callUrl);
      await sam.page.goto(callUrl);
      await sam.page.getByRole('region', { name: 'Call' }).getByRole('button', { name: 'Join', exact: true }).click();
      await sam.page.getByRole('alert').filter({ hasText: 'This call is full.' }).waitFor();
      assert.equal(await sam.page.getByRole('toolbar', { name: 'Call controls' }).count(), 0);
      const sams = ts.client(samAccount);
      const queue = await sams.post('/register', { event_types: JSON.stringify(['hearth_call']) });
      const refused = await sams.post(`/calls/hearth/${roomOf(callUrl)}/join`, { client_id: 'sam-api-client', queue_id: queue.body.queue_id, audio: true, video: true });
      assert.deepEqual([refused.status, refused.body.msg], [400, 'This call is full.']);
      await sam.shot('calls-full-1280');
      await sam.page.getByRole('button', { name: 'Back to the chat' }).click();
      for (const p of [olive, mel]) await p.page.getByRole('button', { name: 'Leave' }).click();
    } finally {
      ts.app.calls.limits.video = 6;
    }
  });

  test('an administrator sets STUN/TURN servers in the organization settings; a refusal is shown', async () => {
    await olive.page.goto(`${ts.url}/#organization/settings`);
    const box = olive.page.getByLabel('STUN/TURN servers');
    await box.fill('turn:turn.example.lan:3478');
    await olive.page.getByRole('button', { name: 'Save call servers' }).click();
    await olive.page.getByRole('alert').filter({ hasText: 'TURN server without username and credential' }).waitFor();
    await box.fill('stun:stun.example.lan:3478\nturn:turn.example.lan:3478,turns:turn.example.lan:5349 hearth s3cret');
    await olive.page.getByRole('button', { name: 'Save call servers' }).click();
    await olive.page.getByRole('status').filter({ hasText: 'Call servers saved (2)' }).waitFor();
    await olive.shot('calls-ice-servers-1280');
    const servers = [{ urls: 'stun:stun.example.lan:3478' }, { urls: ['turn:turn.example.lan:3478', 'turns:turn.example.lan:5349'], username: 'hearth', credential: 's3cret' }];
    assert.deepEqual(ts.app.store.realm.data.realm!.settings.hearth_call_ice_servers, servers);
    assert.deepEqual((await ts.ownerClient.post('/register', { fetch_event_types: ['realm'] })).body.realm_hearth_call_ice_servers, servers);
    await olive.page.reload();
    assert.equal(await olive.page.getByLabel('STUN/TURN servers').inputValue(), 'stun:stun.example.lan:3478\nturn:turn.example.lan:3478,turns:turn.example.lan:5349 hearth s3cret');
    await olive.page.emulateMedia({ colorScheme: 'dark' });
    await olive.page.setViewportSize({ width: 390, height: 844 });
    await olive.page.getByLabel('STUN/TURN servers').scrollIntoViewIfNeeded();
    await olive.shot('calls-ice-servers-390-dark');
    await olive.page.emulateMedia({ colorScheme: 'light' });
    await olive.page.setViewportSize({ width: 1280, height: 800 });
  });

  test("a participant's network drops: the others see them leave within 10 s, and keep each other's pictures", async () => {
    await join(olive, callUrl);
    await join(mel, callUrl);
    await join(sam, callUrl);
    for (const p of [olive, mel, sam]) {
      await eventually(async () => (await playingRemoteVideos(p.page)) === 2, async () => `2 playing remote videos (${await playingRemoteVideos(p.page)})`, 20_000);
    }
    // Sam's network drops: no leave, no more heartbeats. The server's real timeout (8.5 s without a
    // heartbeat, swept every second) is kept: seen within 10 s is the requirement.
    const dropped = Date.now();
    await sam.context.setOffline(true);
    try {
      // Sam's tile, his line in the participant list and the announcement, on both remaining pages.
      const gone = (p: TestPage) =>
        p.page
          .waitForFunction(
            () =>
              document.querySelectorAll('.call-tile[data-client-id]').length === 1 &&
              ![...document.querySelectorAll('.call-tile')].some((t) => t.getAttribute('aria-label')?.startsWith('Sam')) &&
              ![...document.querySelectorAll('.call-people li')].some((li) => li.textContent?.startsWith('Sam')) &&
              document.querySelector('#call-people-title')?.textContent === 'In the call (2)' &&
              document.querySelector('.call-room [aria-live]')?.textContent?.trim() === 'Sam left the call.',
            null,
            { polling: 100, timeout: 30_000 },
          )
          .then(() => Date.now() - dropped);
      const [forOlive, forMel] = await Promise.all([gone(olive), gone(mel)]);
      console.log(`Sam seen gone ${forOlive} ms (Olive) and ${forMel} ms (Mel) after his network dropped`);
      // The requirement: within 10 s (8.5 s timeout + up to 1 s until the sweep + the event's way to the pages).
      for (const [who, ms] of [['Olive', forOlive], ['Mel', forMel]] as const) assert.ok(ms <= 10_000, `${who} saw Sam leave ${ms} ms after the drop`);
      assert.equal((await ts.ownerClient.get(`/calls/hearth/${roomOf(callUrl)}`)).body.participants?.length, 2, 'the server has two left');
      await olive.page.getByRole('region', { name: 'In the call (2)' }).waitFor();
      // Olive and Mel still see each other's moving pictures.
      for (const p of [olive, mel]) {
        assert.equal(await remoteTiles(p.page), 1);
        await eventually(async () => (await playingRemoteVideos(p.page)) === 1, 'the other\'s pictures still move', 10_000);
      }
    } finally {
      await sam.context.setOffline(false);
    }
  });
});
