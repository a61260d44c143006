/**
 * Issue 29 (6): re-registering (the server lost the page's event queue: a restart without saved
 * queues, a queue expired) keeps the view and the reader's place in it; it jumped from message
 * 500 to 3,429. Screenshot: test-results/admin-ui/chat-resume.png.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';

test.describe('a re-register keeps the reader in place', () => {
  let generalId: number;
  const s = chatSuite(async (ts) => {
    const mel = await ts.addUser('Mel');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    for (let i = 1; i <= 200; i++) await sendStream(ts.ownerClient, 'general', 'long', `line ${i}`);
    await ts.client(mel).post('/mark_all_as_read');
    return mel;
  });

  /** The first message wholly on screen in the feed, and its distance from the scroller's top. */
  const firstOnScreen = () =>
    s.p.page.evaluate(() => {
      const el = document.querySelector<HTMLElement>('section.feed .scroller')!;
      const top = el.getBoundingClientRect().top;
      for (const li of el.querySelectorAll<HTMLElement>('li.message')) {
        const r = li.getBoundingClientRect();
        if (r.top >= top) return { id: Number(li.dataset.id), offset: Math.round(r.top - top) };
      }
      return null;
    });

  test('in the middle of a long topic: the same message stays at the same place', async () => {
    await s.p.page.goto(`${s.ts.url}/#narrow/channel/${generalId}-general/topic/long`);
    await s.p.page.getByText('line 200', { exact: true }).waitFor();
    // Read up a few screens, as a person would.
    const scroller = s.p.page.locator('section.feed .scroller');
    for (let i = 0; i < 4; i++) {
      await scroller.evaluate((el) => el.scrollBy(0, -600));
      await s.p.page.waitForTimeout(250);
    }
    const before = await firstOnScreen();
    assert.ok(before && before.id < Number(s.ts.store.messages.maxId), JSON.stringify(before));
    const queues = s.ts.app.events.size;
    assert.ok(queues >= 1);
    s.ts.app.events.deleteAll();
    // The page re-registers (a new queue) and reloads the feed.
    await eventually(async () => s.ts.app.events.size >= 1, 'the page registers again', 15_000);
    await s.p.page.locator(`li.message[data-id="${before!.id}"]`).waitFor({ state: 'attached' });
    await s.p.page.waitForTimeout(1000);
    const after = await firstOnScreen();
    assert.equal(after?.id, before!.id, `was at ${JSON.stringify(before)}, now ${JSON.stringify(after)}`);
    assert.ok(Math.abs(after!.offset - before!.offset) <= 2, `offset ${before!.offset} → ${after!.offset}`);
    assert.ok(/#narrow\/channel\/\d+-general\/topic\/long/.test(s.p.page.url()), 'the same view');
    await s.p.shot('chat-resume');
  });

  test('at the bottom: still at the bottom', async () => {
    const scroller = s.p.page.locator('section.feed .scroller');
    await scroller.focus();
    await s.p.page.keyboard.press('End');
    await s.p.page.getByText('line 200', { exact: true }).waitFor();
    await eventually(async () => (await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)) < 40);
    await s.p.page.waitForTimeout(300);
    s.ts.app.events.deleteAll();
    await eventually(async () => s.ts.app.events.size >= 1, 'the page registers again', 15_000);
    await s.p.page.waitForTimeout(800);
    const below = await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok(below < 40, `${below} px above the bottom`);
  });
});
