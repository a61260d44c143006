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
