/**
 * The Markdown renderer's view of the organization for one author: users
 * and user groups (mentions; deactivated ones are mentioned silently, as in
 * Zulip), and the channels the author can see (channel links). Lookups are lazy: the user-name index is built on
 * the first name lookup of a render, so plain messages cost nothing.
 */
import type { App } from '../../context.js';
import type { RenderContext, RenderUser } from '../../markdown/types.js';
import { channelByName, hasContentAccess } from '../channels/access.js';
import { activeEmojiByName, emojiImagePath } from '../emoji/custom.js';
import { compiledLinkifiers, linkifyText } from '../realm/linkifiers.js';
import { accessFilter } from '../people/people.js';
import { canReadMessage } from './access.js';
import type { UserRecord } from '../../store/records.js';
import { uploadPreview } from '../uploads/previews.js';

/** How many of a topic's first messages a topic link looks through for one its author can read. */
const TOPIC_WITH_SCAN = 1000;

export function renderContextFor(app: App, userId: number): RenderContext {
  const names: { index?: Map<string, UserRecord[]> } = {};
  const nameIndex = (): Map<string, UserRecord[]> => {
    if (names.index) return names.index;
    const index = new Map<string, UserRecord[]>();
    for (const u of app.store.users.all()) {
      const key = u.full_name.toLowerCase();
      const list = index.get(key);
      if (list) list.push(u);
      else index.set(key, [u]);
    }
    names.index = index;
    return index;
  };
  const access: { filter?: ((u: UserRecord) => boolean) | null } = {};
  const accessible = (u: UserRecord): boolean => {
    if (access.filter === undefined) access.filter = accessFilter(app, app.store.users.get(userId) ?? null);
    return access.filter === null || access.filter(u);
  };
  const linkifiers = compiledLinkifiers(app);
  const defaultCodeBlockLanguage = app.store.realm.data.realm?.settings.default_code_block_language;
  return {
    ...(defaultCodeBlockLanguage ? { defaultCodeBlockLanguage } : {}),
    ...(linkifiers.length
      ? {
          linkify: (text: string) => {
            const pieces = linkifyText(text, linkifiers);
            return pieces.length > 1 || pieces[0]?.url ? pieces : null;
          },
        }
      : {}),
    // A restricted guest mentions only people they may access: `@**|18**` or `@**Maya**` must not
    // name (or confirm) someone hidden from them, in a message or in a preview (/messages/render).
    usersByName: (name): RenderUser[] => (nameIndex().get(name.toLowerCase()) ?? []).filter(accessible),
    userById: (id) => {
      const u = app.store.users.get(id);
      return u && accessible(u) ? u : undefined;
    },
    groupByName: (name) => {
      const key = name.toLowerCase();
      const groups = app.store.groups.data.groups.filter((g) => g.name.toLowerCase() === key);
      return groups.find((g) => !g.deactivated) ?? groups[0];
    },
    channelByName: (name) => {
      const channel = channelByName(app, name);
      const viewer = app.store.users.get(userId);
      return channel && !channel.is_archived && viewer && hasContentAccess(app, viewer, channel) ? channel : undefined;
    },
    topicWith: (channelId, topic) => {
      const viewer = app.store.users.get(userId) ?? null;
      const ids = app.store.messages.topic(channelId, topic);
      // The first message the author can read; with protected history their first may be late (bounded).
      const n = Math.min(ids.length, TOPIC_WITH_SCAN);
      for (let i = 0; i < n; i++) {
        const m = app.store.messages.get(ids.at(i));
        if (m && canReadMessage(app, viewer, m)) return m.id;
      }
      return undefined;
    },
    uploadPreview: (href) => uploadPreview(app, href),
    realmEmoji: (name) => {
      const e = activeEmojiByName(app, name);
      return e && { id: String(e.id), name: e.name, source_url: emojiImagePath(app, e.file) };
    },
  };
}
