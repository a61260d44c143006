/**
 * The allow-list of sanitize-lists.ts, enforced with js-xss (the `xss`
 * package): a streaming filter that rewrites only tags and attributes, so it
 * keeps the renderer's HTML byte for byte when nothing is wrong.
 */
import xss, { FilterXSS } from 'xss';
import { escapeHtml } from '../protocol/html.js';
import { ALLOWED_ATTRIBUTES, ALLOWED_CLASSES, ALLOWED_TAGS } from './sanitize-lists.js';
import { safeHref } from './urls.js';

/** `&quot;` and numeric entities decoded, invisible characters removed (typed here: the package's types miss it). */
const xssFriendly = (xss as unknown as { friendlyAttrValue(v: string): string }).friendlyAttrValue;
const NAMED: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };
/**
 * The attribute's value as the browser reads it: js-xss's clean-up, then the `&amp;`, `&lt;`, `&gt;`
 * it leaves, in one pass (the value is escaped again on the way out, so leaving them would write
 * `&amp;amp;`: a link to `?a=1&b=2` went to `?a=1&amp;b=2`). Values with no entity and no control
 * character are already friendly.
 */
export const friendlyAttrValue = (v: string): string =>
  /[&\u0000-\u001f\u007f]/.test(v) ? xssFriendly(v).replace(/&(?:amp|lt|gt);/g, (e) => NAMED[e]!) : v;

const allowList: Record<string, string[]> = {};
for (const tag of ALLOWED_TAGS) allowList[tag] = ALLOWED_ATTRIBUTES[tag] ?? [];

const classAllowed = (tag: string, cls: string): boolean => {
  const allowed = ALLOWED_CLASSES[tag];
  if (!allowed) return false;
  return allowed.includes(cls) || (cls.startsWith('emoji-') && allowed.includes('emoji-*') && /^emoji-[0-9a-f-]+$/.test(cls));
};

/** Numeric attributes hold digits only (or `*` for wildcard mentions). */
const NUMERIC: ReadonlySet<string> = new Set(['data-user-id', 'data-user-group-id', 'data-stream-id', 'start']);

function attrValue(tag: string, name: string, value: string): string | undefined {
  if (name === 'href' || name === 'src') return safeHref(friendlyAttrValue(value));
  if (name === 'class') {
    const kept = value.split(/\s+/).filter((c) => c && classAllowed(tag, c));
    return kept.length ? kept.join(' ') : undefined;
  }
  if (NUMERIC.has(name)) return /^(\d{1,10}|\*)$/.test(value) ? value : undefined;
  if (name === 'align') return /^(left|right|center)$/.test(value) ? value : undefined;
  if (name === 'aria-hidden') return value === 'true' ? value : undefined;
  if (name === 'role') return value === 'img' ? value : undefined;
  if (name === 'datetime') return /^[0-9T:.+-]+Z?$/.test(value) ? value : undefined;
  if (name === 'data-original-dimensions') return /^\d{1,6}x\d{1,6}$/.test(value) ? value : undefined;
  if (name === 'data-original-content-type') return /^image\/[a-z0-9][a-z0-9.+-]{0,60}$/.test(value) ? value : undefined;
  if (name === 'data-animated') return value === 'true' ? value : undefined;
  return friendlyAttrValue(value);
}

/** Text between tags: `<` and `>` escaped (the renderer's text never has them, so usually as is). */
const escapeText = (s: string) => (s.includes('<') || s.includes('>') ? s.replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);

const filter = new FilterXSS({
  escapeHtml: escapeText,
  whiteList: allowList,
  stripIgnoreTag: false,
  allowCommentTag: false,
  css: false,
  onTagAttr(tag: string, name: string, value: string) {
    if (!allowList[tag]?.includes(name)) return '';
    const v = attrValue(tag, name, value);
    return v === undefined ? '' : `${name}="${escapeHtml(v)}"`;
  },
});

/** `html` with everything outside the allow-list escaped or removed. */
export function sanitizeXss(html: string): string {
  return filter.process(html);
}
