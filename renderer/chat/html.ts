/**
 * Server HTML (rendered messages, channel descriptions) goes into the page only through
 * DOMPurify, even though the server sanitises too: links open in a new tab without the
 * opener, and nothing scriptable survives.
 */
import DOMPurify from 'dompurify';

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href') && !node.getAttribute('href')!.startsWith('#')) {
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
