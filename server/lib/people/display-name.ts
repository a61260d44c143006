/**
 * Zulip's check_full_name, plus what a name must not hide: invisible characters (zero-width
 * spaces, word joiners, byte-order marks, soft hyphens, blank "filler" letters) and the
 * direction marks, embeddings, overrides and isolates that make a name read as something
 * else ("Maya" followed by U+202E and "toB" shows as "MayaBot"), and the system bots' names.
 */
import { errors } from '../../errors.js';
import { isReservedName } from './reserved.js';

const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];

/**
 * Removed everywhere: format characters that draw nothing (Unicode Cf), the blank letters
 * (Hangul fillers, braille blank, the Mongolian vowel separator) and marks that draw and spell
 * nothing (the combining grapheme joiner, Khmer's two inherent vowels Unicode deprecates). The
 * zero-width joiner and non-joiner are format characters too but spell real words and emoji
 * (Persian, Indic scripts, 👩‍💻): they stay between two visible characters and go elsewhere.
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is matched alone on purpose (U+034F and the Hangul fillers are invisible by themselves)
const INVISIBLE = /(?![\u200c\u200d])[\p{Cf}\u115f\u1160\u3164\uffa0\u2800\u180e\u034f\u17b4\u17b5]/gu;
const LOOSE_JOINERS = /^[\u200c\u200d]+|[\u200c\u200d]+$|(?<=[\s\u200c\u200d])[\u200c\u200d]+|[\u200c\u200d]+(?=[\s\u200c\u200d])/gu;

/** The name without invisible and direction-changing characters, spaces collapsed and trimmed. */
export function cleanDisplayName(raw: string): string {
  let name = raw.replace(INVISIBLE, '');
  // Joiners left at an edge or beside a space or another joiner join nothing.
  for (let prev = ''; prev !== name; ) {
    prev = name;
    name = name.replace(LOOSE_JOINERS, '');
  }
  return name.replace(/\s+/g, ' ').trim();
}

/**
 * A full name as stored: cleaned, 1–100 characters, printable, no `*` `` ` `` `\` `>` `"` `@`,
 * no `|123` ending (Zulip's check_full_name), and not a system bot's name.
 */
export function checkFullName(raw: string): string {
  const name = cleanDisplayName(raw);
  if (name.length > 100) throw errors.badRequest('Name too long!');
  if (name.length < 1) throw errors.badRequest('Name too short!');
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name) || NAME_INVALID_CHARS.some((c) => name.includes(c))) {
    throw errors.badRequest('Invalid characters in name!');
  }
  if (/\|\d+$/.test(raw.trim())) throw errors.badRequest('Invalid format!');
  if (isReservedName(name)) throw errors.badRequest(`The name '${name}' is reserved for a system bot.`);
  return name;
}
