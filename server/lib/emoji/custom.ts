/**
 * Custom emoji (Zulip's RealmEmoji, zerver/lib/emoji.py): names, who may add
 * and remove them, the API form, and the source that reactions, statuses and
 * the Markdown renderer resolve names through. Images live under
 * `<data dir>/emoji/` and are served at Zulip's path
 * `/user_avatars/<realm>/emoji/images/<file>`.
 */
import type { App } from '../../context.js';
import type { RealmEmoji } from '../../protocol/realm-emoji.js';
import { errors } from '../../errors.js';
import type { RealmEmojiRecord, UserRecord } from '../../store/records.js';
import { emojiByName } from './unicode.js';
import { isUserInGroupSetting, realmGroupSetting } from '../groups/groups.js';
import { isAdmin } from '../people/people.js';
import type { CustomEmojiSource } from './reaction.js';

/** Zulip's MAX_EMOJI_FILE_SIZE_MIB. */
export const MAX_EMOJI_BYTES = 5 * 1024 * 1024;
/** Zulip's RealmEmoji.name max_length. */
export const MAX_EMOJI_NAME_LENGTH = 60;

/** A custom emoji as the API shows it. */
export type RealmEmojiForApi = RealmEmoji;

export const emojiImagePath = (app: App, file: string) => `/user_avatars/${app.store.realm.data.realm?.id ?? 0}/emoji/images/${file}`;

export function emojiForApi(app: App, e: RealmEmojiRecord): RealmEmojiForApi {
  // still_url is for animated images (a still frame); Hearth keeps no image tools, so there is none.
  return { id: String(e.id), name: e.name, source_url: emojiImagePath(app, e.file), still_url: null, deactivated: e.deactivated, author_id: e.author_id };
}

/** Zulip's realm_emoji object: every custom emoji, deactivated too, keyed by ID. */
export function realmEmojiDict(app: App): Record<string, RealmEmojiForApi> {
  const out: Record<string, RealmEmojiForApi> = {};
  for (const e of app.store.emoji.data.emoji) out[String(e.id)] = emojiForApi(app, e);
  return out;
}

export const activeEmojiByName = (app: App, name: string): RealmEmojiRecord | undefined =>
  app.store.emoji.data.emoji.find((e) => e.name === name && !e.deactivated);

/** Zulip's upload_emoji name handling: trimmed, spaces to underscores, then check_valid_emoji_name. */
export function normaliseEmojiName(raw: string): string {
  const name = raw.trim().replace(/ /g, '_');
  if (!name) throw errors.badRequest('Emoji name is missing');
  if (name.length > MAX_EMOJI_NAME_LENGTH) {
    throw errors.badRequest(`Emoji name is too long (limit: ${MAX_EMOJI_NAME_LENGTH} characters)`);
  }
  if (/^[0-9a-z\-_]+$/.test(name)) {
    if (/[-_]$/.test(name)) throw errors.badRequest('Emoji names must end with either a letter or digit.');
    return name;
  }
  throw errors.badRequest('Emoji names must contain only lowercase alphanumeric characters, hyphen, and underscore.');
}

/** Zulip's check_add_realm_emoji permission: the can_add_custom_emoji_group setting; overriding a Unicode name needs an administrator. */
export function checkCanAddEmoji(app: App, user: UserRecord, name: string): void {
  if (user.is_bot || !isUserInGroupSetting(app, realmGroupSetting(app, 'can_add_custom_emoji_group'), user.id)) {
    throw errors.badRequest('Insufficient permission');
  }
  if (activeEmojiByName(app, name)) throw errors.badRequest('A custom emoji with this name already exists.');
  if ((emojiByName(name) || name === 'zulip') && !isAdmin(user)) {
    throw errors.badRequest('Only administrators can override default emoji.');
  }
}

/** Zulip's check_remove_custom_emoji: administrators, or the author while they may still add emoji. */
export function checkCanRemoveEmoji(app: App, user: UserRecord, emoji: RealmEmojiRecord): void {
  if (isAdmin(user)) return;
  const mayAdd = !user.is_bot && isUserInGroupSetting(app, realmGroupSetting(app, 'can_add_custom_emoji_group'), user.id);
  if (emoji.author_id === user.id && mayAdd) return;
  throw errors.badRequest('Must be an organization administrator or emoji author');
}

/** The organization's custom emoji as reactions, statuses and messages see them (`app.customEmoji`). */
export function customEmojiSource(app: () => App): CustomEmojiSource {
  return {
    activeByName: (name) => {
      const e = activeEmojiByName(app(), name);
      return e && { id: String(e.id), name: e.name, deactivated: false };
    },
    byId: (id) => {
      const e = app().store.emoji.data.emoji.find((x) => String(x.id) === id);
      return e && { id: String(e.id), name: e.name, deactivated: e.deactivated };
    },
  };
}
