/**
 * Math in the chat (issue 30, part 2): the server's KaTeX HTML shows as typeset math, with KaTeX's
 * fonts from this server, its inline styles in force under the page's strict CSP, its MathML kept,
 * and bad TeX as its source; hostile styles stay out. Screenshots at 1280 and 390 px, light and dark:
 * test-results/admin-ui/chat-math-*.png; axe-core on the feed.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import { axeViolations } from '../helpers/axe.js';
import { isSessionProbe } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import type { Account } from '../helpers/server.js';

test.describe('math in messages', () => {
  let generalId: number;
  let inlineId: number;
  let blockId: number;
  let errorId: number;
  let llapId: number;
  let mel: Account;
  const s = chatSuite(async (ts) => {
    mel = await ts.addUser('Mel');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    inlineId = await sendStream(ts.ownerClient, 'general', 'math', 'Euler showed that $$e^{i\\pi} + 1 = 0$$, and $$\\sqrt{x^2+1}$$ grows like $$|x|$$.');
    blockId = await sendStream(
      ts.ownerClient,
      'general',
      'math',
      'The Gaussian integral:\n```math\n\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}\n\n\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}\n```',
    );
    errorId = await sendStream(ts.ownerClient, 'general', 'math', 'Oops: $$\\frac{1}{$$');
    llapId = await sendStream(ts.ownerClient, 'general', 'math', '$$\\llap{\\text{fake}\\kern1em}$$ stays inside its message');
    return mel;
  });
  const page = () => s.p.page;
  const item = (id: number) => page().locator(`li.message[data-id="${id}"]`);

  test.beforeAll(async () => {
    await page().goto(`${s.ts.url}/#narrow/channel/${generalId}-general/topic/math`);
    await item(llapId).locator('.katex').waitFor({ state: 'attached' });
  });

  test('inline and display math are typeset with KaTeX fonts, no raw $$ left', async () => {
    const inline = item(inlineId).locator('.rendered .katex');
    assert.equal(await inline.count(), 3);
    assert.equal(await item(blockId).locator('.rendered .katex-display').count(), 2);
    for (const id of [inlineId, blockId]) assert.ok(!((await item(id).locator('.rendered').innerText()).includes('$$')), `raw $$ in ${id}`);
    // The fonts come from this server and are in use.
    await page().evaluate(() => document.fonts.ready);
    assert.ok(await page().evaluate(() => document.fonts.check('12px KaTeX_Main') && document.fonts.check('italic 12px KaTeX_Math')), 'KaTeX fonts loaded');
    const fontFamily = await inline.first().evaluate((el) => getComputedStyle(el).fontFamily);
    assert.match(fontFamily, /KaTeX_Main/);
    const loaded = await page().evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family));
    assert.ok(loaded.some((f) => f.includes('KaTeX_Main')), JSON.stringify(loaded));
    const fontUrls = await page().evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('KaTeX_')));
    assert.ok(fontUrls.length > 0 && fontUrls.every((u) => u.startsWith(`${s.ts.url}/static/web/`) && u.endsWith('.woff2')), JSON.stringify(fontUrls));
  });

  test("KaTeX's inline styles apply (through the CSSOM, under the CSP) and its MathML is kept", async () => {
    const strut = item(inlineId).locator('.katex-html .strut').first();
    const { height, attr } = await strut.evaluate((el) => ({ height: (el as HTMLElement).style.height, attr: el.getAttribute('data-katex-style') }));
    assert.match(height, /^\d+(\.\d+)?em$/);
    assert.match(attr ?? '', /^height:/);
    // A superscript sits above the baseline: the vlist's `top` is in force.
    const sup = item(inlineId).locator('.msupsub').first();
    const base = item(inlineId).locator('.mord.mathnormal').first();
    assert.ok((await sup.boundingBox())!.y < (await base.boundingBox())!.y, 'superscript raised');
    const math = item(inlineId).locator('.katex-mathml math').first();
    assert.equal(await math.locator('semantics > annotation[encoding="application/x-tex"]').textContent(), 'e^{i\\pi} + 1 = 0');
    assert.equal(await math.evaluate((el) => el.namespaceURI), 'http://www.w3.org/1998/Math/MathML');
    // The page never had an inline style refused (a CSP report would be a console error).
    assert.deepEqual(s.p.errors.filter((e) => !isSessionProbe(e)), []);
  });

  test('bad TeX shows its source; a formula cannot draw outside its message', async () => {
    const err = item(errorId).locator('.tex-error');
    assert.equal(await err.first().textContent(), '$$\\frac{1}{$$');
    const content = item(llapId).locator('.rendered');
    const box = (await content.boundingBox())!;
    // \llap puts the text left of where it stands, here past the message's left edge (into the
    // avatar column), where the message's box clips it: nothing of it shows, or can be clicked, there.
    const fake = item(llapId).locator('.katex-html').getByText('fake');
    const fakeBox = (await fake.boundingBox())!;
    assert.equal(await content.evaluate((el) => getComputedStyle(el).overflowY), 'clip');
    assert.ok(fakeBox.x + fakeBox.width < box.x, `${JSON.stringify(fakeBox)} left of ${JSON.stringify(box)}`);
    const at = [fakeBox.x + fakeBox.width / 2, fakeBox.y + fakeBox.height / 2];
    const hit = () => page().evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.textContent ?? '', at);
    assert.notEqual(await hit(), 'fake');
    // Without the clip it would show there (so the check above means something).
    await content.evaluate((el) => (el as HTMLElement).style.setProperty('overflow', 'visible'));
    assert.equal(await hit(), 'fake');
    await content.evaluate((el) => (el as HTMLElement).style.removeProperty('overflow'));
  });

  test('no element outside a formula has a style (katex-style.test.ts checks the declarations)', async () => {
    const styled = await page().evaluate(() =>
      [...document.querySelectorAll('.rendered [style], .rendered [data-katex-style]')].filter((el) => !el.closest('.katex')).length,
    );
    assert.equal(styled, 0);
  });

  test('1280 and 390 px, light and dark; axe-core finds nothing serious', async () => {
    const p = page();
    for (const [w, theme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
      await p.setViewportSize({ width: w, height: w === 390 ? 844 : 800 });
      await p.emulateMedia({ colorScheme: theme });
      await item(blockId).scrollIntoViewIfNeeded();
      // The drawer's slide after the resize has ended before the screenshot.
      await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      // Math is drawn in the text's colour, so it reads in both themes.
      const [mathColor, textColor] = await item(inlineId).evaluate((li) => [
        getComputedStyle(li.querySelector('.katex')!).color,
        getComputedStyle(li.querySelector('.rendered')!).color,
      ]);
      assert.equal(mathColor, textColor);
      // A display formula never makes the message wider than the screen (it scrolls inside).
      const display = item(blockId).locator('.katex-display').first();
      const d = (await display.boundingBox())!;
      assert.ok(d.x >= 0 && d.x + d.width <= w + 1, `${w}: ${JSON.stringify(d)}`);
      await s.p.shot(`chat-math-${w}-${theme}`);
    }
    assert.deepEqual(await axeViolations(p), []);
    await p.emulateMedia({ colorScheme: 'light' });
    await p.setViewportSize({ width: 1024, height: 768 });
    assert.deepEqual(s.p.errors.filter((e) => !isSessionProbe(e)), []);
  });

  test("a desktop notification shows math as its TeX between $$, as Zulip's does", async () => {
    const p = page();
    await p.addInitScript(() => {
      const w = window as unknown as { __notes: { body: string }[]; Notification: unknown };
      w.__notes = [];
      class FakeNotification extends EventTarget {
        static permission = 'granted';
        static requestPermission = () => Promise.resolve('granted');
        body: string;
        constructor(_title: string, options: { body?: string } = {}) {
          super();
          this.body = options.body ?? '';
          w.__notes.push(this);
        }
        close() {}
      }
      w.Notification = FakeNotification;
      Document.prototype.hasFocus = () => false;
    });
    await p.reload();
    await item(llapId).locator('.katex').waitFor({ state: 'attached' });
    await sendDirect(s.ts.ownerClient, [mel.id], 'Look: $$x^2$$ and\n```math\n\\frac{a}{b}\n```');
    let body = '';
    await eventually(async () => (body = await p.evaluate(() => (window as unknown as { __notes: { body: string }[] }).__notes.at(-1)?.body ?? '')) !== '');
    assert.equal(body, 'Look: $$x^2$$ and\n$$\\frac{a}{b}$$');
    assert.deepEqual(s.p.errors.filter((e) => !isSessionProbe(e)), []);
  });
});
