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

export const sanitize = (html: string): string =>
  DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'], FORBID_ATTR: ['style'] });
