/**
 * A parsed JSON payload read with Zulip's WildValue checks: every access names where it is
 * (`payload["blocks"][0]["type"]`), and a value of the wrong shape is a 400 with Zulip's wording
 * ("… is not a string", "… is missing", "Invalid …"), never an exception the envelope calls a 500.
 */
import { HearthError } from '../errors.js';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Django's URLValidator, in short: http(s) or ftp(s), a host that is a name with a dot, localhost or an address. */
export function isUrl(raw: string): boolean {
  if (/\s/.test(raw)) return false;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:', 'ftps:'].includes(u.protocol)) return false;
  const host = u.hostname;
  return host === 'localhost' || /^\[[0-9a-f:.]+\]$/i.test(host) || /^[^.]+(\.[^.]+)*\.[a-z\u00a1-\uffff-]{2,63}\.?$/i.test(host);
}

export class Wild {
  constructor(
    readonly name: string,
    readonly value: unknown,
  ) {}

  static invalid(msg: string): HearthError {
    return new HearthError(msg);
  }

  /** Whether the value is an object holding `key` (Python's `key in payload`). */
  has(key: string): boolean {
    return isObject(this.value) && Object.hasOwn(this.value, key);
  }

  /** A required key. */
  at(key: string): Wild {
    if (!isObject(this.value)) throw Wild.invalid(`${this.name} is not a dict`);
    if (!Object.hasOwn(this.value, key)) throw Wild.invalid(`${this.name}["${key}"] is missing`);
    return new Wild(`${this.name}["${key}"]`, this.value[key]);
  }

  /** An optional key whose value is truthy as Python counts it (`payload.get(key)`), else null. */
  get(key: string): Wild | null {
    if (!this.has(key)) return null;
    const w = this.at(key);
    return w.truthy() ? w : null;
  }

  truthy(): boolean {
    const x = this.value;
    if (x === null || x === undefined || x === false || x === 0 || x === '') return false;
    if (Array.isArray(x)) return x.length > 0;
    if (isObject(x)) return Object.keys(x).length > 0;
    return true;
  }

  str(): string {
    if (typeof this.value !== 'string') throw Wild.invalid(`${this.name} is not a string`);
    return this.value;
  }

  strIn(allowed: readonly string[]): string {
    const s = this.str();
    if (!allowed.includes(s)) throw Wild.invalid(`Invalid ${this.name}`);
    return s;
  }

  url(): string {
    const s = this.str();
    if (!isUrl(s)) throw Wild.invalid(`${this.name} is not a URL`);
    return s;
  }

  /** The string if it is a URL, else null (where Zulip leaves a broken link out). */
  urlOrNull(): string | null {
    return typeof this.value === 'string' && isUrl(this.value) ? this.value : null;
  }

  int(): number {
    if (typeof this.value !== 'number' || !Number.isInteger(this.value)) throw Wild.invalid(`${this.name} is not an integer`);
    return this.value;
  }

  list(): Wild[] {
    if (!Array.isArray(this.value)) throw Wild.invalid(`${this.name} is not a list`);
    return this.value.map((x, i) => new Wild(`${this.name}[${i}]`, x));
  }
}
