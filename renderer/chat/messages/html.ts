/**
 * Server HTML (rendered messages, channel descriptions) goes into the page only through
 * DOMPurify, set up by the web app's one module for it (`../purify.ts`: links out open in a new
 * tab without the opener, nothing scriptable survives), with the chat's own hooks: links into the
 * chat open in this tab, emoji, image previews, spoilers, math.
 */
import DOMPurify from 'dompurify';
import type { DOMPurify as Purify } from 'dompurify';
import { createSanitizer, withoutInlineAttributes } from '../../purify.js';
import { escapeHtml } from '../../../server/protocol/html.js';
import { installKatexStyles, KATEX_TAGS, renameStyles } from './katex-style.js';

/**
 * The hash of a link to a view of this chat, or null: `#narrow/…`, the `/#narrow/…` the server writes
 * for channel, topic and message links, or this server's own address with a hash (pasted by someone).
 */
export function inAppHash(href: string): string | null {
  if (href.startsWith('#')) return href;
  let url: URL;
  try {
    url = new URL(href, location.href);
  } catch {
    return null;
  }
  const here = url.origin === location.origin && (url.pathname === '/' || url.pathname === location.pathname) && !url.search;
  return here && url.hash.length > 1 ? url.hash : null;
}

/**
 * Zulip renders Unicode emoji as `<span class="emoji emoji-1f389">:tada:</span>`, which its web app
 * draws from a sprite sheet; this client has none, so the span shows the emoji character itself
 * (the name stays in its title and aria-label).
 */
const emojiAndSpoilers = (purify: Purify) =>
  purify.addHook('afterSanitizeAttributes', (node) => {
    // A spoiler's header is a button for the keyboard and screen readers too (MessageItem.tsx opens it).
    if (node.tagName === 'DIV' && node.classList.contains('spoiler-header')) {
      node.setAttribute('role', 'button');
      node.setAttribute('tabindex', '0');
      node.setAttribute('aria-expanded', 'false');
      return;
    }
    if (node.tagName !== 'SPAN' || !node.classList.contains('emoji')) return;
    const code = [...node.classList].find((c) => /^emoji-[0-9a-f]+(?:-[0-9a-f]+)*$/.test(c));
    if (!code) return;
    try {
      node.textContent = String.fromCodePoint(...code.slice(6).split('-').map((h) => parseInt(h, 16)));
    } catch {
      // Not a code point: the name stays.
    }
  });

/** The largest an inline image preview is shown in the feed (`.rendered img` in style.css). */
const PREVIEW_BOX = { width: 400, height: 300 };

/** A spinner drawn in a box of the image's shape, for Zulip's loading placeholder (img-src allows data:). */
const spinner = (w: number, h: number) =>
  'data:image/svg+xml,' +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
      `<g transform="translate(${w / 2} ${h / 2})"><circle r="10" fill="none" stroke="#8a8a8a" stroke-opacity=".35" stroke-width="3"/>` +
      '<path d="M0-10a10 10 0 0 1 10 10" fill="none" stroke="#8a8a8a" stroke-width="3" stroke-linecap="round">' +
      '<animateTransform attributeName="transform" type="rotate" from="0" to="360" dur="0.9s" repeatCount="indefinite"/></path></g></svg>',
  );

/**
 * An uploaded image's preview (Zulip's `message_inline_image`): the server's thumbnail is the `src`
 * and the original's size is in `data-original-dimensions`, so the preview gets its shown size
 * before it loads (width and height; style.css keeps the ratio on narrow screens) and nothing jumps
 * when it arrives. While the thumbnail is being made (`image-loading-placeholder`) a spinner of that
 * size stands in; the server's rendering_only update then puts the thumbnail in. The link (the
 * original) is what the lightbox opens.
 */
const imagePreviews = (purify: Purify) =>
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'IMG') return;
    // Named by its link's title (the link's text, or the file's name), as screen readers need.
    const link = node.parentElement;
    const title = link?.tagName === 'A' && link.parentElement?.classList.contains('message_inline_image') ? (link.getAttribute('title') ?? '') : null;
    if (title !== null && !node.hasAttribute('alt')) node.setAttribute('alt', title || 'Image');
    const dims = /^(\d{1,6})x(\d{1,6})$/.exec(node.getAttribute('data-original-dimensions') ?? '');
    if (!dims) return;
    const [w0, h0] = [Number(dims[1]), Number(dims[2])];
    if (!w0 || !h0) return;
    const scale = Math.min(1, PREVIEW_BOX.width / w0, PREVIEW_BOX.height / h0);
    const w = Math.max(1, Math.round(w0 * scale));
    const h = Math.max(1, Math.round(h0 * scale));
    node.setAttribute('width', String(w));
    node.setAttribute('height', String(h));
    if (node.classList.contains('image-loading-placeholder')) {
      node.setAttribute('src', spinner(w, h));
      node.setAttribute('alt', `${title || 'Image'} (loading)`);
    }
  });

/**
 * The chat's sanitiser: links into the chat keep their hash; the emoji, image and spoiler hooks above;
 * math, KaTeX's checked inline styles and its MathML (katex-style.ts: its styles renamed before parsing).
 */
const sanitizer = createSanitizer(DOMPurify, {
  inAppHref: inAppHash,
  // KaTeX's styles kept under another name first; then any other style or on* attribute dropped before parsing
  // (Chromium reports each against the CSP even in an inert document; DOMPurify would drop them anyway).
  prepare: (html) => withoutInlineAttributes(renameStyles(html)),
  hooks: [emojiAndSpoilers, imagePreviews, installKatexStyles],
  config: { FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'], ADD_TAGS: KATEX_TAGS },
});

const clean = new Map<string, string>();

/** Sanitised HTML, remembered for the last few thousand distinct inputs (re-renders are frequent). */
export function sanitize(html: string): string {
  let out = clean.get(html);
  if (out === undefined) {
    out = sanitizer.toHtml(html);
    if (clean.size > 5_000) clean.clear();
    clean.set(html, out);
  }
  return out;
}


/**
 * Zulip's `/me` messages ("/me waves" shows as "Mel waves", as its web app shows them): the sender's
 * name takes the place of `/me` in the first paragraph of the (sanitised) HTML.
 */
export function meMessage(html: string, name: string): string {
  const prefix = '<p>/me ';
  if (!html.startsWith(prefix)) return html;
  return `<p class="me-message"><span class="me-name">${escapeHtml(name)}</span> ${html.slice(prefix.length)}`;
}

/**
 * Server HTML shown outside messages (the organization's description on the sign-in form, channel
 * folders' descriptions in the organization settings): sanitised as above, and images only from
 * this server (the page's CSP would refuse others anyway, as an error in the console).
 */
export function sanitizeOwnImages(html: string): string {
  const box = document.createElement('template');
  box.innerHTML = sanitize(html);
  for (const img of Array.from(box.content.querySelectorAll('img'))) {
    if (new URL(img.getAttribute('src') ?? '', location.href).origin !== location.origin) img.remove();
  }
  return box.innerHTML;
}
