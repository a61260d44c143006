/**
 * Zulip's fenced blocks (``` or ~~~, three or more): code with a language,
 * `quote`/`quoted` (a blockquote whose body is Markdown), `spoiler header`,
 * and `math` (KaTeX display math, math.ts). Code is highlighted as Zulip's
 * server does it (highlight.ts); a fence with no language takes the organization's default. A code block ends
 * only at its own fence; inside a quote or spoiler another fence line opens a
 * nested block, so the closing fence is found by keeping a stack, as Zulip's
 * fenced-block preprocessor does. An unclosed block runs to the end.
 */
import type { Tokens, TokenizerAndRendererExtension } from 'marked';
import { highlightCode } from './highlight.js';
import { escapeHtml } from '../protocol/html.js';
import { mathBlock } from './math.js';
import { LEXER_NAMES } from './pygments-names.js';
import { stateOf, type RenderState } from './state.js';
import { trustedSlot } from './trusted-html.js';

// fence, then an optional `{.lang}` / `.lang` / `lang`, then an optional header.
const FENCE_RE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?[ ]*$/;

const CONTAINERS: ReadonlySet<string> = new Set(['quote', 'quoted', 'spoiler']);
/** Quotes and spoilers nest this deep; a deeper one is shown as code (bounds the work). */
const MAX_NESTING = 16;

interface Open {
  fence: string;
  isCode: boolean;
}

function fenceOf(line: string): { fence: string; lang: string; header: string } | undefined {
  const m = FENCE_RE.exec(line);
  if (!m) return undefined;
  return { fence: m[1]!, lang: (m[2] ?? '').toLowerCase(), header: (m[3] ?? '').trim() };
}

/** Where the block opened on the first line ends: [body end, raw end] offsets. */
function blockEnd(src: string, first: Open, bodyStart: number): [number, number] {
  const stack: Open[] = [first];
  let pos = bodyStart;
  while (pos < src.length) {
    const nl = src.indexOf('\n', pos);
    const lineEnd = nl < 0 ? src.length : nl;
    const line = src.slice(pos, lineEnd);
    const top = stack[stack.length - 1]!;
    if (line.trimEnd() === top.fence) {
      stack.pop();
      if (stack.length === 0) return [pos, nl < 0 ? src.length : nl + 1];
    } else if (!top.isCode && (line.charCodeAt(0) === 96 || line.charCodeAt(0) === 126)) {
      const f = fenceOf(line);
      if (f) stack.push({ fence: f.fence, isCode: !CONTAINERS.has(f.lang) });
    }
    pos = nl < 0 ? src.length : nl + 1;
  }
  return [src.length, src.length];
}

/** Pygments' lexer name for a language alias (Zulip's `data-code-language`), else the alias as typed. */
export const languageName = (lang: string): string => LEXER_NAMES.get(lang.toLowerCase()) ?? lang;

/** Text escaped as Zulip's code blocks with a language have it (re-serialised by lxml: quotes kept). */
const escapeCode = (s: string): string => (/[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);

/** Each line without its trailing spaces and tabs (a loop: `/[ \t]+$/gm` is quadratic on a long run of spaces). */
function trimLines(text: string): string {
  if (!/[ \t]\n|[ \t]$/.test(text)) return text;
  return text
    .split('\n')
    .map((line) => {
      let end = line.length;
      while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
      return end === line.length ? line : line.slice(0, end);
    })
    .join('\n');
}

/**
 * Zulip's code block: trailing spaces of each line dropped, outer blank lines dropped; with a
 * language Pygments knows and we highlight (highlight.ts), Pygments' token spans; otherwise text.
 */
// Highlighted code skips the sanitiser through trusted-html.ts (its spans were half the cost of a long
// block): what highlight.ts writes is safe by construction, its formatter escaping the text and writing
// only spans whose classes are on the sanitiser's list of Pygments' classes (else the block is plain).
export function codeBlockHtml(text: string, lang: string | undefined, state?: RenderState): string {
  const body = trimLines(text).replace(/^\n+/, '').replace(/\n+$/, '');
  if (!lang) return `<div class="codehilite"><pre><span></span><code>${escapeHtml(body)}${body ? '\n' : ''}</code></pre></div>\n`;
  const name = languageName(lang);
  const highlighted = body && LEXER_NAMES.has(lang.toLowerCase()) ? highlightCode(body, name) : undefined;
  const code = highlighted === undefined ? `${escapeCode(body)}${body ? '\n' : ''}` : state ? trustedSlot(state, 'code', highlighted) : highlighted;
  return `<div class="codehilite" data-code-language="${escapeHtml(name)}"><pre><span></span><code>${code}</code></pre></div>\n`;
}

export interface SpoilerToken extends Tokens.Generic {
  type: 'zulipSpoiler';
  header: Tokens.Generic[];
  tokens: Tokens.Generic[];
}

export const fences: TokenizerAndRendererExtension = {
  name: 'zulipFence',
  level: 'block',
  start(src: string) {
    const m = /^(?:`{3,}|~{3,})/m.exec(src);
    return m ? m.index : undefined;
  },
  tokenizer(src: string) {
    const c = src.charCodeAt(0);
    if (c !== 96 && c !== 126) return undefined;
    const nl = src.indexOf('\n');
    const open = fenceOf(nl < 0 ? src : src.slice(0, nl));
    if (!open) return undefined;
    const state = stateOf(this.lexer);
    const container = CONTAINERS.has(open.lang) && state.fenceDepth < MAX_NESTING;
    const bodyStart = nl < 0 ? src.length : nl + 1;
    const [bodyEnd, rawEnd] = blockEnd(src, { fence: open.fence, isCode: !container }, bodyStart);
    const raw = src.slice(0, rawEnd);
    const body = src.slice(bodyStart, bodyEnd);
    if (!container) {
      // A fence without a language takes the organization's default one, except inside a spoiler (as in Zulip).
      const lang = open.lang || (state.spoilerDepth > 0 ? '' : (state.ctx.defaultCodeBlockLanguage ?? '').toLowerCase());
      if (lang === 'math') return mathBlock(raw, body);
      return { type: 'code', raw, text: body, lang: lang || undefined, codeBlockStyle: undefined };
    }
    const lexer = this.lexer;
    const top = lexer.state.top;
    lexer.state.top = true;
    state.fenceDepth++;
    const isSpoiler = open.lang === 'spoiler';
    if (isSpoiler) state.spoilerDepth++;
    try {
      if (open.lang === 'spoiler') {
        const header = open.header ? lexer.blockTokens(open.header, []) : [];
        return { type: 'zulipSpoiler', raw, header, tokens: lexer.blockTokens(body, []) };
      }
      return { type: 'blockquote', raw, text: body, tokens: lexer.blockTokens(body, []) };
    } finally {
      state.fenceDepth--;
      if (isSpoiler) state.spoilerDepth--;
      lexer.state.top = top;
    }
  },
};

/** The spoiler block the fence tokenizer makes (Zulip's markup). */
export const spoiler: TokenizerAndRendererExtension = {
  name: 'zulipSpoiler',
  renderer(token) {
    const t = token as SpoilerToken;
    const header = this.parser.parse(t.header);
    const content = this.parser.parse(t.tokens);
    return (
      `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div>` +
      `<div class="spoiler-content" aria-hidden="true">\n${content}</div></div>\n`
    );
  },
  childTokens: ['header', 'tokens'],
};
