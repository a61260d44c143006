/**
 * Resolving the emoji of a reaction request (Zulip's emoji_name_to_emoji_code
 * and check_emoji_request): Unicode emoji by name through server/lib/emoji.ts,
 * Zulip's one extra emoji (`zulip`), and the organization's custom emoji when
 * a lookup for them is installed (`realmEmojiLookup`).
 */
import { errors } from '../errors.js';
import { emojiByName, emojiNameForCode } from './emoji.js';

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

export interface ResolvedEmoji {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
}

/** Active custom emoji by name (ID as `emoji_code`); the custom-emoji area provides it. */
export type RealmEmojiLookup = (name: string) => { id: string } | undefined;

const REACTION_TYPES = new Set<string>(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']);

/** The emoji of a request that names it, and optionally gives its code and type. */
export function resolveReactionEmoji(
  name: string,
  code: string | undefined,
  type: string | undefined,
  realmEmoji: RealmEmojiLookup = () => undefined,
): ResolvedEmoji {
  if (type !== undefined && !REACTION_TYPES.has(type)) throw errors.badRequest('Invalid emoji type.');
  if (code === undefined) {
    // Zulip: a custom emoji of that name wins, then the extra `zulip` emoji, then Unicode.
    const custom = realmEmoji(name);
    if (custom && (type === undefined || type === 'realm_emoji')) return { emoji_name: name, emoji_code: custom.id, reaction_type: 'realm_emoji' };
    if (name === 'zulip' && (type === undefined || type === 'zulip_extra_emoji')) {
      return { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' };
    }
    const unicode = emojiByName(name);
    if (unicode && (type === undefined || type === 'unicode_emoji')) {
      return { emoji_name: name, emoji_code: unicode.code, reaction_type: 'unicode_emoji' };
    }
    throw errors.badRequest(`Emoji '${name}' does not exist`);
  }
  const kind = (type ?? 'unicode_emoji') as ReactionType;
  if (kind === 'realm_emoji') {
    const custom = realmEmoji(name);
    if (!custom || custom.id !== code) throw errors.badRequest('Invalid custom emoji.');
    return { emoji_name: name, emoji_code: code, reaction_type: kind };
  }
  if (kind === 'zulip_extra_emoji') {
    if (code !== 'zulip' || name !== 'zulip') throw errors.badRequest('Invalid emoji code.');
    return { emoji_name: name, emoji_code: code, reaction_type: kind };
  }
  if (emojiNameForCode(code) === undefined) throw errors.badRequest('Invalid emoji code.');
  if (emojiByName(name)?.code !== code) throw errors.badRequest('Invalid emoji name.');
  return { emoji_name: name, emoji_code: code, reaction_type: kind };
}
