/**
 * Zulip's alert-word match (get_alert_word_automaton): case-insensitive, a word standing alone
 * between spaces or punctuation. The server flags messages `has_alert_word` with it, the web
 * client marks the words in them.
 */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A pattern matching any of `words` (longest first) where it stands alone: group 1 is what
 * precedes it (start of text or a separator), group 2 the word. Words are lower-cased: match
 * lower-cased text, or pass the `i` flag.
 */
export function alertWordPattern(words: readonly string[], flags: string): RegExp {
  const alternatives = words.map((w) => escapeRegExp(w.toLowerCase())).sort((a, b) => b.length - a.length);
  return new RegExp(`(^|[\\s'"(,:<])(${alternatives.join('|')})(?=$|[\\s'"),.:;?!>])`, flags);
}
