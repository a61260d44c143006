/**
 * Issue 30, part 1: code blocks come from the server with Pygments' token classes (as Zulip's do);
 * the web client colours them in light and dark. Screenshots: test-results/admin-ui/
 * chat-code-highlight-{light,dark}-{1280,390}.png.
 */
import assert from 'node:assert/strict';
import { test } from '../helpers/fixtures.js';
import { chatSuite } from '../helpers/chat-suite.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';

const CODE = [
  '```python',
  'import os',
  '',
  '@cache',
  'def greet(name: str, times: int = 2) -> str:',
  '    """Say hello."""',
  '    # a comment',
  '    return f"Hello {name}! " * times + \'\\n\'',
  '```',
  '```diff',
  '-old line',
  '+new line',
  '```',
].join('\n');

test.describe('highlighted code in the feed', () => {
  let generalId: number;
  const s = chatSuite(async (ts) => {
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id] });
    await sendStream(ts.ownerClient, 'general', 'code', CODE);
  });

  test.beforeAll(async () => {
    await s.p.page.goto(`${s.ts.url}/#narrow/channel/${generalId}-general/topic/code`);
    await s.p.page.locator('.rendered .codehilite .kd, .rendered .codehilite .k').first().waitFor();
  });

  /** The computed colours of a keyword, a string, a comment and plain text in the first block. */
  const colours = () =>
    s.p.page.locator('.rendered .codehilite').first().evaluate((block) => {
      const colour = (sel: string) => getComputedStyle(block.querySelector(sel)!).color;
      return { keyword: colour('.k'), string: colour('.s2'), comment: colour('.c1'), number: colour('.mi'), plain: getComputedStyle(block.querySelector('code')!).color };
    });

  const setTheme = async (theme: 'light' | 'dark') => {
    await s.p.page.emulateMedia({ colorScheme: theme });
    await s.p.page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
  };

  test("the server's spans survive the client's sanitiser, classes and all", async () => {
    const block = s.p.page.locator('.rendered .codehilite').first();
    assert.equal(await block.getAttribute('data-code-language'), 'Python');
    assert.equal(await block.locator('span.k', { hasText: 'def' }).count(), 1);
    assert.equal(await block.locator('span.nf').textContent(), 'greet');
    assert.equal(await block.locator('span.sd').textContent(), '"""Say hello."""');
    assert.equal(await s.p.page.locator('.rendered .codehilite .gi').textContent(), '+new line');
  });

  test('tokens are coloured, differently from plain text and between light and dark', async () => {
    await setTheme('light');
    const light = await colours();
    await setTheme('dark');
    const dark = await colours();
    for (const c of [light, dark]) {
      assert.notEqual(c.keyword, c.plain, JSON.stringify(c));
      assert.notEqual(c.string, c.plain, JSON.stringify(c));
      assert.notEqual(c.comment, c.plain, JSON.stringify(c));
      assert.notEqual(c.keyword, c.string, JSON.stringify(c));
    }
    assert.notEqual(light.keyword, dark.keyword);
    assert.notEqual(light.string, dark.string);
    assert.notEqual(light.plain, dark.plain);
  });

  test('screenshots, desktop and phone, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      for (const width of [1280, 390]) {
        await s.p.page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        // A fresh load at this width (a resize from desktop leaves the phone drawer sliding shut).
        await s.p.page.reload();
        await setTheme(theme);
        await s.p.page.locator('.rendered .codehilite').first().waitFor();
        await s.p.page.locator('.rendered .codehilite').first().scrollIntoViewIfNeeded();
        await s.p.page.waitForTimeout(400);
        await s.p.page.screenshot({ path: `test-results/admin-ui/chat-code-highlight-${theme}-${width}.png` });
      }
    }
  });
});
