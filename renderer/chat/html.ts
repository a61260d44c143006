/**
 * Server HTML (rendered messages, channel descriptions) goes into the page only through
 * DOMPurify, even though the server sanitises too: links out open in a new tab without the
 * opener, links into the chat in this one, and nothing scriptable survives.
 */
import DOMPurify from 'dompurify';

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

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  const href = node.tagName === 'A' ? node.getAttribute('href') : null;
  if (!href) return;
  // A link into the chat opens its view in this tab (router.ts reads Zulip's `#narrow/` forms).
  const hash = inAppHash(href);
  if (hash) {
    node.setAttribute('href', hash);
    node.removeAttribute('target');
  } else {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * Zulip renders Unicode emoji as `<span class="emoji emoji-1f389">:tada:</span>`, which its web app
 * draws from a sprite sheet; this client has none, so the span shows the emoji character itself
 * (the name stays in its title and aria-label).
 */
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
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

const clean = new Map<string, string>();

/** Sanitised HTML, remembered for the last few thousand distinct inputs (re-renders are frequent). */
export function sanitize(html: string): string {
  let out = clean.get(html);
  if (out === undefined) {
    out = DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'], FORBID_ATTR: ['style'] });
    if (clean.size > 5_000) clean.clear();
    clean.set(html, out);
  }
  return out;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * Zulip's `/me` messages ("/me waves" shows as "Mel waves", as its web app shows them): the sender's
 * name takes the place of `/me` in the first paragraph of the (sanitised) HTML.
 */
export function meMessage(html: string, name: string): string {
  const prefix = '<p>/me ';
  if (!html.startsWith(prefix)) return html;
  return `<p class="me-message"><span class="me-name">${escapeHtml(name)}</span> ${html.slice(prefix.length)}`;
}
