import { renderDescription, type RenderContext } from '../markdown/index.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The HTML of a description (channel, channel folder, organization, profile
 * field): Zulip-flavoured Markdown without mentions, sanitised; '' when blank.
 * With `ctx` (`renderContextFor(app, authorId)`), `#**channel**` links resolve
 * as the author sees the channels; without it they stay text.
 */
export function renderPlainDescription(text: string, ctx?: RenderContext): string {
  return renderDescription(text, ctx);
}
