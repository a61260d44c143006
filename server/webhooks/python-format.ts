/**
 * How Python shows values where Zulip's integrations put payload values into a message with
 * `str()` or `format()`, and Zulip's global time (`<time:…>`, its datetime_to_global_time).
 */
import { Wild } from './wild.js';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Python's repr of a float given as a JS number: the shortest round-trip digits, in fixed
 * notation for exponents -4 to 15 and scientific (`1e-05`, `1.5e+16`) outside them.
 */
function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const [mantissa, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp >= -4 && exp < 16) {
    // JS writes fixed notation for exponents -6 to 20, so the whole Python range.
    const text = String(x);
    return text.includes('.') ? text : `${text}.0`;
  }
  const sign = exp < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/**
 * Python's `str(n)` for a JSON number. JSON's integers are Python ints (all digits); a number
 * written with a fraction or exponent but whole (`1.0`, `1e16`) cannot be told apart after
 * parsing and shows as an int.
 */
export function pyNumber(x: number): string {
  if (Number.isInteger(x)) return BigInt(x).toString();
  return floatRepr(x);
}

/** Python's repr of a string: single quotes unless it holds one and no double quote. */
function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return quote + out + quote;
}

function pyRepr(x: unknown): string {
  return typeof x === 'string' ? strRepr(x) : pyStr(x);
}

/** Python's `str()` of a parsed JSON value (dicts and lists as their repr). */
export function pyStr(x: unknown): string {
  if (x === null || x === undefined) return 'None';
  if (x === true) return 'True';
  if (x === false) return 'False';
  if (typeof x === 'number') return pyNumber(x);
  if (typeof x === 'string') return x;
  if (Array.isArray(x)) return `[${x.map(pyRepr).join(', ')}]`;
  if (isObject(x)) return `{${Object.entries(x).map(([k, v]) => `${strRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  return String(x);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:\.\d+)?)?)?)?$/i;

/**
 * Zulip's get_global_time: Python's datetime.fromisoformat, then `<time:…>` with the time to the
 * second and the offset as given (`Z` is `+00:00`; a time without an offset is taken as UTC).
 * Not an ISO 8601 time: the field is invalid.
 */
export function isoGlobalTime(w: Wild): string {
  const s = w.str();
  const m = ISO.exec(s);
  if (!m) throw Wild.invalid(`Invalid ${w.name}`);
  const [, y, mo, d, h = '00', mi = '00', sec = '00', zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) {
    throw Wild.invalid(`Invalid ${w.name}`);
  }
  let offset = '+00:00';
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(/:/g, '');
    offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
    if (digits.length > 4) offset += `:${digits.slice(4, 6)}`;
    if (offset.slice(1) === '00:00' || offset.slice(1) === '00:00:00') offset = '+00:00';
  }
  return `<time:${y}-${mo}-${d}T${h}:${mi}:${sec}${offset}>`;
}
