/**
 * Hearth's calls in Chromium (test/e2e/calls.spec.ts, `npm run bench -- calls`): a browser whose
 * camera and microphone are Chromium's fake ones (a moving test pattern and a beep; permission
 * granted without asking), and what a call page shows, read from its DOM.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';

/** Chromium's fake camera and microphone, allowed without a prompt. */
export const FAKE_MEDIA_ARGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--auto-select-desktop-capture-source=Entire screen',
  '--autoplay-policy=no-user-gesture-required',
];

export const launchWithFakeMedia = (): Promise<Browser> => launchBrowser(FAKE_MEDIA_ARGS);

/** The room ID in a call link. */
export const roomOf = (url: string) => /\/calls\/hearth\/([A-Za-z0-9_-]+)/.exec(url)![1]!;

/** The other participants' tiles' video elements that show moving pictures: width known and time advancing. */
export function playingRemoteVideos(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const videos = [...document.querySelectorAll<HTMLVideoElement>('.call-tile[data-client-id] video')];
    const before = videos.map((v) => v.currentTime);
    await new Promise((r) => setTimeout(r, 300));
    return videos.filter((v, i) => v.videoWidth > 0 && v.currentTime > before[i]!).length;
  });
}

/** How many tiles of other participants the page shows. */
export const remoteTiles = (page: Page) => page.locator('.call-tile[data-client-id]').count();

/** The accessible labels of the tiles ("Mel, muted", "Sam, camera off" …). */
export const tileLabels = (page: Page) => page.locator('.call-tile').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
