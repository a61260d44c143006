/**
 * Word search for the `search` narrow operator, with Zulip's highlighting:
 * `match_content` is the rendered HTML with `<span class="highlight">` around
 * matched words (in text, never inside tags), `match_subject` the escaped
 * topic highlighted the same way. A word matches at the start of a word,
 * case-insensitively (so `walk` finds `walking`).
 */
import type { MessageRecord } from '../../store/message-records.js';
import { escapeHtml } from '../text.js';

const WORD_CHAR = '[\\p{L}\\p{N}_]';

export function searchWords(operand: string): string[] {
  return operand
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => w !== '');
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches any of the words at a word start, through the end of that word. */
export function wordsRegex(words: string[]): RegExp {
  const alt = words.map(escapeRe).join('|');
  return new RegExp(`(?<!${WORD_CHAR})(?:${alt})${WORD_CHAR}*`, 'giu');
}

export function matchesWords(m: MessageRecord, words: string[]): boolean {
  return wordMatcher(words)(m);
}

/** A test for "every word begins a word of the message" with its expressions built once (a narrow checks many messages). */
export function wordMatcher(words: string[]): (m: MessageRecord) => boolean {
  if (words.length === 0) return () => true;
  const res = words.map((w) => new RegExp(`(?<!${WORD_CHAR})${escapeRe(w)}`, 'iu'));
  return (m) => {
    const text = `${m.topic}\n${m.content}`;
    return res.every((re) => re.test(text));
  };
}

const wrap = (s: string) => `<span class="highlight">${s}</span>`;

/** Highlights in HTML text nodes only. */
export function highlightHtml(html: string, re: RegExp): string {
  return html.replace(/(<[^>]*>)|([^<]+)/g, (_all, tag: string | undefined, text: string | undefined) =>
    tag !== undefined ? tag : text!.replace(re, wrap),
  );
}

/** Highlights in plain text (escaped first). */
export function highlightText(text: string, re: RegExp): string {
  return highlightHtml(escapeHtml(text), re);
}
