/**
 * Rendering of channel and channel-folder descriptions (Zulip's
 * render_stream_description / render_channel_folder_description): Markdown
 * without mentions, with `#**channel**` links resolved as the author sees
 * the channels.
 */
import type { App } from '../../context.js';
import { renderDescription } from '../../markdown/index.js';
import { renderContextFor } from '../messages/render-context.js';

export const renderChannelDescription = (app: App, text: string, authorId: number): string =>
  renderDescription(text, renderContextFor(app, authorId));
