/**
 * Emoji in reactions and statuses (Zulip's zerver/lib/emoji.py): Unicode
 * emoji by name through server/lib/emoji/unicode.ts, Zulip's one extra emoji
 * (`zulip`), and the organization's custom emoji through a source, the
 * server's `app.customEmoji` (server/lib/emoji/custom.ts); with the empty
 * source no custom emoji exist, so `realm_emoji` requests get Zulip's
 * "Invalid custom emoji." and unknown names "Emoji '...' does not exist".
 */
import { errors } from '../../errors.js';
import { emojiByName, emojiNameForCode } from './unicode.js';

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

export interface ResolvedEmoji {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
}

/** One custom emoji; `id` (a string of digits) is its `emoji_code`. */
export interface CustomEmoji {
  id: string;
  name: string;
  deactivated: boolean;
}

/** The organization's custom emoji: active ones by name, any (deactivated too) by ID. */
export interface CustomEmojiSource {
  activeByName(name: string): CustomEmoji | undefined;
  byId(id: string): CustomEmoji | undefined;
}

const NO_CUSTOM_EMOJI: CustomEmojiSource = { activeByName: () => undefined, byId: () => undefined };

/**
 * Zulip's get_emoji_data: the code and type a name stands for (an active
 * custom emoji wins, then `zulip`, then Unicode).
 */
export function emojiData(name: string, custom: CustomEmojiSource): { emoji_code: string; reaction_type: ReactionType } {
  const realm = custom.activeByName(name);
  if (realm) return { emoji_code: realm.id, reaction_type: 'realm_emoji' };
  if (name === 'zulip') return { emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' };
  const unicode = emojiByName(name);
  if (unicode) return { emoji_code: unicode.code, reaction_type: 'unicode_emoji' };
  throw errors.badRequest(`Emoji '${name}' does not exist`);
}

/** Zulip's check_emoji_request: whether this name, code and type make a valid new reaction. */
export function checkEmojiRequest(name: string, code: string, type: string, custom: CustomEmojiSource): ReactionType {
  if (type === 'realm_emoji') {
    const emoji = custom.byId(code);
    if (!emoji) throw errors.badRequest('Invalid custom emoji.');
    if (emoji.name !== name) throw errors.badRequest('Invalid custom emoji name.');
    if (emoji.deactivated) throw errors.badRequest('This custom emoji has been deactivated.');
    return type;
  }
  if (type === 'zulip_extra_emoji') {
    if (code !== 'zulip') throw errors.badRequest('Invalid emoji code.');
    if (name !== code) throw errors.badRequest('Invalid emoji name.');
    return type;
  }
  if (type === 'unicode_emoji') {
    if (emojiNameForCode(code) === undefined) throw errors.badRequest('Invalid emoji code.');
    if (emojiByName(name)?.code !== code) throw errors.badRequest('Invalid emoji name.');
    return type;
  }
  throw errors.badRequest('Invalid emoji type.');
}

/**
 * The code and type of a request that names an emoji and may give either:
 * the missing ones come from the name (Zulip's check_add_reaction and
 * update_user_status_backend), nothing is validated yet.
 */
export function requestedEmoji(
  name: string,
  code: string | undefined,
  type: string | undefined,
  custom: CustomEmojiSource,
): { emoji_name: string; emoji_code: string; reaction_type: string } {
  if (code !== undefined && type !== undefined) return { emoji_name: name, emoji_code: code, reaction_type: type };
  const data = emojiData(name, custom);
  return { emoji_name: name, emoji_code: code ?? data.emoji_code, reaction_type: type ?? data.reaction_type };
}

/** A named emoji, its missing code and type filled in from the name, validated. */
export function resolveReactionEmoji(
  name: string,
  code: string | undefined,
  type: string | undefined,
  custom: CustomEmojiSource = NO_CUSTOM_EMOJI,
): ResolvedEmoji {
  const r = requestedEmoji(name, code, type, custom);
  const kind = checkEmojiRequest(r.emoji_name, r.emoji_code, r.reaction_type, custom);
  return { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: kind };
}
