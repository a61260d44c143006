/**
 * The chat's compose box in Debian's Chromium (issue 29, items 3 and 9): it grows with its text
 * to half the window, then scrolls, and shrinks after sending (the edit box too); a counter near
 * the server's max_message_length, text over it refused with Zulip's words and nothing stored,
 * pasted text never cut; Ctrl+B, Ctrl+I and Ctrl+Shift+L wrap the selection; Alt+P shows the
 * server's rendering; files dropped on the message list or the sidebar are uploaded into the
 * message, with an overlay saying where they go; files over max_file_upload_size_mib are refused
 * with the limit named and no upload request made. Screenshots at 1280 and 390 px, light and
 * dark: test-results/admin-ui/compose-box-*.png.
 */
import assert from 'node:assert/strict';
import { serialSuite, test } from '../helpers/fixtures.js';
import type { Page, Request } from 'playwright-core';
import { axeViolations } from '../helpers/axe.js';
import type { TestPage } from '../helpers/browser.js';
import { isSessionProbe, signIn } from '../helpers/chat-page.js';
import { eventually } from '../helpers/eventually.js';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendStream } from '../helpers/messages.js';
import type { TestServer } from '../helpers/server.js';

const MAX = 10_000; // the server's max_message_length (server/version.ts)

test.describe('chat compose box in Chromium', () => {
  const s = serialSuite();
  let ts: TestServer;
  let a: TestPage;
  let generalId: number;
  /** Every request the page makes, to prove some were never made. */
  const requests: Request[] = [];

  const box = (p: Page) => p.getByRole('textbox', { name: 'Message' });
  const messageList = (p: Page) => p.getByLabel('Messages', { exact: true });
  const button = (p: Page, name: string) => p.getByRole('form', { name: 'Compose' }).getByRole('button', { name, exact: true });
  const heightOf = (p: Page, name = 'Message') => p.getByRole('textbox', { name }).evaluate((el) => el.getBoundingClientRect().height);
  const scrolls = (p: Page, name = 'Message') => p.getByRole('textbox', { name }).evaluate((el) => el.scrollHeight > el.clientHeight + 1);
  const selection = (p: Page) => box(p).evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd));
  const openTopic = async (p: Page, topic: string) => {
    await p.goto(`${ts.url}/#narrow/channel/${generalId}-general/topic/${encodeURIComponent(topic)}`);
    await p.getByRole('heading', { name: `#general > ${topic}`, exact: true }).waitFor();
  };
  const topicMessages = async (topic: string) =>
    (await fetchMessages(ts.ownerClient, { narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: topic }], apply_markdown: false }))
      .messages as { content: string }[];
  const posts = (path: string) => requests.filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === path);

  /** Screenshots at 1280 and 390 px, light and dark, then back to 1280 px light; axe-core on the compose box and the drop overlay. */
  async function shots(name: string) {
    for (const [w, theme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
      await a.page.setViewportSize({ width: w, height: w === 390 ? 844 : 800 });
      await a.page.emulateMedia({ colorScheme: theme });
      await new Promise((r) => setTimeout(r, 300)); // the phone drawer's slide
      await a.shot(`compose-box-${name}-${w}-${theme}`);
      if (w === 1280) {
        const parts = ['form[aria-label="Compose"]', ...((await a.page.locator('.drop-overlay').count()) ? ['.drop-overlay'] : [])];
        assert.deepEqual(await axeViolations(a.page, parts), [], `axe-core: ${name}, ${theme}`);
      }
    }
    await a.page.emulateMedia({ colorScheme: 'light' });
    await a.page.setViewportSize({ width: 1280, height: 800 });
  }

  /** Drags files over `target` and drops them there, as the browser does (dragenter, dragover, drop). */
  async function dropFiles(p: Page, target: ReturnType<Page['locator']>, files: { name: string; type: string; bytes: number; fill?: string }[], check?: () => Promise<void>) {
    const dt = await p.evaluateHandle((fs) => {
      const d = new DataTransfer();
      for (const f of fs) d.items.add(new File([f.fill ?? new Uint8Array(f.bytes)], f.name, { type: f.type }));
      return d;
    }, files);
    await target.dispatchEvent('dragenter', { dataTransfer: dt });
    await target.dispatchEvent('dragover', { dataTransfer: dt });
    if (check) await check();
    await target.dispatchEvent('drop', { dataTransfer: dt });
  }

  test.beforeAll(async () => {
    ts = s.ts;
    const mel = await ts.addUser('Mel');
    generalId = await createChannel(ts, ts.ownerClient, 'general', { principals: [ts.owner.id, mel.id] });
    await sendStream(ts.ownerClient, 'general', 'growing', 'A first message');
    await ts.ownerClient.post('/mark_all_as_read');
    a = await s.open(null);
    a.page.on('request', (r) => requests.push(r));
  });

  test('signs in', async () => {
    await a.page.setViewportSize({ width: 1280, height: 800 });
    await signIn(a.page, ts.url, ts.owner);
    a.errors.splice(0, a.errors.length, ...a.errors.filter((e) => !isSessionProbe(e)));
  });

  test('the box grows with its text to half the window, then scrolls; it shrinks after sending', async () => {
    await openTopic(a.page, 'growing');
    const empty = await heightOf(a.page);
    await box(a.page).fill('one line');
    assert.equal(await heightOf(a.page), empty, 'one line fits the two rows');
    const nine = Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join('\n');
    await box(a.page).fill(nine);
    const tall = await heightOf(a.page);
    assert.ok(tall > empty * 2.5, `nine lines: ${tall}px, empty: ${empty}px`);
    assert.equal(await scrolls(a.page), false, 'nine lines show whole, without a scroll bar');
    // Far more than fits: half the window (800 px), then the box scrolls.
    await box(a.page).fill(Array.from({ length: 80 }, (_, i) => `row ${i + 1}`).join('\n'));
    const most = await heightOf(a.page);
    assert.ok(most >= 390 && most <= 410, `capped at about half the window: ${most}px`);
    assert.equal(await scrolls(a.page), true, 'beyond half the window the text scrolls');
    await box(a.page).press('Control+End');
    await box(a.page).pressSequentially(' typed at the end');
    assert.ok(
      await box(a.page).evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2),
      'typing at the end keeps the end (and the caret) in view',
    );
    assert.ok(await a.page.getByRole('heading', { name: '#general > growing' }).isVisible(), 'the header stays on screen');
    // 10,000 characters in one paragraph wrap and grow the box as lines do.
    await box(a.page).fill('word '.repeat(1000));
    assert.ok((await heightOf(a.page)) >= 390, 'a long paragraph grows it too');
    await box(a.page).fill(nine);
    assert.equal(await heightOf(a.page), tall, 'it shrinks back as text goes');
    await shots('grown');
    await box(a.page).press('Enter');
    await a.page.locator('li.message .content', { hasText: 'line 9' }).waitFor();
    assert.equal(await box(a.page).inputValue(), '');
    assert.equal(await heightOf(a.page), empty, 'sent: back to two rows');
    assert.ok((await topicMessages('growing')).some((m) => m.content === nine), 'the nine lines are stored');
  });

  test('a counter shows near the limit; text over it is refused with a message and nothing is stored', async () => {
    await openTopic(a.page, 'limits');
    const counter = a.page.locator('.length-counter');
    await box(a.page).fill('a'.repeat(MAX - 1000));
    assert.equal(await counter.count(), 0, 'no counter a thousand characters away');
    await box(a.page).fill('a'.repeat(MAX - 800));
    await counter.filter({ hasText: '800 characters left' }).waitFor();
    assert.equal(await box(a.page).getAttribute('aria-describedby'), await counter.getAttribute('id'), 'the box is described by its counter');
    const over = 'b'.repeat(MAX + 16);
    await box(a.page).fill(over);
    await counter.filter({ hasText: '16 characters over the limit' }).waitFor();
    assert.equal(await box(a.page).getAttribute('aria-invalid'), 'true');
    const sentBefore = posts('/json/messages').length;
    await box(a.page).press('Enter');
    const alert = a.page.getByRole('alert').filter({ hasText: `Message length shouldn't be greater than ${MAX} characters.` });
    await alert.waitFor();
    await button(a.page, 'Send').click();
    await button(a.page, 'Schedule').click();
    await alert.waitFor();
    assert.equal(await a.page.getByRole('dialog').count(), 0, 'no scheduling either');
    assert.equal((await box(a.page).inputValue()).length, MAX + 16, 'the text stays in the box, whole');
    assert.equal(posts('/json/messages').length, sentBefore, 'no send request was made');
    assert.equal((await topicMessages('limits')).length, 0, 'nothing stored on the server');
    assert.equal((await ts.ownerClient.get('/scheduled_messages')).body.scheduled_messages.length, 0);
    await shots('over-limit');
    // Back under the limit: the counter is no longer red and the message goes.
    await box(a.page).fill('b'.repeat(MAX));
    await counter.filter({ hasText: '0 characters left' }).waitFor();
    assert.equal(await box(a.page).getAttribute('aria-invalid'), null);
    await box(a.page).press('Enter');
    await eventually(async () => (await topicMessages('limits')).some((m) => m.content === 'b'.repeat(MAX)));
  });

  test('pasting more than the limit keeps every character (nothing cut silently)', async () => {
    await openTopic(a.page, 'pasting');
    const text = `${'pasted text '.repeat(834)}end`; // 10,011 characters
    assert.ok(text.length > MAX);
    await a.page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await box(a.page).click();
    await box(a.page).press('Control+V');
    await eventually(async () => (await box(a.page).inputValue()).length > 0);
    assert.equal(await box(a.page).inputValue(), text);
    await a.page.locator('.length-counter', { hasText: `${text.length - MAX} characters over the limit` }).waitFor();
    await box(a.page).fill('');
  });

  test('Ctrl+B, Ctrl+I and Ctrl+Shift+L wrap the selection; Ctrl+Z takes it back', async () => {
    await openTopic(a.page, 'formatting');
    await box(a.page).fill('make this bold');
    await box(a.page).press('End');
    for (let i = 0; i < 4; i++) await box(a.page).press('Shift+ArrowLeft');
    assert.equal(await selection(a.page), 'bold');
    await box(a.page).press('Control+b');
    assert.equal(await box(a.page).inputValue(), 'make this **bold**');
    assert.equal(await selection(a.page), 'bold', 'the words stay selected');
    await box(a.page).press('Control+b');
    assert.equal(await box(a.page).inputValue(), 'make this bold', 'again: the marks come off');
    await box(a.page).press('Control+i');
    assert.equal(await box(a.page).inputValue(), 'make this *bold*');
    await box(a.page).press('Control+z');
    assert.equal(await box(a.page).inputValue(), 'make this bold', 'Ctrl+Z undoes the format');
    await box(a.page).press('End');
    for (let i = 0; i < 4; i++) await box(a.page).press('Shift+ArrowLeft');
    await box(a.page).press('Control+Shift+L');
    assert.equal(await box(a.page).inputValue(), 'make this [bold](url)');
    assert.equal(await selection(a.page), 'url', 'the url is selected, to be typed over');
    await box(a.page).pressSequentially('https://example.com');
    assert.equal(await box(a.page).inputValue(), 'make this [bold](https://example.com)');
    // Nothing selected: the marks go in with the caret between them.
    await box(a.page).press('End');
    await box(a.page).pressSequentially(' and ');
    await box(a.page).press('Control+b');
    await box(a.page).pressSequentially('strong');
    assert.equal(await box(a.page).inputValue(), 'make this [bold](https://example.com) and **strong**');
    await box(a.page).press('Enter');
    const sent = a.page.locator('li.message .content', { hasText: 'make this' });
    await sent.locator('strong', { hasText: 'strong' }).waitFor();
    assert.equal(await sent.getByRole('link', { name: 'bold' }).getAttribute('href'), 'https://example.com');
  });

  test('Alt+P shows the rendered preview and goes back to the text', async () => {
    await openTopic(a.page, 'formatting');
    await box(a.page).fill('Preview **this** and `that`');
    const rendered = requests.length;
    await box(a.page).press('Alt+p');
    const preview = a.page.getByRole('region', { name: 'Preview' });
    await preview.locator('strong', { hasText: 'this' }).waitFor();
    await preview.locator('code', { hasText: 'that' }).waitFor();
    assert.ok(posts('/json/messages/render').length > 0 && requests.length > rendered, 'rendered by the server');
    assert.equal(await button(a.page, 'Edit').getAttribute('aria-pressed'), 'true');
    assert.equal(await preview.evaluate((el) => el === document.activeElement), true, 'the keyboard is in the preview');
    await shots('preview');
    await a.page.keyboard.press('Alt+p');
    await box(a.page).waitFor();
    assert.equal(await box(a.page).inputValue(), 'Preview **this** and `that`');
    assert.equal(await box(a.page).evaluate((el) => el === document.activeElement), true, 'back in the box');
    await box(a.page).fill('');
  });

  test('the keyboard shortcuts list names the formatting keys and Alt+P', async () => {
    await openTopic(a.page, 'formatting');
    await messageList(a.page).focus();
    await a.page.keyboard.press('?');
    const dialog = a.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const writing = dialog.getByRole('table', { name: 'Writing' });
    for (const [keys, does] of [['Ctrl + B', 'Bold'], ['Ctrl + I', 'Italic'], ['Ctrl + Shift + L', 'Link'], ['Alt + P', 'Preview the message']] as const) {
      await writing.getByRole('row', { name: new RegExp(`^${keys.replace(/\+/g, '\\+')} ${does}`) }).waitFor();
    }
    await a.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  test('files dropped on the message list or the sidebar are uploaded into the message; the overlay says where', async () => {
    await openTopic(a.page, 'files');
    const overlay = a.page.getByRole('status').filter({ hasText: 'Drop files to upload them' });
    const list = messageList(a.page);
    const uploadsBefore = posts('/json/user_uploads').length;
    await dropFiles(a.page, list, [{ name: 'notes.txt', type: 'text/plain', bytes: 0, fill: 'meeting notes' }], async () => {
      await overlay.filter({ hasText: 'They go into your message to #general > files.' }).waitFor();
      await shots('drop');
    });
    await overlay.waitFor({ state: 'detached' });
    await eventually(async () => (await box(a.page).inputValue()).includes('[notes.txt](/user_uploads/'));
    // On the sidebar too, and two at once.
    const sidebar = a.page.getByRole('navigation', { name: 'Conversations' });
    await dropFiles(a.page, sidebar, [
      { name: 'a.txt', type: 'text/plain', bytes: 0, fill: 'first' },
      { name: 'b.txt', type: 'text/plain', bytes: 0, fill: 'second' },
    ]);
    await eventually(async () => /\[a\.txt\]\(\/user_uploads\/.*\n\[b\.txt\]\(\/user_uploads\//s.test(await box(a.page).inputValue()));
    assert.equal(posts('/json/user_uploads').length, uploadsBefore + 3);
    await box(a.page).press('Enter');
    const link = a.page.locator('li.message').getByRole('link', { name: 'notes.txt' });
    await link.waitFor();
    assert.equal(await a.page.evaluate(async (u) => (await fetch(u!)).text(), await link.getAttribute('href')), 'meeting notes');
    // Pasting files keeps working.
    await box(a.page).evaluate((el) => {
      const d = new DataTransfer();
      d.items.add(new File(['pasted'], 'pasted.txt', { type: 'text/plain' }));
      el.focus();
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: d, bubbles: true, cancelable: true }));
    });
    await eventually(async () => (await box(a.page).inputValue()).includes('[pasted.txt](/user_uploads/'));
    await box(a.page).fill('');
  });

  test('files dropped where no compose box is (the Inbox, first thing) are refused, not opened by the browser', async () => {
    await a.page.goto(`${ts.url}/#inbox`);
    await a.page.reload();
    await a.page.getByRole('heading', { name: 'Inbox' }).first().waitFor();
    const uploadsBefore = posts('/json/user_uploads').length;
    const refused = await a.page.locator('main').evaluate((main) => {
      const d = new DataTransfer();
      d.items.add(new File(['x'], 'stray.txt', { type: 'text/plain' }));
      const over = new DragEvent('dragover', { dataTransfer: d, bubbles: true, cancelable: true });
      main.dispatchEvent(over);
      const drop = new DragEvent('drop', { dataTransfer: d, bubbles: true, cancelable: true });
      main.dispatchEvent(drop);
      return { over: over.defaultPrevented, effect: d.dropEffect, drop: drop.defaultPrevented };
    });
    assert.deepEqual(refused, { over: true, effect: 'none', drop: true }, 'the page keeps the file from the browser');
    assert.equal(await a.page.locator('.drop-overlay').count(), 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(posts('/json/user_uploads').length, uploadsBefore);
    assert.equal(new URL(a.page.url()).hash, '#inbox');
  });

  test('with no destination picked the overlay says to pick a channel first', async () => {
    // A fresh page on the combined feed: compose has no channel yet.
    await a.page.goto(`${ts.url}/#feed`);
    await a.page.reload();
    await a.page.getByRole('heading', { name: 'Combined feed' }).waitFor();
    assert.equal(await a.page.getByRole('combobox', { name: 'Channel' }).inputValue(), '0');
    const list = messageList(a.page);
    await dropFiles(a.page, list, [{ name: 'later.txt', type: 'text/plain', bytes: 0, fill: 'later' }], async () => {
      await a.page.getByRole('status').filter({ hasText: 'They go into your new message: pick a channel first.' }).waitFor();
      await shots('drop-no-destination');
    });
    await eventually(async () => (await box(a.page).inputValue()).includes('[later.txt](/user_uploads/'));
    await box(a.page).fill('');
    await a.page.getByRole('combobox', { name: 'Send to' }).selectOption({ label: 'Direct message' });
    await dropFiles(a.page, list, [{ name: 'dm.txt', type: 'text/plain', bytes: 0, fill: 'dm' }], async () => {
      await a.page.getByRole('status').filter({ hasText: 'They go into your new message: pick who to write to first.' }).waitFor();
    });
    await eventually(async () => (await box(a.page).inputValue()).includes('[dm.txt](/user_uploads/'));
    await box(a.page).fill('');
  });

  test('while a file is uploading, sending is refused (its link is not in the message yet)', async () => {
    await openTopic(a.page, 'files');
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await a.page.route('**/json/user_uploads', async (route) => {
      await held;
      await route.continue();
    });
    await a.page.getByLabel('Attach files').setInputFiles({ name: 'slow.txt', mimeType: 'text/plain', buffer: Buffer.from('slow') });
    await a.page.getByRole('status').filter({ hasText: 'Uploading slow.txt' }).waitFor();
    await box(a.page).fill('Here is the file:');
    const sentBefore = posts('/json/messages').length;
    await box(a.page).press('Enter');
    await a.page.getByRole('alert').filter({ hasText: 'Cannot send message while files are being uploaded.' }).waitFor();
    assert.equal(posts('/json/messages').length, sentBefore, 'nothing sent');
    release();
    await eventually(async () => /^Here is the file:\n\[slow\.txt\]\(\/user_uploads\//.test(await box(a.page).inputValue()));
    await a.page.unroute('**/json/user_uploads');
    await box(a.page).press('Enter');
    await a.page.locator('li.message').getByRole('link', { name: 'slow.txt' }).waitFor();
  });

  test('a file over max_file_upload_size_mib is refused, naming the limit, before any byte is sent', async () => {
    const set = await ts.ownerClient.patch('/realm', { max_file_upload_size_mib: 1 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await openTopic(a.page, 'files');
    // The page learns the new limit from the realm event: the overlay names it.
    const list = messageList(a.page);
    const uploadsBefore = posts('/json/user_uploads').length;
    await dropFiles(a.page, list, [{ name: 'big.bin', type: 'application/octet-stream', bytes: 1.5 * 1024 * 1024 }], async () => {
      await a.page.getByRole('status').filter({ hasText: 'Up to 1 MiB each.' }).waitFor();
    });
    await a.page.getByRole('alert').filter({ hasText: 'big.bin is 1.5 MiB: files may be up to 1 MiB here, so it was not uploaded.' }).waitFor();
    await shots('too-big');
    // By the button as well.
    await a.page.getByLabel('Attach files').setInputFiles({ name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(2 * 1024 * 1024) });
    await a.page.getByRole('alert').filter({ hasText: 'huge.pdf is 2 MiB: files may be up to 1 MiB here' }).waitFor();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(posts('/json/user_uploads').length, uploadsBefore, 'no upload request was made');
    assert.equal(await box(a.page).inputValue(), '');
    await ts.ownerClient.patch('/realm', { max_file_upload_size_mib: 25 });
  });

  test('the edit box grows the same way and refuses text over the limit', async () => {
    await openTopic(a.page, 'growing');
    const li = a.page.locator('li.message').filter({ has: a.page.locator('.content', { hasText: 'A first message' }) });
    await li.hover();
    await li.getByRole('button', { name: 'Message actions' }).click();
    await a.page.getByRole('menu', { name: 'Message actions' }).getByRole('menuitem', { name: 'Edit message' }).click();
    const edit = a.page.getByRole('textbox', { name: 'Edit message' });
    await eventually(async () => (await edit.inputValue()) === 'A first message');
    const short = await heightOf(a.page, 'Edit message');
    await edit.fill(Array.from({ length: 12 }, (_, i) => `edited line ${i + 1}`).join('\n'));
    const tall = await heightOf(a.page, 'Edit message');
    assert.ok(tall > short * 2, `twelve lines: ${tall}px, one: ${short}px`);
    assert.equal(await scrolls(a.page, 'Edit message'), false);
    await edit.fill('c'.repeat(MAX + 5));
    assert.ok((await heightOf(a.page, 'Edit message')) <= 410, 'capped at half the window');
    await a.page.locator('.edit-box .length-counter', { hasText: '5 characters over the limit' }).waitFor();
    await edit.press('Enter');
    const refusal = a.page.locator('.edit-box').getByRole('alert').filter({ hasText: `Message length shouldn't be greater than ${MAX} characters.` });
    await refusal.waitFor();
    // The refusal and Save are in view (the box leaves room for them within the list).
    const save = a.page.locator('.edit-box').getByRole('button', { name: 'Save' });
    await eventually(async () => {
      const [r, s, list] = await Promise.all([refusal.boundingBox(), save.boundingBox(), messageList(a.page).boundingBox()]);
      return !!r && !!s && !!list && r.y >= list.y && s.y + s.height <= list.y + list.height + 1;
    });
    await shots('edit-over-limit');
    assert.deepEqual(await axeViolations(a.page, ['.edit-box']), []);
    assert.equal((await edit.inputValue()).length, MAX + 5, 'the text stays, whole');
    assert.ok((await topicMessages('growing')).some((m) => m.content === 'A first message'), 'the stored message is unchanged');
    await edit.press('Escape');
    await edit.waitFor({ state: 'detached' });
  });

  test('no errors in the console', async () => {
    assert.deepEqual(a.errors, []);
  });
});
