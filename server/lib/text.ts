import { renderDescription, type RenderContext } from '../markdown/index.js';

/** The one escapeHtml is server/protocol/html.ts (shared with the web client); kept here for older imports. */
export { escapeHtml } from '../protocol/html.js';

/**
 * The HTML of a description (channel, channel folder, organization, profile
 * field): Zulip-flavoured Markdown without mentions, sanitised; '' when blank.
 * With `ctx` (`renderContextFor(app, authorId)`), `#**channel**` links resolve
 * as the author sees the channels; without it they stay text.
 */
export function renderPlainDescription(text: string, ctx?: RenderContext): string {
  return renderDescription(text, ctx);
}
