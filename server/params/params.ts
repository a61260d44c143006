import { errors } from '../errors.js';
import { v, type Validator } from './validate.js';

/**
 * How a top-level request parameter is read from its raw string: strings are
 * taken as they are, everything else is JSON-decoded and then validated.
 */
export interface ParamType<T> {
  read(raw: string, name: string): T;
}

export const decodeJson = (raw: string, name: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    throw errors.badRequest(`${name} is not valid JSON`);
  }
};

export const t = {
  string: { read: (raw: string) => raw } as ParamType<string>,
  json<T>(val: Validator<T>): ParamType<T> {
    return { read: (raw, name) => val(decodeJson(raw, name), name) };
  },
  bool: null as unknown as ParamType<boolean>,
  int: null as unknown as ParamType<number>,
};
t.bool = t.json(v.bool);
t.int = t.json(v.int);

/**
 * The request's parameters: the query string and the form body (urlencoded or
 * multipart) on every method, body first. Records which keys a view read, so
 * the response can list the rest in `ignored_parameters_unsupported`.
 */
export class Params {
  private readonly used = new Set<string>();

  constructor(private readonly raw: Map<string, string>) {}

  /**
   * The query string's parameters (`a=1&b=2`, as URLSearchParams reads it), then the body's over
   * them: the body wins, and a key given more than once counts with its last value.
   */
  static from(query: string, body: unknown): Params {
    const raw = new Map<string, string>();
    if (query) for (const [k, val] of new URLSearchParams(query)) raw.set(k, val);
    if (body && typeof body === 'object') {
      for (const [k, val] of Object.entries(body as Record<string, unknown>)) {
        const s = Array.isArray(val) ? val[val.length - 1] : val;
        if (typeof s === 'string') raw.set(k, s);
      }
    }
    return new Params(raw);
  }

  has(name: string): boolean {
    return this.raw.has(name);
  }

  /** An optional parameter: undefined when absent. */
  get<T>(name: string, type: ParamType<T>): T | undefined;
  get<T>(name: string, type: ParamType<T>, fallback: T): T;
  get<T>(name: string, type: ParamType<T>, fallback?: T): T | undefined {
    this.used.add(name);
    const raw = this.raw.get(name);
    if (raw === undefined) return fallback;
    return type.read(raw, name);
  }

  /** A required parameter: `Missing 'name' argument` when absent. */
  require<T>(name: string, type: ParamType<T>): T {
    this.used.add(name);
    const raw = this.raw.get(name);
    if (raw === undefined) throw errors.missing(name);
    return type.read(raw, name);
  }

  /** Marks a parameter as understood without reading it (deprecated, accepted no-ops). */
  accept(...names: string[]): void {
    for (const n of names) this.used.add(n);
  }

  /** Keys the request sent that no view read. */
  ignored(): string[] {
    return [...this.raw.keys()].filter((k) => !this.used.has(k)).sort();
  }
}
