/**
 * Word search for the `search` narrow operator, with Zulip's highlighting:
 * `match_content` is the rendered HTML with `<span class="highlight">` around
 * matched words (in text, never inside tags or character references), `match_subject`
 * the escaped topic highlighted the same way. A word matches at the start of a word,
 * case-insensitively (so `walk` finds `walking`).
 *
 * What a search may cost (issue 36: one operand of `t` 10,000 times held the server 11 s): a
 * repeated word is read once, and a word that another search word begins is implied by it, so
 * the matcher tests each message for the rest only; the narrow's parser refuses more than
 * MAX_SEARCH_WORDS words in all, or one longer than MAX_SEARCH_WORD_LENGTH (narrow-terms.ts).
 * Highlighting looks each word of the text up once in a trie of the search words (one expression
 * skips the words whose first letter begins none), so its time grows with the text, never with
 * the number of search words; it marks at most MAX_HIGHLIGHTS words in a field.
 */
import type { MessageRecord } from '../../store/message-records.js';
import { escapeHtml } from '../../protocol/html.js';

const WORD_CHAR = '[\\p{L}\\p{N}_]';

/**
 * Distinct search words a narrow may hold, counted over all its `search` terms. Zulip has no
 * such limit (PostgreSQL runs its query apart from the web server); here matching runs on the
 * server's only thread, and each word is one more test of every message scanned: at a million
 * messages the costliest narrow within this and MAX_NARROW_TERMS held it about 200 ms
 * (`npm run bench -- search`), where one with two words held it about 50 ms.
 */
export const MAX_SEARCH_WORDS = 20;

/**
 * The longest search word, in characters: PostgreSQL's limit for a word in Zulip's search (it
 * drops longer ones). A word of some 20,000 characters is more than V8 can compile as an expression.
 */
export const MAX_SEARCH_WORD_LENGTH = 2_047;

/** Matches marked in one field; the rest of a long message stays as it is (linear either way, but each mark adds 31 bytes). */
export const MAX_HIGHLIGHTS = 1_000;

/** The distinct lower-cased words of a search operand, in the order they first appear (a repeat changes nothing: every word must match). */
export function searchWords(operand: string): string[] {
  const out = new Set<string>();
  for (const w of operand.toLowerCase().split(/[^\p{L}\p{N}_]+/u)) if (w !== '') out.add(w);
  return [...out];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function matchesWords(m: MessageRecord, words: string[]): boolean {
  return wordMatcher(words)(m);
}

/**
 * The words a message must hold for all of `words` to match: distinct, without any that another
 * of them begins (a word beginning with `walking` begins with `walk`), longest first (longer words
 * are rarer, so a message without one is turned down sooner).
 */
export function essentialWords(words: readonly string[]): string[] {
  const sorted = [...new Set(words)].sort();
  // In sorted order, the words a word begins come right after it.
  const kept = sorted.filter((w, i) => !sorted[i + 1]?.startsWith(w));
  return kept.sort((a, b) => b.length - a.length);
}

/** A test for "every word begins a word of the message" with its expressions built once (a narrow checks many messages). */
export function wordMatcher(words: string[]): (m: MessageRecord) => boolean {
  const needed = essentialWords(words);
  if (needed.length === 0) return () => true;
  const res = needed.map((w) => new RegExp(`(?<!${WORD_CHAR})${escapeRe(w)}`, 'iu'));
  // The topic and the content apart: a word never spans them, and no joined copy is made per message.
  return (m) => res.every((re) => re.test(m.topic) || re.test(m.content));
}

/** A trie of the search words by UTF-16 code unit; `end`: a search word ends here. */
interface TrieNode {
  end: boolean;
  next: Map<number, TrieNode>;
}

function trieOf(words: readonly string[]): TrieNode {
  const root: TrieNode = { end: false, next: new Map() };
  for (const w of words) {
    let node = root;
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      let child = node.next.get(c);
      if (!child) node.next.set(c, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  return root;
}

/** Whether a search word begins this word of the text (compared lower-cased, as the words were). */
function begins(root: TrieNode, word: string): boolean {
  const lower = word.toLowerCase();
  let node = root;
  for (let i = 0; i < lower.length; i++) {
    const child = node.next.get(lower.charCodeAt(i));
    if (!child) return false;
    if (child.end) return true;
    node = child;
  }
  return false;
}

const wrap = (s: string) => `<span class="highlight">${s}</span>`;
/** A tag, or a run of text between tags. */
const TAGS_AND_TEXT = /(<[^>]*>)|([^<]+)/g;
const CHARACTER_REFERENCE = '&(?:#\\d+|#x[\\da-f]+|[a-z][a-z\\d]*);';

/**
 * In text: a character reference (left whole: `amp` never matches inside `&amp;`), or a word
 * whose first letter begins a search word (the trie decides; the expression only skips the rest).
 */
function wordsToCheck(words: readonly string[]): RegExp {
  const firsts = new Set<string>();
  for (const w of words) firsts.add(String.fromCodePoint(w.codePointAt(0)!));
  const cls = [...firsts].map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('');
  return new RegExp(`${CHARACTER_REFERENCE}|(?<!${WORD_CHAR})[${cls}]${WORD_CHAR}*`, 'giu');
}

export interface Highlighter {
  /** Rendered HTML with the matched words of its text wrapped. */
  html(html: string): string;
  /** Plain text (a topic), escaped, then highlighted. */
  text(text: string): string;
}

/** The highlighter of a request's search words (built once, used for every message), or null without words. */
export function highlighterFor(words: readonly string[] | null): Highlighter | null {
  if (!words?.length) return null;
  const root = trieOf(words);
  const toCheck = wordsToCheck(words);
  const html = (source: string): string => {
    let marked = 0;
    const inText = (word: string) => {
      if (word.charCodeAt(0) === 38 /* & */ || marked >= MAX_HIGHLIGHTS || !begins(root, word)) return word;
      marked++;
      return wrap(word);
    };
    return source.replace(TAGS_AND_TEXT, (all, tag: string | undefined, text: string | undefined) =>
      tag !== undefined || marked >= MAX_HIGHLIGHTS ? all : text!.replace(toCheck, inText),
    );
  };
  return { html, text: (text) => html(escapeHtml(text)) };
}
