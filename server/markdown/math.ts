/**
 * Math as Zulip's Markdown renders it, with KaTeX 0.16 (the HTML Zulip's clients style):
 * - inline `$$…$$` (Zulip's TEX_RE: not after a word character or `$`, the body on one line, not
 *   starting with `_` or `$`, `\$` inside it, not followed by `$` or a word character) becomes
 *   KaTeX's `<span class="katex">…` (HTML and MathML) where it stands;
 * - a ```` ```math ```` block becomes one `<p>` holding each of its paragraphs (split at blank lines)
 *   in display mode (`<span class="katex-display">…`), joined by a blank line, as Zulip's fence does;
 * - TeX KaTeX refuses becomes `<span class="tex-error">` with the source: inline with its `$$`,
 *   `&`/`<`/`>` escaped as Zulip's serialiser does; in a block without them, every HTML character escaped.
 *
 * Sanitising. KaTeX's HTML has dozens of classes, inline `style` (heights, margins, vertical-align…)
 * and MathML, none of which the server's tight allow-list (sanitize-lists.ts) should learn. So the
 * renderer writes a placeholder where the math goes, the rest of the message is sanitised as usual,
 * and trusted-html.ts puts it back afterwards. KaTeX's output is trusted because KaTeX
 * builds it itself and escapes every piece of the TeX it puts in text or attributes, and `trust` is
 * off, so `\href`, `\url`, `\includegraphics`, `\htmlClass`, `\htmlId`, `\htmlStyle`, `\htmlData`
 * render as error-coloured text. The placeholders cannot be forged (trusted-html.ts says
 * why).
 *
 * Bounds. KaTeX is synchronous and its cost follows the size of what it builds (tens of µs per
 * symbol), so hostile TeX is bounded before it can grow: `maxExpand` (1000 macro expansions, which
 * ends `\def` recursion), `maxSize` (user sizes capped at 25 em), at most MAX_TEX_CHARS of TeX per
 * formula, at most MAX_MACRO_TOKENS tokens produced by the author's own macros per message (KaTeX
 * counts expansions, not their size: ~900 expansions of a 1,000-token `\def` would run for minutes;
 * the count is kept by handing KaTeX a macro table that wraps each definition the TeX makes), and
 * once a message's math output passes MAX_OUTPUT_CHARS or KaTeX has taken MAX_MATH_MS for it, the
 * remaining formulas are shown as errors (so a message costs at most about that plus one formula).
 * Any throw (a ParseError, a stack overflow from deep nesting) is a tex-error.
 */
import katex from 'katex';
import type { Tokens, TokenizerAndRendererExtension } from 'marked';
import { escapeHtml } from '../protocol/html.js';
import { stateOf, type MathState, type RenderState } from './state.js';
import { trustedSlot } from './trusted-html.js';

/** A formula longer than this is shown as a tex-error (the whole message is at most 10,000). */
export const MAX_TEX_CHARS = 2000;
/** Tokens the author's own macros may produce in one message. */
export const MAX_MACRO_TOKENS = 5000;
/** KaTeX HTML one message may hold; formulas after that are shown as errors. */
export const MAX_OUTPUT_CHARS = 300_000;
/** Time KaTeX may take for one message; formulas after that are shown as errors (Zulip's own bound is a 0.5 s timeout). */
export const MAX_MATH_MS = 250;

const KATEX_OPTIONS = {
  throwOnError: true,
  output: 'htmlAndMathml',
  trust: false,
  // What Zulip's default "warn" allows, without writing warnings to the log.
  strict: 'ignore',
  maxSize: 25,
  maxExpand: 1000,
} as const;

// Zulip's TEX_RE from the `$$` on; what may come before is checked on the previous token.
const INLINE_RE = /^\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)(?![\p{L}\p{N}_])/u;
const WORD = /[\p{L}\p{N}_]/u;

export interface MathToken extends Tokens.Generic {
  type: 'zulipMath';
  text: string;
  display: boolean;
}

/** A `$$…$$` at the start of `src`, if Zulip would take it as math there. */
export function inlineMath(src: string, tokens: Tokens.Generic[]): MathToken | undefined {
  if (src.charCodeAt(1) !== 36) return undefined;
  const prev = tokens[tokens.length - 1]?.raw as string | undefined;
  if (prev) {
    const last = prev.codePointAt(prev.length - 1) ?? 0;
    const ch = last >= 0xdc00 && last <= 0xdfff && prev.length > 1 ? String.fromCodePoint(prev.codePointAt(prev.length - 2)!) : prev.slice(-1);
    if (ch === '$' || WORD.test(ch)) return undefined;
  }
  const m = INLINE_RE.exec(src);
  return m ? { type: 'zulipMath', raw: m[0], text: m[1]!, display: false } : undefined;
}

/** A ```` ```math ```` block's token (fences.ts): the body between the fences. */
export const mathBlock = (raw: string, body: string): MathToken => ({ type: 'zulipMath', raw, text: body, display: true });

function mathOf(state: RenderState): MathState {
  return (state.math ??= { outputChars: 0, macroTokens: 0, ms: 0 });
}

type Definition = string | { tokens: unknown[]; unexpandable?: boolean } | ((ctx: unknown) => unknown);

/**
 * The macro table KaTeX keeps the TeX's own definitions in (`\def`, `\newcommand`, `\let`…, local
 * ones too while their group lasts): each one read back is wrapped so that what it expands to counts
 * against the message's budget.
 */
function countingMacros(m: MathState): Record<string, object> {
  const defs: Record<string, Definition> = {};
  const table = new Proxy(defs, {
    get(target, name) {
      if (typeof name !== 'string' || !Object.hasOwn(target, name)) return Reflect.get(target, name);
      const def = target[name];
      if (def == null || (typeof def === 'object' && def.unexpandable)) return def;
      return (ctx: unknown) => {
        const current = target[name];
        const expansion = typeof current === 'function' ? current(ctx) : current;
        const size = typeof expansion === 'string' ? expansion.length : ((expansion as { tokens?: unknown[] })?.tokens?.length ?? 0);
        m.macroTokens += size;
        if (m.macroTokens > MAX_MACRO_TOKENS) throw new katex.ParseError('Too much output from macros');
        return expansion;
      };
    },
  });
  return table as Record<string, object>;
}

/** KaTeX's HTML for one formula, or undefined for a tex-error (bad TeX, or past a bound). */
function renderTex(m: MathState, tex: string, displayMode: boolean): string | undefined {
  if (tex.length > MAX_TEX_CHARS || m.outputChars > MAX_OUTPUT_CHARS || m.ms > MAX_MATH_MS) return undefined;
  const start = performance.now();
  try {
    const html = katex.renderToString(tex, { ...KATEX_OPTIONS, displayMode, macros: countingMacros(m) });
    m.outputChars += html.length;
    return html;
  } catch {
    return undefined;
  } finally {
    m.ms += performance.now() - start;
  }
}

/** Python-Markdown's escaping of element text: `&` not starting an entity, `<` and `>`. */
const escapeText = (s: string): string =>
  s.replace(/&(?!(?:#[0-9]+|#x[0-9a-f]+|[0-9a-z]+);)/gi, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Python's html.escape. */
const escapeAll = (s: string): string => escapeHtml(s).replace(/&#39;/g, '&#x27;');

export function mathHtml(state: RenderState, token: MathToken): string {
  const m = mathOf(state);
  if (!token.display) {
    return trustedSlot(state, 'math', renderTex(m, token.text, false) ?? `<span class="tex-error">${escapeText(`$$${token.text}$$`)}</span>`);
  }
  const body = token.text.endsWith('\n') ? token.text.slice(0, -1) : token.text;
  if (body === '' && token.text === '') return '';
  const text = body.split('\n').map((line) => line.trimEnd()).join('\n');
  const parts = text.split('\n\n').map((p) => renderTex(m, p, true) ?? `<span class="tex-error">${escapeAll(p)}</span>`);
  return `<p>${trustedSlot(state, 'math', parts.join('\n\n'))}</p>\n`;
}

/** The renderer of both forms' tokens (made by zulipInline and the fence tokenizer). */
export const math: TokenizerAndRendererExtension = {
  name: 'zulipMath',
  renderer(token) {
    return mathHtml(stateOf(this.parser), token as MathToken);
  },
};
