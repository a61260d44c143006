/**
 * Rendering a message for storage: the Markdown renderer with the author's
 * render context (server/lib/messages/render-context.ts), plus the message bits the
 * store keeps (has link / image / attachment, /me).
 */
import type { App } from '../../context.js';
import { renderMessage, type RenderResult } from '../../markdown/index.js';
import { MSG_BIT } from '../../store/message-records.js';
import { renderContextFor } from './render-context.js';

export function renderForStorage(app: App, userId: number, content: string): RenderResult & { bits: number } {
  const result = renderMessage(content, renderContextFor(app, userId));
  let bits = 0;
  if (result.hasLink) bits |= MSG_BIT.has_link;
  if (result.hasImage) bits |= MSG_BIT.has_image;
  if (result.hasAttachment) bits |= MSG_BIT.has_attachment;
  if (result.isMeMessage) bits |= MSG_BIT.is_me_message;
  return { ...result, bits };
}
