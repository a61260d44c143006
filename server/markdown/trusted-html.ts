/**
 * HTML from Hearth's own trusted renderers (KaTeX in math.ts, the highlighter in fences.ts) skips the
 * sanitiser: the renderer writes a placeholder where it goes, the message is sanitised as usual, and
 * `putTrustedBack` puts the HTML in. A placeholder cannot be forged: it carries 128 random bits drawn
 * for this render (never shown: every placeholder is replaced before the HTML leaves), and one found
 * inside a tag is dropped, never filled in (in sanitised HTML attribute values never hold a raw `<`
 * or `>`, so the last `<` before a placeholder being after the last `>` means it is inside a tag).
 */
import { randomBytes } from 'node:crypto';
import type { RenderState } from './state.js';

/** The placeholder for `html` (`hearth<kind><nonce>n<index>e`); the kind only names what it holds. */
export function trustedSlot(state: RenderState, kind: 'math' | 'code', html: string): string {
  const t = (state.trusted ??= { nonce: randomBytes(16).toString('hex'), html: [] });
  return `hearth${kind}${t.nonce}n${t.html.push(html) - 1}e`;
}

/** The sanitised HTML with the trusted pieces in place of their placeholders (see the top). */
export function putTrustedBack(html: string, state: RenderState): string {
  const t = state.trusted;
  if (!t || t.html.length === 0) return html;
  return html.replace(new RegExp(`hearth(?:math|code)${t.nonce}n(\\d+)e`, 'g'), (_, i: string, at: number) =>
    html.lastIndexOf('<', at) > html.lastIndexOf('>', at) ? '' : (t.html[Number(i)] ?? ''),
  );
}
