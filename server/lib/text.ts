import { renderDescription, type RenderContext } from '../markdown/index.js';

/**
 * The HTML of a description (channel, channel folder, organization, profile
 * field): Zulip-flavoured Markdown without mentions, sanitised; '' when blank.
 * With `ctx` (`renderContextFor(app, authorId)`), `#**channel**` links resolve
 * as the author sees the channels; without it they stay text.
 */
export function renderPlainDescription(text: string, ctx?: RenderContext): string {
  return renderDescription(text, ctx);
}
