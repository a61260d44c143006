/**
 * Zulip's search syntax, as its web app parses it (Filter.parse): `operator:operand` terms
 * (`channel:`, `topic:`, `sender:`, `dm:`, `has:`, `is:` …, operands in "quotes" when they
 * hold spaces), `-` before a term to negate it, and everything else as words and "quoted
 * phrases" for the `search` operator. Terms travel in the hash as Zulip's do:
 * `#narrow/channel/general/-sender/me/search/lunch`.
 */
import { canonicalIn, SEARCH_OPERATOR_ALIASES } from '../../../server/protocol/narrow-operators.js';

export interface SearchTerm {
  operator: string;
  operand: string;
  negated: boolean;
}

/** An operator's name as Zulip spells it now (`stream` → `channel`, the server's aliases and the search box's `from`); others as given. */
export const canonicalOperator = (name: string): string => canonicalIn(SEARCH_OPERATOR_ALIASES, name);

const OPERATORS: ReadonlySet<string> = new Set(['channel', 'channels', 'topic', 'sender', 'dm', 'dm-including', 'has', 'is', 'in', 'mentions', 'near', 'id', 'with', 'search']);

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

const HASH_ESCAPES: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

/**
 * Zulip's encoding of a hash component (hash_util's encodeHashComponent): percent-encoding with `%`
 * written `.`, and `.`, `(`, `)` escaped (`.2E`, `.28`, `.29`), so a link survives chat clients
 * and mail programs that cut URLs at `%` or `)`. `'` and `!` are escaped too, as the server's links do.
 */
export const encodeHashComponent = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/[%().]/g, (c) => HASH_ESCAPES[c]!);

/**
 * A hash component decoded as Zulip decodes it (`.XX` is the byte XX, percent-escapes as well);
 * a component that is not in that form (`v1.2`, written by hand or by an older Hearth) is read as
 * plain percent-encoding, else as it stands.
 */
export function decodeHashComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\./g, '%'));
  } catch {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  }
}

/** `channel/general/-sender/me/search/lunch.20plans` (after `#narrow/`), encoded as Zulip encodes its links. */
export const termsToPath = (terms: SearchTerm[]) =>
  terms.map((t) => `${t.negated ? '-' : ''}${encodeHashComponent(t.operator)}/${encodeHashComponent(t.operand)}`).join('/');

/** Operators whose operand names people: in links, `6-Lucas-Moreau`, `6,7-group`, or (older) addresses. */
const PEOPLE_OPERATORS: ReadonlySet<string> = new Set(['dm', 'dm-including', 'sender', 'mentions']);
/** Zulip's older `group-pm-with` (the others: `canonicalOperator`). */
const LINK_ALIASES: Record<string, string> = { 'group-pm-with': 'dm-including' };

/**
 * The operand a link carries, as the API reads it: a channel's `ID-name` slug is its ID, people's
 * `IDs-name` slug their IDs (the ID wins over the name after it, as in Zulip's hash_parser: the name
 * may be old); other operands decoded.
 */
function linkOperand(operator: string, raw: string): string {
  const s = decodeHashComponent(raw);
  if (operator === 'channel') return /^(\d+)(?:-.*)?$/s.exec(s)?.[1] ?? s;
  if (PEOPLE_OPERATORS.has(operator)) return /^(\d+(?:,\d+)*)(?:-.*)?$/s.exec(s)?.[1] ?? s;
  return s;
}

/**
 * The terms of a `#narrow/` path, from this client or from Zulip's (`channel/3-general/topic/lunch.20plans`,
 * `stream/…`, `pm-with/6-name`, `dm/6,7-group`, `-sender/…`, `near/ID`), or null when it is not a list of
 * `operator/operand` pairs this client knows. A trailing `/` is ignored.
 */
export function termsFromPath(path: string): SearchTerm[] | null {
  const parts = path.split('/');
  if (parts.length % 2 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 2 || parts.length % 2) return null;
  const terms: SearchTerm[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const raw = decodeHashComponent(parts[i]!).toLowerCase();
    const negated = raw.startsWith('-');
    const name = raw.slice(negated ? 1 : 0);
    const operator = canonicalOperator(Object.hasOwn(LINK_ALIASES, name) ? LINK_ALIASES[name]! : name);
    if (!OPERATORS.has(operator)) return null;
    terms.push({ operator, operand: linkOperand(operator, parts[i + 1]!), negated });
  }
  return terms;
}

/** The API narrow for search terms (channel names and emails go to the server as typed; it resolves them). */
export const searchNarrow = (terms: SearchTerm[]) => terms.map((t) => ({ operator: t.operator, operand: t.operand, negated: t.negated }));

/** Whether the narrow searches for words (the server then highlights them). */
export const hasWords = (terms: SearchTerm[]) => terms.some((t) => t.operator === 'search' && !t.negated);
