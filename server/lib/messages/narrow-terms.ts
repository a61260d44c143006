/**
 * The `narrow` parameter, read by one parser for every endpoint that takes one: a JSON list
 * of `{operator, operand, negated}` dicts or legacy `[operator, operand]` pairs, as terms
 * (resolved and matched by server/lib/messages/narrow.ts).
 *
 * GET /messages (and the endpoints sharing its parameter) take any JSON operand. POST
 * /register reads the stricter `register` syntax, with its own wording: pairs of exactly two
 * strings, dicts with no other keys. Its queue keeps the narrow as string pairs
 * (`pairsFromTerms`, a leading `-` meaning negated), which `termsFromPairs` reads back.
 */
import { errors } from '../../errors.js';
import { v } from '../../params/validate.js';

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

/** Reads the `narrow` parameter (named `name` in error messages) in either form. */
export function parseNarrow(raw: string, name = 'narrow', syntax: NarrowSyntax = 'messages'): NarrowTerm[] {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw errors.badRequest(`${name} is not valid JSON`);
  }
  if (!Array.isArray(data)) throw errors.badRequest(`${name} is not a list`);
  return data.map((item: unknown, i) => {
    const p = `${name}[${i}]`;
    return Array.isArray(item) ? pairTerm(item, p, syntax) : dictTerm(item, p, syntax);
  });
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
