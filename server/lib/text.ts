import { renderDescription } from '../markdown/index.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The HTML of a description (channel, channel folder, organization, profile
 * field): Zulip-flavoured Markdown without mentions, sanitised; '' when blank.
 */
export function renderPlainDescription(text: string): string {
  return renderDescription(text);
}
