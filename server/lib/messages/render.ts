/**
 * Rendering a message for storage: the Markdown renderer with a context of
 * what the author can see. Uses server/lib/render-context.ts when it exists
 * (the Markdown area owns it); this minimal context stands in until then.
 */
import type { App } from '../../context.js';
import { renderMessage, type RenderContext, type RenderResult } from '../../markdown/index.js';
import { MSG_BIT } from '../../store/message-records.js';
import { channelByName, hasContentAccess } from '../channels.js';

export function messageRenderContext(app: App, userId: number): RenderContext {
  const users = () => app.store.users.all().filter((u) => u.is_active);
  return {
    usersByName: (name) => {
      const key = name.toLowerCase();
      return users().filter((u) => u.full_name.toLowerCase() === key);
    },
    userById: (id) => {
      const u = app.store.users.get(id);
      return u?.is_active ? u : undefined;
    },
    groupByName: (name) => {
      const key = name.toLowerCase();
      return app.store.groups.data.groups.find((g) => !g.deactivated && g.name.toLowerCase() === key);
    },
    channelByName: (name) => {
      const c = channelByName(app, name);
      const viewer = app.store.users.get(userId);
      return c && viewer && hasContentAccess(app, viewer, c) ? c : undefined;
    },
  };
}

export function renderForStorage(app: App, userId: number, content: string): RenderResult & { bits: number } {
  const result = renderMessage(content, messageRenderContext(app, userId));
  let bits = 0;
  if (result.hasLink) bits |= MSG_BIT.has_link;
  if (result.hasImage) bits |= MSG_BIT.has_image;
  if (result.hasAttachment) bits |= MSG_BIT.has_attachment;
  if (result.isMeMessage) bits |= MSG_BIT.is_me_message;
  return { ...result, bits };
}
