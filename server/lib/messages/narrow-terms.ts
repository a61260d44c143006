/**
 * The `narrow` parameter, read by one parser for every endpoint that takes one: a JSON list
 * of `{operator, operand, negated}` dicts or legacy `[operator, operand]` pairs, as terms
 * (resolved and matched by server/lib/messages/narrow.ts).
 *
 * GET /messages (and the endpoints sharing its parameter) take any JSON operand. POST
 * /register reads the stricter `register` syntax, with its own wording: pairs of exactly two
 * strings, dicts with no other keys. Its queue keeps the narrow as string pairs
 * (`pairsFromTerms`, a leading `-` meaning negated), which `termsFromPairs` reads back.
 *
 * Positive `search` terms are read as one and exact repeats of a term dropped (`simplified`).
 * Every endpoint refuses a narrow it could not run in bounded time (issue 36): longer than
 * MAX_NARROW_LENGTH characters or of more than MAX_NARROW_TERMS terms (400 BAD_REQUEST), or
 * searching more than MAX_SEARCH_WORDS distinct words in all or a word longer than
 * MAX_SEARCH_WORD_LENGTH (400 BAD_NARROW). Zulip has no such limits but PostgreSQL's (it drops
 * longer words from the query): its narrows are SQL, run apart from the web server.
 */
import { errors } from '../../errors.js';
import { v } from '../../params/validate.js';
import { MAX_SEARCH_WORD_LENGTH, MAX_SEARCH_WORDS, searchWords } from './search.js';

export interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

export type NarrowSyntax = 'messages' | 'register';

const anyOperand = (x: unknown) => x;
const registerDict = v.dict({ operator: v.str, operand: anyOperand }, { negated: v.bool });

function pairTerm(item: unknown[], p: string, syntax: NarrowSyntax): NarrowTerm {
  if (syntax === 'register') {
    if (item.length !== 2) throw errors.badRequest(`${p} must have exactly 2 elements`);
    return { operator: v.str(item[0], `${p}[0]`), operand: v.str(item[1], `${p}[1]`), negated: false };
  }
  if (item.length !== 2 || typeof item[0] !== 'string') throw errors.badRequest(`${p} is not a string pair`);
  return { operator: item[0], operand: item[1], negated: false };
}

function dictTerm(item: unknown, p: string, syntax: NarrowSyntax): NarrowTerm {
  if (syntax === 'register') {
    const d = registerDict(item, p);
    return { operator: d.operator, operand: d.operand, negated: d.negated === true };
  }
  if (typeof item !== 'object' || item === null) throw errors.badRequest(`${p} is not a dict`);
  const d = item as Record<string, unknown>;
  if (typeof d.operator !== 'string') throw errors.badRequest(`${p}["operator"] is not a string`);
  if (!('operand' in d)) throw errors.badRequest(`operand key is missing from ${p}`);
  if (d.negated !== undefined && typeof d.negated !== 'boolean') throw errors.badRequest(`${p}["negated"] is not a boolean`);
  return { operator: d.operator, operand: d.operand, negated: d.negated === true };
}

/** The longest `narrow` parameter read, in characters (a GET's whole header is at most 64 KiB anyway). */
export const MAX_NARROW_LENGTH = 65_536;
/** Terms in one narrow (each is one more test of every message a fetch scans). */
export const MAX_NARROW_TERMS = 30;

const isWordOperand = (x: unknown): x is string | number => typeof x === 'string' || typeof x === 'number';

/**
 * The terms as they are run: the positive `search` terms read as one, at the place of the first
 * (Zulip's add_narrow_conditions joins their operands: every word must match either way), and a
 * term repeated exactly kept once (`with` excepted: its repeats are an error of their own).
 */
function simplified(terms: NarrowTerm[]): NarrowTerm[] {
  const out: NarrowTerm[] = [];
  const seen = new Set<string>();
  let search: NarrowTerm | null = null;
  for (const t of terms) {
    if (t.operator === 'search' && !t.negated && isWordOperand(t.operand)) {
      if (search) {
        search.operand = `${String(search.operand)} ${String(t.operand)}`;
        continue;
      }
      search = { ...t };
      out.push(search);
      continue;
    }
    if (t.operator !== 'with') {
      const key = JSON.stringify([t.operator, t.operand, t.negated]);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(t);
  }
  return out;
}

/**
 * Refuses too many search words, counted over the `search` terms, negated or not, each term's
 * repeats once (each term is a test of its own), and any word too long to search.
 */
function checkSearchWords(terms: NarrowTerm[]): void {
  let n = 0;
  for (const t of terms) {
    if (t.operator !== 'search' || !isWordOperand(t.operand)) continue;
    const words = searchWords(String(t.operand));
    n += words.length;
    if (words.some((w) => w.length > MAX_SEARCH_WORD_LENGTH)) {
      throw errors.badNarrow(`search word too long (at most ${MAX_SEARCH_WORD_LENGTH} characters)`);
    }
  }
  if (n > MAX_SEARCH_WORDS) throw errors.badNarrow(`search has too many words (${n}; at most ${MAX_SEARCH_WORDS} distinct words in all)`);
}

/** Reads the `narrow` parameter (named `name` in error messages) in either form. */
export function parseNarrow(raw: string, name = 'narrow', syntax: NarrowSyntax = 'messages'): NarrowTerm[] {
  if (raw.length > MAX_NARROW_LENGTH) {
    throw errors.badRequest(`${name} is too long (at most ${MAX_NARROW_LENGTH} characters)`);
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw errors.badRequest(`${name} is not valid JSON`);
  }
  if (!Array.isArray(data)) throw errors.badRequest(`${name} is not a list`);
  if (data.length > MAX_NARROW_TERMS) throw errors.badRequest(`${name} has too many terms (at most ${MAX_NARROW_TERMS})`);
  const terms = simplified(
    data.map((item: unknown, i) => {
      const p = `${name}[${i}]`;
      return Array.isArray(item) ? pairTerm(item, p, syntax) : dictTerm(item, p, syntax);
    }),
  );
  checkSearchWords(terms);
  return terms;
}

/** A register queue's stored form: `[operator, operand]` strings, non-string operands as JSON. */
export const pairsFromTerms = (terms: NarrowTerm[]): string[][] =>
  terms.map((t) => [t.negated ? `-${t.operator}` : t.operator, typeof t.operand === 'string' ? t.operand : JSON.stringify(t.operand)]);

/** The terms of a register queue's stored narrow. */
export const termsFromPairs = (pairs: string[][]): NarrowTerm[] =>
  pairs.map(([op, operand]) => {
    const negated = op!.startsWith('-');
    return { operator: negated ? op!.slice(1) : op!, operand: operand!, negated };
  });
