import { escapeHtml } from '../lib/text.js';
import type { RenderContext, RenderResult } from './types.js';

export type { RenderContext, RenderResult } from './types.js';

/**
 * PLACEHOLDER until the Markdown work lands: escaped text in one paragraph.
 * Keep this signature: the messages area calls it.
 */
export function renderMessage(content: string, _ctx: RenderContext): RenderResult {
  return {
    html: `<p>${escapeHtml(content).replace(/\n/g, '<br>\n')}</p>`,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    channelWildcard: false,
    topicWildcard: false,
    isMeMessage: content.startsWith('/me '),
    uploadPaths: [],
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
  };
}
