/**
 * Alert-word matching for the `has_alert_word` flag (Zulip's
 * get_alert_word_automaton / user_alert_words): case-insensitive, the word
 * standing alone between spaces or punctuation, in the message source.
 */
import { alertWordPattern } from '../../protocol/alert-words.js';

const cache = new Map<string, RegExp>();

function pattern(word: string): RegExp {
  let re = cache.get(word);
  if (!re) {
    re = alertWordPattern([word], 'u');
    if (cache.size > 10_000) cache.clear();
    cache.set(word, re);
  }
  return re;
}

export function containsAlertWord(content: string, words: readonly string[] | undefined): boolean {
  if (!words?.length) return false;
  const text = content.toLowerCase();
  return words.some((w) => pattern(w).test(text));
}
