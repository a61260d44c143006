import { errors } from '../errors.js';

/**
 * Validators for JSON-decoded parameter values, with Zulip's wording
 * (`x is not a boolean`, `x[0] is not an integer`, `key is missing from x`).
 * A validator returns the typed value or throws a HearthError.
 */
export type Validator<T> = (value: unknown, path: string) => T;

const bad = (msg: string) => errors.badRequest(msg);

export const v = {
  bool: ((x, p) => {
    if (typeof x !== 'boolean') throw bad(`${p} is not a boolean`);
    return x;
  }) as Validator<boolean>,

  int: ((x, p) => {
    if (typeof x !== 'number' || !Number.isSafeInteger(x)) throw bad(`${p} is not an integer`);
    return x;
  }) as Validator<number>,

  number: ((x, p) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw bad(`${p} is not a number`);
    return x;
  }) as Validator<number>,

  str: ((x, p) => {
    if (typeof x !== 'string') throw bad(`${p} is not a string`);
    return x;
  }) as Validator<string>,

  list<T>(item: Validator<T>, opts: { max?: number } = {}): Validator<T[]> {
    return (x, p) => {
      if (!Array.isArray(x)) throw bad(`${p} is not a list`);
      if (opts.max !== undefined && x.length > opts.max) throw bad(`${p} has too many items (at most ${opts.max})`);
      return x.map((el, i) => item(el, `${p}[${i}]`));
    };
  },

  /** A dict with required and optional keys; unknown keys are refused like Zulip's check_dict_only. */
  dict<R extends Record<string, unknown>, O extends Record<string, unknown> = Record<never, never>>(
    required: { [K in keyof R]: Validator<R[K]> },
    optional: { [K in keyof O]: Validator<O[K]> } = {} as { [K in keyof O]: Validator<O[K]> },
    opts: { allowExtra?: boolean } = {},
  ): Validator<R & Partial<O>> {
    return (x, p) => {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) throw bad(`${p} is not a dict`);
      const obj = x as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(required) as [string, Validator<unknown>][]) {
        if (!(k in obj)) throw bad(`${k} key is missing from ${p}`);
        out[k] = val(obj[k], `${p}["${k}"]`);
      }
      for (const [k, val] of Object.entries(optional) as [string, Validator<unknown>][]) {
        if (k in obj && obj[k] !== undefined) out[k] = val(obj[k], `${p}["${k}"]`);
      }
      if (!opts.allowExtra) {
        for (const k of Object.keys(obj)) {
          if (!(k in required) && !(k in optional)) throw bad(`Unexpected arguments: ${k}`);
        }
      }
      return out as R & Partial<O>;
    };
  },

  /** A dict of arbitrary keys whose values all pass `val`. */
  record<T>(val: Validator<T>): Validator<Record<string, T>> {
    return (x, p) => {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) throw bad(`${p} is not a dict`);
      const out: Record<string, T> = {};
      // defineProperty: a key `__proto__` is an own key like any other, not the object's prototype.
      for (const [k, el] of Object.entries(x)) Object.defineProperty(out, k, { value: val(el, `${p}["${k}"]`), enumerable: true, writable: true, configurable: true });
      return out;
    };
  },

  oneOf<T extends string | number>(choices: readonly T[]): Validator<T> {
    return (x, p) => {
      if (!choices.includes(x as T)) throw errors.invalidVar(p);
      return x as T;
    };
  },

  nullable<T>(val: Validator<T>): Validator<T | null> {
    return (x, p) => (x === null ? null : val(x, p));
  },
};
