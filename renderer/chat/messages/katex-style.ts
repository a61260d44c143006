/**
 * Math in messages (the server's KaTeX HTML, as Zulip sends it) through DOMPurify (html.ts).
 *
 * KaTeX places its boxes with inline `style` (heights, margins, vertical-align, top…). The page's
 * CSP has no 'unsafe-inline' for styles, so a `style` attribute in parsed HTML is refused (and
 * reported, even in DOMPurify's inert document), and html.ts forbids `style` everywhere. So before
 * DOMPurify parses the server's HTML, its ` style="` attributes are renamed `data-hearth-style`, inside
 * tags only (in that HTML `<` and `>` in text and in attribute values are always escaped, so a tag runs
 * from `<` to the next `>`; text may hold ` style="` as it is: code blocks with a language keep their
 * quotes, as Zulip's do); on an element inside a `.katex` span only, the declarations are checked one
 * by one against a small list (KaTeX's lengths as plain numbers in em or px within ±MAX_EM em, its colours as `#hex` or a colour name,
 * `position: relative`, a border style): the ones that pass are kept in `data-katex-style` and
 * set through the CSSOM (which CSP allows) when the element reaches the page; an element with any
 * other declaration gets none. A `data-katex-style` in the server's HTML is dropped. style.css
 * keeps what math draws inside its message box.
 *
 * MathML stays (KaTeX's `katex-mathml` copy, for screen readers and copying), including
 * `semantics` and `annotation` (the TeX source, text only), which DOMPurify leaves out by default;
 * `annotation-xml`, which can hold HTML, stays out.
 */
import type { DOMPurify } from 'dompurify';
import { once } from '../store/once.js';

/** The HTML with its ` style="` attributes renamed `data-hearth-style` (see the top). */
export const renameStyles = (html: string): string =>
  html.includes(' style="') ? html.replace(/<[^<>]*>/g, (tag) => (tag.includes(' style="') ? tag.replaceAll(' style="', ' data-hearth-style="') : tag)) : html;

/** Tags DOMPurify leaves out by default that KaTeX's MathML uses. */
export const KATEX_TAGS = ['semantics', 'annotation'];

/** No KaTeX length comes near this (sizes from TeX are capped at 25 em by the server). */
const MAX_EM = 100;
const LENGTH = /^-?(?:\d+(?:\.\d+)?|\.\d+)(em|px)?$/;
const LENGTH_PROPS: ReadonlySet<string> = new Set([
  'height', 'width', 'min-width', 'vertical-align', 'top', 'bottom', 'left', 'margin', 'margin-left', 'margin-right',
  'margin-top', 'padding-left', 'border-width', 'border-top-width', 'border-right-width', 'border-bottom-width',
  'stroke-width', 'text-shadow',
]);
const COLOR_PROPS: ReadonlySet<string> = new Set(['color', 'background-color', 'border-color']);
const COLOR = /^(?:#[0-9a-f]{3,8}|[a-z]{3,20})$/i;
const KEYWORDS: Readonly<Record<string, RegExp>> = {
  position: /^relative$/,
  'border-style': /^(?:solid|dashed|dotted)$/,
  'border-right-style': /^(?:solid|dashed|dotted)$/,
};

function lengthsOk(value: string): boolean {
  const parts = value.split(' ');
  if (parts.length > 4) return false;
  return parts.every((p) => {
    const m = LENGTH.exec(p);
    if (!m) return false;
    const n = Math.abs(parseFloat(p));
    return m[1] === 'px' ? n <= MAX_EM * 16 : n <= MAX_EM;
  });
}

/** KaTeX's `style` value rewritten from its checked declarations, or null if any one is not KaTeX's kind. */
export function katexStyle(style: string): string | null {
  const out: string[] = [];
  for (const decl of style.split(';')) {
    if (!decl.trim()) continue;
    const colon = decl.indexOf(':');
    if (colon < 0) return null;
    const prop = decl.slice(0, colon).trim().toLowerCase();
    const value = decl.slice(colon + 1).trim();
    const ok = LENGTH_PROPS.has(prop) ? lengthsOk(value) : COLOR_PROPS.has(prop) ? COLOR.test(value) : (KEYWORDS[prop]?.test(value) ?? false);
    if (!ok) return null;
    out.push(`${prop}:${value}`);
  }
  return out.length ? out.join(';') : null;
}

function applyTo(el: Element): void {
  const css = el.getAttribute('data-katex-style');
  if (!css || !(el instanceof HTMLElement || el instanceof SVGElement)) return;
  for (const decl of css.split(';')) {
    const colon = decl.indexOf(':');
    el.style.setProperty(decl.slice(0, colon), decl.slice(colon + 1));
  }
}

function applyUnder(root: Element): void {
  if (root.hasAttribute('data-katex-style')) applyTo(root);
  for (const el of root.querySelectorAll('[data-katex-style]')) applyTo(el);
}

/**
 * Each formula under `root` replaced by its TeX between `$$` (from the MathML's annotation), as
 * Zulip's web app does for the text of desktop notifications; the rest is left as it is.
 */
export function katexAsTex(root: ParentNode): void {
  for (const k of root.querySelectorAll('.katex')) {
    const tex = k.querySelector('annotation[encoding="application/x-tex"]')?.textContent;
    if (tex != null) (k.closest('.katex-display') ?? k).replaceWith(`$$${tex}$$`);
  }
}

/** From the first math on: styles set on math as it reaches the page (before it is painted). */
const watchPage = once((): void => {
  if (typeof MutationObserver === 'undefined' || typeof document === 'undefined') return;
  const observer = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) applyUnder(n as Element);
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
  applyUnder(document.documentElement);
});

/** DOMPurify hooks: KaTeX's checked styles kept aside as `data-katex-style` (see the top). */
export function installKatexStyles(purify: DOMPurify): void {
  let pending: { node: Element; css: string } | null = null;
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'data-katex-style') data.keepAttr = false;
    else if (data.attrName === 'data-hearth-style') {
      data.keepAttr = false;
      const css = node.closest('.katex') ? katexStyle(data.attrValue) : null;
      if (css) pending = { node, css };
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    const p = pending;
    pending = null;
    if (p?.node !== node) return;
    node.setAttribute('data-katex-style', p.css);
    watchPage();
  });
}
