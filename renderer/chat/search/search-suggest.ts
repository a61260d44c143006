/**
 * Suggestions for the search box (Zulip's search typeahead, as the browser's own list): the query
 * so far with its last word completed into a filter (`chan` → `channel:`, `channel:gen` →
 * `channel:general`, `sender:` → `sender:me` and people's addresses, `is:`/`has:` their values).
 */
import { canonicalOperator } from './search-terms.js';
import { store } from '../store/state.js';

const FILTERS = ['channel:', 'topic:', 'sender:', 'sender:me', 'dm:', 'is:starred', 'is:unread', 'is:mentioned', 'is:dm', 'has:link', 'has:image', 'has:attachment', 'has:reaction'];
const IS = ['starred', 'unread', 'mentioned', 'dm', 'resolved', 'followed'];
const HAS = ['link', 'image', 'attachment', 'reaction'];
const MAX = 12;

/** The values an operator's operand may take, as the box would show them. */
function valuesOf(operator: string): string[] {
  switch (canonicalOperator(operator)) {
    case 'channel':
      return store.subscriptions.value.map((s) => s.name);
    case 'sender':
    case 'dm':
      return ['me', ...[...store.users.value.values()].filter((u) => u.is_active !== false).map((u) => u.email)];
    case 'is':
      return IS;
    case 'has':
      return HAS;
    default:
      return [];
  }
}

export function searchSuggestions(query: string): string[] {
  const m = /(^|\s)(-?)(\S+)$/.exec(query);
  if (!m) return [];
  const [, , minus, token] = m;
  const before = query.slice(0, query.length - minus!.length - token!.length);
  const lower = token!.toLowerCase();
  const colon = lower.indexOf(':');
  let done: string[];
  if (colon < 0) done = FILTERS.filter((f) => f.startsWith(lower) && f !== lower);
  else {
    const operator = lower.slice(0, colon);
    const typed = lower.slice(colon + 1).replace(/^"/, '');
    done = valuesOf(operator)
      .filter((value) => value.toLowerCase().startsWith(typed) && value.toLowerCase() !== typed)
      .map((value) => `${operator}:${/\s/.test(value) ? `"${value}"` : value}`);
  }
  return done.slice(0, MAX).map((s) => `${before}${minus}${s}`);
}
