/** The compose box's pure parts under Node: Zulip's formatting edits, keys and the length the server counts. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatEdit, formatOfKey, isTooLong, lengthOf, type Edit, type Format } from '../../renderer/chat/compose/compose-box.js';
import { store } from '../../renderer/chat/store/state.js';

/** The text and selection after the edit, the selection shown as [brackets]. */
function run(text: string, kind: Format): string {
  const start = text.indexOf('[');
  const end = text.indexOf(']') - 1;
  const plain = text.replace('[', '').replace(']', '');
  const e: Edit = formatEdit(plain, start, end, kind);
  const out = plain.slice(0, e.from) + e.insert + plain.slice(e.to);
  return `${out.slice(0, e.selStart)}[${out.slice(e.selStart, e.selEnd)}]${out.slice(e.selEnd)}`;
}

describe('compose box formatting (Ctrl+B, Ctrl+I, Ctrl+Shift+L)', () => {
  it('bold wraps the selection, keeps it selected, and unwraps it again', () => {
    assert.equal(run('make [this] bold', 'bold'), 'make **[this]** bold');
    assert.equal(run('make **[this]** bold', 'bold'), 'make [this] bold');
    assert.equal(run('make [**this**] bold', 'bold'), 'make [this] bold');
  });
  it('leaves whitespace at the selection edges outside the marks', () => {
    assert.equal(run('make[ this ]bold', 'bold'), 'make **[this]** bold');
  });
  it('with nothing selected inserts the marks with the caret between', () => {
    assert.equal(run('say []', 'bold'), 'say **[]**');
    assert.equal(run('say []', 'italic'), 'say *[]*');
  });
  it('italic: bold text gets italic marks; italic (or bold italic) text loses them', () => {
    assert.equal(run('a [word]', 'italic'), 'a *[word]*');
    assert.equal(run('a *[word]*', 'italic'), 'a [word]');
    assert.equal(run('a **[word]**', 'italic'), 'a ***[word]***');
    assert.equal(run('a ***[word]***', 'italic'), 'a **[word]**');
  });
  it('link: [text](url) with url selected to type over; a whole link selected is unlinked', () => {
    assert.deepEqual(formatEdit('see the docs now', 4, 12, 'link'), { from: 4, to: 12, insert: '[the docs](url)', selStart: 15, selEnd: 18 });
    assert.deepEqual(formatEdit('', 0, 0, 'link'), { from: 0, to: 0, insert: '[](url)', selStart: 3, selEnd: 6 });
    const linked = 'see [the docs](https://x.example) now';
    assert.deepEqual(formatEdit(linked, 4, linked.length - 4, 'link'), { from: 4, to: linked.length - 4, insert: 'the docs', selStart: 4, selEnd: 12 });
  });
  it('keys: Ctrl (or Cmd) B and I, Ctrl+Shift+L; not with Alt, not Shift+B', () => {
    const key = (key: string, mods: Partial<KeyboardEvent> = {}) => formatOfKey({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods } as KeyboardEvent);
    assert.equal(key('b', { ctrlKey: true }), 'bold');
    assert.equal(key('b', { metaKey: true }), 'bold');
    assert.equal(key('i', { ctrlKey: true }), 'italic');
    assert.equal(key('L', { ctrlKey: true, shiftKey: true }), 'link');
    assert.equal(key('l', { ctrlKey: true }), null, 'Ctrl+L is the browser’s');
    assert.equal(key('B', { ctrlKey: true, shiftKey: true }), null);
    assert.equal(key('b', { ctrlKey: true, altKey: true }), null);
    assert.equal(key('b'), null);
  });
});

describe('compose box length', () => {
  it('counts what is sent as the server does: trimmed, code points (an emoji is one)', () => {
    assert.equal(lengthOf('  hello \n'), 5);
    assert.equal(lengthOf('👍👍'), 2);
    assert.equal(lengthOf('a\u{1F600}b'), 3);
  });
  it('is too long only past max_message_length', () => {
    store.maxMessageLength.value = 10;
    assert.equal(isTooLong('x'.repeat(10)), false);
    assert.equal(isTooLong(`${'x'.repeat(10)}   `), false, 'trailing spaces are not sent');
    assert.equal(isTooLong('😀'.repeat(10)), false, 'ten emoji are ten characters');
    assert.equal(isTooLong('x'.repeat(11)), true);
    store.maxMessageLength.value = 10000;
  });
});
