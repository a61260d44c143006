/**
 * Playwright's `waitForLoadState('networkidle')` for the web app: the chat page (which `/admin/` is
 * now) keeps its events long-poll (`GET /json/events`) open, so "no request in flight" never comes.
 * This waits until no other request has started or ended for `quietMs` and none is in flight (of
 * those seen from the call on: the local server answers the others within milliseconds).
 */
import type { Page, Request } from 'playwright-core';

const longPoll = (r: Request) => new URL(r.url()).pathname === '/json/events';

export async function networkQuiet(page: Page, quietMs = 500, timeoutMs = 10_000): Promise<void> {
  const inFlight = new Set<Request>();
  let last = Date.now();
  const started = (r: Request) => {
    if (longPoll(r)) return;
    inFlight.add(r);
    last = Date.now();
  };
  const ended = (r: Request) => {
    if (longPoll(r)) return;
    inFlight.delete(r);
    last = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    const deadline = Date.now() + timeoutMs;
    while (inFlight.size || Date.now() - last < quietMs) {
      if (Date.now() > deadline) throw new Error(`networkQuiet: still busy after ${timeoutMs} ms: ${[...inFlight].map((r) => r.url()).join(', ')}`);
      await page.waitForTimeout(50);
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}
