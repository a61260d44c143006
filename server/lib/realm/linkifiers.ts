/**
 * Linkifiers (Zulip's RealmFilter): an organization's patterns that turn
 * matching text in messages and topics into links, e.g. `#(?P<id>[0-9]+)` →
 * `https://tracker.example/issues/{id}`. Patterns are written as in Zulip
 * (Python-style named groups `(?P<name>…)`), compiled to JavaScript regular
 * expressions with Zulip's boundaries (a match starts at the start, after
 * whitespace or one of `'"(,:<`, and is not followed by a letter or digit);
 * URL templates are RFC 6570 (levels 1–3), every template variable a group of
 * the pattern and every group used by the template.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { safeHref } from '../../markdown/urls.js';
import type { LinkifierRecord } from '../../store/records.js';
import { tooSlow, unsupportedByRe2 } from './linkifier-safety.js';

export interface CompiledLinkifier {
  id: number;
  regex: RegExp;
  template: UrlTemplate;
}

/** One piece of linkified text: plain, or a link. */
export interface TextPiece {
  text: string;
  url?: string;
}

/** The list as the API shows it (GET /realm/linkifiers, register, events). */
export const linkifiersForApi = (app: App) =>
  (app.store.realm.data.realm?.linkifiers ?? []).map((l) => ({ pattern: l.pattern, url_template: l.url_template, id: l.id }));

// ---------- patterns

const NAMED_GROUP = /\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g;

/** The pattern's named groups, in order. */
export function patternGroups(pattern: string): string[] {
  return [...pattern.matchAll(NAMED_GROUP)].map((m) => m[1]!);
}

const toJs = (pattern: string) => pattern.replace(NAMED_GROUP, '(?<$1>');

/**
 * The pattern compiled with Zulip's boundaries (prepare_linkifier_pattern);
 * Unicode mode when the pattern allows it, else a Latin-only word boundary.
 * Throws Zulip's "Bad regular expression" error, also for what re2 (Zulip's
 * matcher) refuses and for a pattern whose matching time can explode
 * (linkifier-safety.ts).
 */
export function compilePattern(pattern: string, opts: { re2Only?: boolean } = {}): RegExp {
  const regex = compileWrapped(pattern, opts.re2Only ?? true);
  if (tooSlow(regex, pattern)) throw errors.badRequest('Bad regular expression: matching it can take too long on long or repetitive text');
  return regex;
}

function compileWrapped(pattern: string, re2Only: boolean): RegExp {
  if (!pattern.trim()) throw errors.badRequest('Bad regular expression: empty pattern');
  const unsupported = re2Only ? unsupportedByRe2(pattern) : null;
  if (unsupported) throw errors.badRequest(`Bad regular expression: ${unsupported}`);
  const source = toJs(pattern);
  // The pattern alone first: a clean error message, and nothing that closes the wrapper's group.
  try {
    new RegExp(source, 'u');
  } catch {
    try {
      new RegExp(source);
    } catch (err) {
      const msg = err instanceof Error ? err.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : 'invalid';
      throw errors.badRequest(`Bad regular expression: ${msg}`);
    }
  }
  try {
    return new RegExp(`(?<=^|[\\s\\u00a0'"(,:<])(?:${source})(?=$|[^\\p{L}\\p{N}])`, 'gu');
  } catch {
    try {
      return new RegExp(`(?<=^|[\\s\\u00a0'"(,:<])(?:${source})(?=$|[^0-9A-Za-z\\u00aa-\\uffff])`, 'g');
    } catch (err) {
      const msg = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : 'invalid';
      throw errors.badRequest(`Bad regular expression: ${msg}`);
    }
  }
}

// ---------- URL templates (RFC 6570, levels 1-3)

interface Expression {
  op: string;
  vars: { name: string; prefix?: number }[];
}
export type UrlTemplate = (string | Expression)[];

const OPS: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};
const VARSPEC = /^([A-Za-z0-9_]|%[0-9A-Fa-f]{2})(\.?([A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(:[1-9][0-9]{0,3}|\*)?$/;
// Literal characters RFC 6570 allows outside expressions.
const LITERAL = /^[^\s"'<>\\^`{|}\u0000-\u001f\u007f]*$/;

/** Parses a template; null when it is not a valid RFC 6570 template. */
export function parseUrlTemplate(template: string): UrlTemplate | null {
  const out: UrlTemplate = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const literal = template.slice(i, open < 0 ? undefined : open);
    if (literal.includes('}') || !LITERAL.test(literal)) return null;
    if (literal) out.push(literal);
    if (open < 0) break;
    const close = template.indexOf('}', open);
    if (close < 0) return null;
    let body = template.slice(open + 1, close);
    let op = '';
    if (body && '+#./;?&'.includes(body[0]!)) {
      op = body[0]!;
      body = body.slice(1);
    }
    if (!body) return null;
    const vars: Expression['vars'] = [];
    for (const spec of body.split(',')) {
      if (!VARSPEC.test(spec)) return null;
      const [name, mod] = spec.split(/(?=[:*])/);
      vars.push({ name: name!, ...(mod?.startsWith(':') ? { prefix: Number(mod.slice(1)) } : {}) });
    }
    out.push({ op, vars });
    i = close + 1;
  }
  return out;
}

export const templateVariables = (t: UrlTemplate): string[] =>
  t.flatMap((p) => (typeof p === 'string' ? [] : p.vars.map((v) => v.name)));

const RESERVED_OK = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

function encode(value: string, reserved: boolean): string {
  let out = '';
  for (const ch of value) {
    if (/[A-Za-z0-9\-._~]/.test(ch) || (reserved && RESERVED_OK.test(ch))) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function expandTemplate(t: UrlTemplate, values: Record<string, string | undefined>): string {
  let out = '';
  for (const part of t) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const op = OPS[part.op]!;
    const items: string[] = [];
    for (const v of part.vars) {
      let value = values[v.name];
      if (value === undefined) continue;
      if (v.prefix !== undefined) value = [...value].slice(0, v.prefix).join('');
      const enc = encode(value, op.reserved);
      items.push(op.named ? (enc ? `${v.name}=${enc}` : `${v.name}${op.ifEmpty}`) : enc);
    }
    if (items.length) out += op.first + items.join(op.sep);
  }
  return out;
}

// ---------- validation (Zulip's RealmFilter.clean)

export function checkLinkifier(pattern: string, urlTemplate: string): void {
  compilePattern(pattern);
  const template = parseUrlTemplate(urlTemplate);
  if (!template) throw errors.badRequest('Invalid URL template.');
  const groups = new Set(patternGroups(pattern));
  const vars = new Set(templateVariables(template));
  const missingInPattern = [...vars].filter((v) => !groups.has(v)).sort();
  if (missingInPattern.length) {
    throw errors.badRequest(`Group '${missingInPattern[0]}' in URL template is not present in linkifier pattern.`);
  }
  const missingInUrl = [...groups].filter((g) => !vars.has(g)).sort();
  if (missingInUrl.length) {
    throw errors.badRequest(`Group '${missingInUrl[0]}' in linkifier pattern is not present in URL template.`);
  }
  // Hearth renders only links to safe targets: a template must expand to one.
  const sample = expandTemplate(template, Object.fromEntries([...vars].map((v) => [v, '1'])));
  if (!safeHref(sample)) throw errors.badRequest('Invalid URL template.');
}

// ---------- matching

const compiledCache = new WeakMap<readonly LinkifierRecord[], CompiledLinkifier[]>();

/** The organization's linkifiers, compiled once per change of the list. */
export function compiledLinkifiers(app: App): CompiledLinkifier[] {
  const list = app.store.realm.data.realm?.linkifiers;
  if (!list?.length) return [];
  let compiled = compiledCache.get(list);
  if (!compiled) {
    compiled = [];
    for (const l of list) {
      const template = parseUrlTemplate(l.url_template);
      try {
        // A stored lookaround (allowed before patterns were held to re2's syntax) keeps working; a slow pattern does not.
        if (template) compiled.push({ id: l.id, regex: compilePattern(l.pattern, { re2Only: false }), template });
      } catch (err) {
        // Stored linkifiers were checked when saved; one that no longer passes (saved before a check
        // existed, or slow on this machine) is skipped rather than run.
        app.log.warn('linkifier skipped', { id: l.id, pattern: l.pattern, reason: err instanceof Error ? err.message : String(err) });
      }
    }
    compiledCache.set(list, compiled);
  }
  return compiled;
}

interface Match {
  start: number;
  end: number;
  url: string;
}

/** Longest text scanned for linkifier matches (a guard on pathological patterns). */
const MAX_SCAN = 20_000;

/** Matches of the linkifiers in order, each skipping what an earlier one took (as Zulip). */
function matchesIn(text: string, linkifiers: CompiledLinkifier[]): Match[] {
  const taken: Match[] = [];
  if (text.length > MAX_SCAN) return taken;
  for (const l of linkifiers) {
    l.regex.lastIndex = 0;
    for (let m = l.regex.exec(text); m; m = l.regex.exec(text)) {
      if (m[0] === '') {
        l.regex.lastIndex++;
        continue;
      }
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some((t) => start < t.end && end > t.start)) continue;
      const url = safeHref(expandTemplate(l.template, m.groups ?? {}));
      if (url) taken.push({ start, end, url });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

/** Text cut into plain pieces and linkified ones; one plain piece when nothing matches. */
export function linkifyText(text: string, linkifiers: CompiledLinkifier[]): TextPiece[] {
  const matches = linkifiers.length ? matchesIn(text, linkifiers) : [];
  if (!matches.length) return [{ text }];
  const out: TextPiece[] = [];
  let at = 0;
  for (const m of matches) {
    if (m.start > at) out.push({ text: text.slice(at, m.start) });
    out.push({ text: text.slice(m.start, m.end), url: m.url });
    at = m.end;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

const TOPIC_URL = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'"]/g;

/** Zulip's topic_links: linkifier matches and plain URLs in a topic, in order. */
export function topicLinks(topic: string, linkifiers: CompiledLinkifier[]): { text: string; url: string }[] {
  if (!linkifiers.length && !topic.includes('://')) return [];
  const matches = linkifiers.length ? matchesIn(topic, linkifiers) : [];
  TOPIC_URL.lastIndex = 0;
  for (let m = TOPIC_URL.exec(topic); m; m = TOPIC_URL.exec(topic)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!matches.some((t) => start < t.end && end > t.start) && safeHref(m[0])) matches.push({ start, end, url: m[0] });
  }
  return matches.sort((a, b) => a.start - b.start).map((m) => ({ text: topic.slice(m.start, m.end), url: m.url }));
}
