/**
 * Zulip's search syntax, as its web app parses it (Filter.parse): `operator:operand` terms
 * (`channel:`, `topic:`, `sender:`, `dm:`, `has:`, `is:` …, operands in "quotes" when they
 * hold spaces), `-` before a term to negate it, and everything else as words and "quoted
 * phrases" for the `search` operator. Terms travel in the hash as Zulip's do:
 * `#narrow/channel/general/-sender/me/search/lunch`.
 */

export interface SearchTerm {
  operator: string;
  operand: string;
  negated: boolean;
}

/** Spellings Zulip still takes, and the name each stands for. */
const ALIASES: Record<string, string> = { stream: 'channel', streams: 'channels', subject: 'topic', 'pm-with': 'dm', from: 'sender' };

/** An operator's name as Zulip spells it now (`stream` → `channel`); others as given. */
export const canonicalOperator = (name: string): string => (Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name);

const OPERATORS = new Set(['channel', 'channels', 'topic', 'sender', 'dm', 'dm-including', 'has', 'is', 'mentions', 'near', 'id', 'with', 'search']);

/** The filters the search box understands, for the help list. */
export const SEARCH_HELP: [string, string][] = [
  ['channel:general', 'messages in a channel'],
  ['topic:lunch', 'messages in a topic ("quotes" for spaces)'],
  ['sender:me, sender:mel@example.com', 'messages sent by someone'],
  ['dm:mel@example.com', 'a direct conversation'],
  ['has:link, has:attachment, has:image', 'messages with links, files or images'],
  ['is:starred, is:mentioned, is:unread', 'starred, mentioning you, unread'],
  ['-topic:lunch', 'leave out what a filter matches'],
  ['pizza "extra cheese"', 'words and exact phrases'],
];

const unquote = (s: string) => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s.replace(/^"|"$/g, ''));

/** The terms a query names; words and phrases come last, as one `search` term (negated words each their own). */
export function parseSearch(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const words: string[] = [];
  // A token: an optional `-op:` prefix, then a quoted run or anything up to the next space.
  const re = /(-?[A-Za-z][\w-]*:)?("[^"]*"?|\S+)/g;
  for (const [, prefix, rest] of query.matchAll(re)) {
    if (prefix) {
      const negated = prefix.startsWith('-');
      const name = prefix.slice(negated ? 1 : 0, -1).toLowerCase();
      const operator = canonicalOperator(name);
      if (OPERATORS.has(operator)) {
        const operand = unquote(rest!).trim();
        if (operand || operator === 'topic') {
          terms.push({ operator, operand, negated });
          continue;
        }
      }
      words.push(`${prefix}${rest}`);
      continue;
    }
    const token = rest!;
    if (token.startsWith('-') && token.length > 1 && !token.startsWith('-"')) terms.push({ operator: 'search', operand: token.slice(1), negated: true });
    else if (token !== '-') words.push(token);
  }
  const text = words.join(' ').trim();
  if (text) terms.push({ operator: 'search', operand: text, negated: false });
  return terms;
}

const quote = (s: string) => (s === '' || /[\s"]/.test(s) ? `"${s.replace(/"/g, '')}"` : s);

/** The query text for some terms (what the search box shows for a search view). */
export function unparseSearch(terms: SearchTerm[]): string {
  return terms
    .map((t) => (t.operator === 'search' ? `${t.negated ? '-' : ''}${t.operand}` : `${t.negated ? '-' : ''}${t.operator}:${quote(t.operand)}`))
    .join(' ');
}

/** `channel/general/-sender/me/search/lunch%20plans` (after `#narrow/`). */
export const termsToPath = (terms: SearchTerm[]) =>
  terms.map((t) => `${t.negated ? '-' : ''}${encodeURIComponent(t.operator)}/${encodeURIComponent(t.operand)}`).join('/');

/** The terms of a hash path, or null when it is not a list of `operator/operand` pairs. */
export function termsFromPath(path: string): SearchTerm[] | null {
  const parts = path.split('/');
  if (parts.length < 2 || parts.length % 2) return null;
  const terms: SearchTerm[] = [];
  try {
    for (let i = 0; i < parts.length; i += 2) {
      const raw = decodeURIComponent(parts[i]!);
      const negated = raw.startsWith('-');
      const operator = canonicalOperator(raw.slice(negated ? 1 : 0));
      if (!OPERATORS.has(operator)) return null;
      terms.push({ operator, operand: decodeURIComponent(parts[i + 1]!), negated });
    }
  } catch {
    return null;
  }
  return terms;
}

/** The API narrow for search terms (channel names and emails go to the server as typed; it resolves them). */
export const searchNarrow = (terms: SearchTerm[]) => terms.map((t) => ({ operator: t.operator, operand: t.operand, negated: t.negated }));

/** Whether the narrow searches for words (the server then highlights them). */
export const hasWords = (terms: SearchTerm[]) => terms.some((t) => t.operator === 'search' && !t.negated);
