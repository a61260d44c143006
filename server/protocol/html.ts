/** HTML escaping for text and attribute values, the one copy server and clients use. */
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => (/[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : s);
