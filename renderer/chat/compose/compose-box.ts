/**
 * What the compose box and the edit box share: growing with their text (to half the window,
 * then scrolling), the server's `max_message_length` (a counter near it, refusal over it,
 * never a silent cut) and Zulip's formatting keys (Ctrl+B bold, Ctrl+I italic, Ctrl+Shift+L link).
 */
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect } from 'preact/hooks';
import { store } from '../store/state.js';

/** Characters as the server counts them (code points), of the text as it would be sent. */
export function lengthOf(text: string): number {
  const s = text.trim();
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) n--, i++;
    }
  }
  return n;
}

/** The counter shows this close to the limit (as Zulip's compose box). */
export const COUNTER_FROM = 900;

/** Zulip's words when a message is over the limit. */
export const tooLong = () => `Message length shouldn't be greater than ${store.maxMessageLength.value} characters.`;

export const isTooLong = (text: string) => lengthOf(text) > store.maxMessageLength.value;

/** The most a box may grow to (px): half the window, or less where the caller says so. */
export type Room = (el: HTMLTextAreaElement) => number;

/** Sets the box's height to its text's, at most half the window (or `room`); beyond that it scrolls. */
export function grow(el: HTMLTextAreaElement | null, room?: Room): void {
  if (!el || !el.isConnected || !el.getClientRects().length) return; // (not shown: nothing to measure)
  // Holding the parent's height while measuring keeps the message list from moving.
  const parent = el.parentElement;
  const held = parent?.style.minHeight ?? '';
  if (parent) parent.style.minHeight = `${parent.offsetHeight}px`;
  const scrollTop = el.scrollTop;
  el.style.height = 'auto'; // the rows' height: the least it may be
  const least = el.offsetHeight;
  const borders = el.offsetHeight - el.clientHeight;
  const wanted = el.scrollHeight + borders;
  const most = Math.max(least, Math.round(Math.min(window.innerHeight / 2, room ? room(el) : Infinity)));
  el.style.height = `${Math.max(least, Math.min(wanted, most))}px`;
  el.style.overflowY = wanted > most ? 'auto' : 'hidden';
  el.scrollTop = scrollTop;
  if (parent) parent.style.minHeight = held;
}

/**
 * Grows the box whenever its `text` changes, the window is resized or the box gets wider or
 * narrower; `shown` changes when the box is put back (after a preview).
 */
export function useAutoGrow(ref: RefObject<HTMLTextAreaElement | null>, text: string, shown: unknown = true, room?: Room): void {
  useLayoutEffect(() => grow(ref.current, room), [text, shown]);
  useEffect(() => {
    const el = ref.current;
    const again = () => grow(ref.current, room);
    window.addEventListener('resize', again);
    let width = el?.clientWidth ?? 0;
    const watch =
      el && typeof ResizeObserver !== 'undefined'
        ? new ResizeObserver(() => {
            if (el.clientWidth === width) return;
            width = el.clientWidth;
            grow(el, room);
          })
        : null;
    if (el) watch?.observe(el);
    return () => {
      window.removeEventListener('resize', again);
      watch?.disconnect();
    };
  }, [shown]);
}

/** A change to the box's text: `[from, to)` becomes `insert`, then `[selStart, selEnd)` is selected. */
export interface Edit {
  from: number;
  to: number;
  insert: string;
  selStart: number;
  selEnd: number;
}

export type Format = 'bold' | 'italic' | 'link';

/** Which format a key asks for (Ctrl, or Cmd on a Mac), as Zulip's compose box. */
export function formatOfKey(e: KeyboardEvent): Format | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const k = e.key.toLowerCase();
  if (k === 'b' && !e.shiftKey) return 'bold';
  if (k === 'i' && !e.shiftKey) return 'italic';
  if (k === 'l' && e.shiftKey) return 'link';
  return null;
}

const around = (text: string, start: number, end: number, mark: string) =>
  start >= mark.length && text.slice(start - mark.length, start) === mark && text.slice(end, end + mark.length) === mark;

/**
 * The edit a format key makes on `text` with `[start, end)` selected: wraps the selection
 * (whitespace at its edges left out) in `**` or `*`, or takes the marks off when they are
 * already there; with nothing selected, the marks go in with the caret between them. A link
 * becomes `[selection](url)` with `url` selected, to be typed over.
 */
export function formatEdit(text: string, start: number, end: number, kind: Format): Edit {
  const sel = text.slice(start, end);
  start += sel.length - sel.trimStart().length;
  end -= sel.length - sel.trimEnd().length;
  if (end < start) end = start;
  const inner = text.slice(start, end);
  if (kind === 'link') {
    const m = /^\[([^\]]*)\]\(([^)]*)\)$/.exec(inner);
    if (m) return { from: start, to: end, insert: m[1]!, selStart: start, selEnd: start + m[1]!.length };
    const insert = `[${inner}](url)`;
    const url = start + inner.length + 3;
    return { from: start, to: end, insert, selStart: url, selEnd: url + 3 };
  }
  const mark = kind === 'bold' ? '**' : '*';
  // Italic marks around bold ones (`***x***`) are taken off; bold marks alone (`**x**`) are not italic.
  const marked = kind === 'bold' ? around(text, start, end, '**') : around(text, start, end, '***') || (around(text, start, end, '*') && !around(text, start, end, '**'));
  if (marked && start !== end) {
    return { from: start - mark.length, to: end + mark.length, insert: inner, selStart: start - mark.length, selEnd: end - mark.length };
  }
  const innerMarked = inner.length >= mark.length * 2 + 1 && inner.startsWith(mark) && inner.endsWith(mark) && (kind === 'bold' || !inner.startsWith('**') || inner.startsWith('***'));
  if (innerMarked) {
    const bare = inner.slice(mark.length, inner.length - mark.length);
    return { from: start, to: end, insert: bare, selStart: start, selEnd: start + bare.length };
  }
  return { from: start, to: end, insert: mark + inner + mark, selStart: start + mark.length, selEnd: end + mark.length };
}

/**
 * Makes `edit` in the box as typing would (so Ctrl+Z takes it back and an input event tells
 * the box's owner), falling back to setting the value where the browser cannot.
 */
export function applyEdit(el: HTMLTextAreaElement, edit: Edit): void {
  const want = el.value.slice(0, edit.from) + edit.insert + el.value.slice(edit.to);
  el.focus();
  el.setSelectionRange(edit.from, edit.to);
  let done = false;
  try {
    done = document.execCommand('insertText', false, edit.insert) && el.value === want;
  } catch {
    done = false;
  }
  if (!done) {
    el.value = want;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  el.setSelectionRange(edit.selStart, edit.selEnd);
}
