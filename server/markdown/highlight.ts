/**
 * Code highlighting as Zulip's server writes it: Pygments' short token classes (`k`, `nf`, `s2`,
 * `c1`, `mi`, `o`, `p`, `n`, …) on `<span>`s inside `<code>`, one span per run of tokens of a
 * class, never across a line end. highlight.js finds the tokens; its scopes are mapped to
 * Pygments' classes, and the text between its scopes (names, operators, punctuation, spaces, which
 * highlight.js leaves bare and Pygments classifies) is split by a small lexer per language.
 * Only the grammars listed here are loaded. Work is bounded: code past MAX_HIGHLIGHT_CHARS or
 * MAX_HIGHLIGHT_LINES stays plain, and any failure of the highlighter gives plain text.
 */
import hljs from 'highlight.js/lib/core';
import { BASE, GRAMMARS, numberClass, PROFILES, SUBST_EDGE, type Classify, type Profile } from './highlight-languages.js';
import { PYGMENTS_WORDS } from './pygments-words.js';
import { PYGMENTS_CLASSES } from './sanitize-lists.js';

/**
 * Past these, a block is shown plain (a message holds at most 10,000 characters). Long lines, long
 * words and deep nesting are what make some grammars' regular expressions slow (C#'s declaration
 * pattern is cubic in a word's length; 3,000 nested `${` or `/*` make every step walk the stack): a
 * line past MAX_HIGHLIGHT_LINE_CHARS, a word past MAX_HIGHLIGHT_WORD_CHARS or modes nested past
 * MAX_HIGHLIGHT_DEPTH give plain text, and so does a block that takes longer than
 * HIGHLIGHT_BUDGET_MS of CPU time (a safety net, checked at every token).
 */
export const MAX_HIGHLIGHT_CHARS = 20_000;
export const MAX_HIGHLIGHT_LINES = 1_000;
export const MAX_HIGHLIGHT_LINE_CHARS = 500;
export const MAX_HIGHLIGHT_WORD_CHARS = 100;
export const MAX_HIGHLIGHT_DEPTH = 24;
export const HIGHLIGHT_BUDGET_MS = 100;

const LONG_WORD = new RegExp(`\\w{${MAX_HIGHLIGHT_WORD_CHARS + 1}}`);

/** One highlight.js instance of our own, with only the grammars above. */
const hl = hljs.newInstance();
for (const [name, fn] of Object.entries(GRAMMARS)) hl.registerLanguage(name, fn);

/** highlight.js's token tree builder, as its (unexported) class. */
interface TreeEmitter {
  stack: unknown[];
  rootNode: Node;
  addText(text: string): void;
  openNode(scope: string): void;
}
type EmitterClass = new (options: unknown) => TreeEmitter;
const TreeEmitterBase = (hl.highlight('', { language: 'python' }) as unknown as { _emitter: { constructor: EmitterClass } })._emitter.constructor;

/** Thrown inside highlight.js when a block goes past its bounds (highlight.js then returns `errorRaised`). */
class OverBudget extends Error {}

/** The tree builder with bounds: nesting depth, and a CPU time budget checked at every step; no HTML. */
class BoundedEmitter extends TreeEmitterBase {
  private readonly cpuStart = process.cpuUsage();
  private deadline = performance.now() + HIGHLIGHT_BUDGET_MS;
  private tick(): void {
    if (this.stack.length > MAX_HIGHLIGHT_DEPTH) throw new OverBudget('too deep');
    if (performance.now() <= this.deadline) return;
    // The clock ran past the budget; count only the CPU time this process used (a busy machine that
    // pauses the process must not turn an ordinary block plain), and go on while it is under.
    const used = process.cpuUsage(this.cpuStart);
    const ms = (used.user + used.system) / 1000;
    if (ms > HIGHLIGHT_BUDGET_MS) throw new OverBudget('too slow');
    this.deadline = performance.now() + (HIGHLIGHT_BUDGET_MS - ms);
  }
  override addText(text: string): void {
    this.tick();
    super.addText(text);
  }
  override openNode(scope: string): void {
    this.tick();
    super.openNode(scope);
  }
  toHTML(): string {
    return '';
  }
}
hl.configure({ __emitter: BoundedEmitter as never });

/** The Pygments lexers this module highlights, with the highlight.js grammar each uses. */
export const profileGrammars = (): Record<string, string> => Object.fromEntries(Object.entries(PROFILES).map(([name, p]) => [name, p.grammar]));

interface Node {
  scope?: string;
  children: (string | Node)[];
}

/** One highlighting run: the language's profile and its word table. */
interface Run {
  p: Profile;
  words: ReadonlyMap<string, string> | undefined;
  out: [string, string][];
}

const wordClass = (run: Run, word: string): string | undefined =>
  (run.p.words && Object.hasOwn(run.p.words, word) ? run.p.words[word] : undefined) ?? run.words?.get(word);

/** The bare-text lexer of a profile: spaces, identifiers, numbers, any other character. */
function bareRegExp(p: Profile): RegExp {
  const identExtra = p.ident ? p.ident.source.slice(1, -1) : '';
  return new RegExp(`(\\s+)|([A-Za-z_\\u00c0-\\uffff${identExtra}][\\w\\u00c0-\\uffff${identExtra}]*)|(\\d[\\w.]*)|([\\s\\S])`, 'gy');
}

/** What one piece of bare text (no scope that maps to a class) is, by the language's lexer. */
function lexBare(text: string, run: Run): void {
  const { p, out } = run;
  if (p.bare) return void out.push(...p.bare(text));
  const re = (p.bareRe ??= bareRegExp(p));
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1] !== undefined) out.push([p.ws, m[1]]);
    else if (m[2] !== undefined) out.push([wordClass(run, m[2]) ?? (p.constants && /^[A-Z]/.test(m[2]) ? 'no' : p.name), m[2]]);
    else if (m[3] !== undefined) out.push([p.name === '' && !/^\d+$/.test(m[3]) ? '' : numberClass(m[3], p), m[3]]);
    else {
      const ch = m[4]!;
      out.push([(p.chars && Object.hasOwn(p.chars, ch) ? p.chars[ch] : undefined) ?? (p.punct.includes(ch) ? 'p' : p.op.includes(ch) ? 'o' : ''), ch]);
    }
  }
}

/** Classes whose text keeps its spaces inside (strings, comments, generic lines, preprocessor lines). */
const keepsSpaces = (cls: string): boolean => /^(s|c|g|l$|cp)/.test(cls) && cls !== 'cpf';
/** Classes a word table may refine (keywords, built-ins, names). */
const refinable = (cls: string): boolean => /^(k|n|bp$)/.test(cls);

/** A stack entry: the scope, and the class it gives its text (undefined: none, look further out). */
interface Frame {
  scope: string;
  cls: string | undefined;
  /** Transparent: text directly inside is bare text even if an outer scope has a class. */
  bare: boolean;
}

function scopeClass(scope: string, parent: string | undefined, p: Profile): Classify | undefined {
  for (const key of parent ? [`${parent}>${scope}`, scope] : [scope]) {
    const own = p.scopes && Object.hasOwn(p.scopes, key) ? p.scopes[key] : undefined;
    const cls = own !== undefined ? own : Object.hasOwn(BASE, key) ? BASE[key] : undefined;
    if (cls !== undefined) return cls;
  }
  return undefined;
}

const nodeText = (node: Node): string => node.children.map((c) => (typeof c === 'string' ? c : nodeText(c))).join('');

function leaf(text: string, stack: Frame[], run: Run, first: boolean): void {
  const { p, out } = run;
  const top = stack[stack.length - 1];
  if (top?.scope === 'subst' && /^\$\w+$/.test(text)) return void out.push(['si', text]); // PHP's "…$name…"
  if (top?.scope === 'subst') {
    // `${x}`: the edges are `si`, the inside is code.
    let last = 0;
    for (const m of text.matchAll(SUBST_EDGE)) {
      if (m.index > last) lexBare(text.slice(last, m.index), run);
      out.push(['si', m[0]]);
      last = m.index + m[0].length;
    }
    if (last < text.length) lexBare(text.slice(last), run);
    return;
  }
  let cls: string | undefined;
  for (let i = stack.length - 1; i >= 0 && cls === undefined; i--) {
    if (stack[i]!.bare) break;
    cls = stack[i]!.cls;
  }
  if (cls === undefined) return lexBare(text, run);
  if (first && /^s[12b]?$/.test(cls) && p.prefixes) {
    // A string's prefix (`f"…"`, `b'…'`, `r"…"`) is `sa`, as in Pygments.
    const m = /^([a-zA-Z]{1,2})(?=["'])/.exec(text);
    if (m) {
      out.push(['sa', m[1]!]);
      text = text.slice(m[1]!.length);
    }
  }
  if (p.escapes && /^s[12]?$/.test(cls) && text.includes('\\')) {
    // Escapes inside a string (`\n`, `\x41`) are `se`, as Pygments marks them in C and Python.
    for (const part of text.split(/(\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|N\{[^}]*\}|[\s\S]))/)) if (part) out.push([/^\\/.test(part) ? 'se' : cls, part]);
    return;
  }
  if (keepsSpaces(cls)) return void out.push([cls, text]);
  for (const part of /\s/.test(text) ? text.split(/(\s+)/) : [text]) {
    if (!part) continue;
    if (/^\s/.test(part)) out.push([p.ws, part]);
    else out.push([(refinable(cls) && /^[\w$#@.:-]+$/.test(part) ? wordClass(run, part) : undefined) ?? cls, part]);
  }
}

function walk(node: Node, stack: Frame[], run: Run): void {
  const { p } = run;
  let pushed = false;
  if (node.scope !== undefined && !node.scope.startsWith('language:')) {
    const parent = stack[stack.length - 1]?.scope;
    const how = scopeClass(node.scope, parent, p);
    const got = typeof how === 'function' ? how(nodeText(node), p) : how ?? undefined;
    if (Array.isArray(got)) {
      // The classifier split the node's text itself (a selector's `.`, a unit after a number).
      for (const [c, t] of got) if (t) run.out.push([c, t]);
      return;
    }
    const cls = got;
    stack.push({ scope: node.scope, cls: typeof cls === 'string' ? cls : undefined, bare: how === null });
    pushed = true;
  }
  let first = true;
  for (const child of node.children) {
    if (typeof child === 'string') leaf(child, stack, run, first && pushed);
    else walk(child, stack, run);
    first = false;
  }
  if (pushed) stack.pop();
}

/** Context Pygments' lexers use that highlight.js does not: names after `import`, `.`, docstrings. */
function refine(tokens: [string, string][], p: Profile): void {
  let lineStart = true;
  let prevClass = '';
  for (let i = 0; i < tokens.length; i++) {
    const [cls, text] = tokens[i]!;
    if (p.after && refinable(cls) && Object.hasOwn(p.after, text)) {
      const rule = p.after[text]!;
      const atStart = rule.startsWith('^');
      if (!atStart || lineStart) {
        let j = i + 1;
        while (j < tokens.length && /^[ \t]+$/.test(tokens[j]![1])) j++;
        while (j < tokens.length && /^[\w.]+$/.test(tokens[j]![1]) && (refinable(tokens[j]![0]) || tokens[j]![1] === '.')) tokens[j++]![0] = rule.replace('^', '');
      }
    }
    if (p.afterDot && text !== '.' && /^n[^n]?$/.test(cls) && cls !== 'nn' && i > 0 && tokens[i - 1]![1] === '.') tokens[i]![0] = p.afterDot;
    if (p.bareAfter?.includes(text) && i + 1 < tokens.length && /^[ \t]+$/.test(tokens[i + 1]![1])) tokens[i + 1]![0] = '';
    if (p.assignVar && cls === p.name && /^\w+$/.test(text) && (lineStart || /^(k|nb)$/.test(prevClass))) {
      let j = i + 1;
      while (j < tokens.length && /^[ \t]+$/.test(tokens[j]![1])) j++;
      if (/^[:+?]?=$/.test(tokens.slice(j, j + 2).map((t) => t[1]).join('').replace(/^([:+?]?=).*$/, '$1'))) tokens[i]![0] = 'nv';
    }
    if (p.stringArgs?.includes(text) && cls === 'k' && lineStart) {
      // `FROM node:20 AS build`: up to the line's end, spaces `w`, `AS` a keyword, the rest one string.
      for (let j = i + 1; j < tokens.length && !tokens[j]![1].includes('\n'); j++) {
        const t = tokens[j]!;
        t[0] = /^[ \t]+$/.test(t[1]) ? p.ws : /^as$/i.test(t[1]) && text === 'FROM' ? 'k' : 's';
      }
    }
    if ((text === '&' || text === '|') && tokens[i + 1]?.[1] === text && cls !== 'o') tokens[i]![0] = tokens[i + 1]![0] = 'o';
    if (p.docstrings && /^s[12]$/.test(cls) && /^("""|''')/.test(text) && lineStart) tokens[i]![0] = 'sd';
    if (cls === 'cp' && /\s$/.test(text) && tokens[i + 1]?.[0] === 'cpf') {
      const trimmed = text.trimEnd();
      tokens.splice(i + 1, 0, [p.ws, text.slice(trimmed.length)]);
      tokens[i]![1] = trimmed;
    }
    if (text.includes('\n')) lineStart = /\n[ \t]*$/.test(text);
    else if (!/^[ \t]+$/.test(text)) lineStart = false;
    if (/\S/.test(text)) prevClass = tokens[i]![0];
  }
}

const escapeText = (s: string): string => (/[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);

/** The classes a span may carry: Pygments' (the sanitiser's list), and the compound ones of YAML. */
const TRUSTED_CLASSES: ReadonlySet<string> = new Set(PYGMENTS_CLASSES);
const trustedClass = (cls: string): boolean => TRUSTED_CLASSES.has(cls) || cls.split(' ').every((c) => TRUSTED_CLASSES.has(c));

/**
 * Pygments' HTML formatter: runs of one class share a span; a span never crosses a line end. What it
 * writes needs no sanitising (fences.ts puts it in after the sanitiser): text is escaped here, and a
 * class outside Pygments' list makes the whole block plain (undefined).
 */
function format(tokens: [string, string][]): string | undefined {
  let html = '';
  let open: string | null = null; // class of the span open on this line ('' none), null: line empty
  for (const [cls, text] of tokens) {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) {
        if (open) html += '</span>';
        html += '\n';
        open = null;
      }
      const part = lines[i]!;
      if (!part) continue;
      if (open !== cls) {
        if (open) html += '</span>';
        if (cls && !trustedClass(cls)) return undefined;
        if (cls) html += `<span class="${cls}">`;
        open = cls;
      }
      html += escapeText(part);
    }
  }
  if (open) html += '</span>';
  return html;
}

/**
 * The inside of `<code>` for `code` (trailing spaces and outer blank lines already gone) in
 * Pygments' lexer `language` (a name from PYGMENTS_LEXERS), or undefined when it is not one we
 * highlight, the code is too large, or the highlighter fails.
 */
export function highlightCode(code: string, language: string): string | undefined {
  const p = Object.hasOwn(PROFILES, language) ? PROFILES[language]! : undefined;
  if (!p || code.length > MAX_HIGHLIGHT_CHARS) return undefined;
  let lines = 1;
  let lineStart = 0;
  for (let i = code.indexOf('\n'); ; i = code.indexOf('\n', i + 1)) {
    if ((i < 0 ? code.length : i) - lineStart > MAX_HIGHLIGHT_LINE_CHARS) return undefined;
    if (i < 0) break;
    if (++lines > MAX_HIGHLIGHT_LINES) return undefined;
    lineStart = i + 1;
  }
  if (LONG_WORD.test(code)) return undefined;
  try {
    const tokens = p.session ? sessionTokens(code, p.session) : tokensOf(code, language);
    const html = tokens && format(tokens);
    return html === undefined ? undefined : html + '\n';
  } catch {
    return undefined;
  }
}

/** The classed tokens of `code` in a Pygments lexer, or undefined when highlight.js gave up. */
function tokensOf(code: string, language: string): [string, string][] | undefined {
  const p = PROFILES[language]!;
  const result = hl.highlight(code, { language: p.grammar, ignoreIllegals: true });
  if ((result as { errorRaised?: unknown }).errorRaised) return undefined;
  const root = (result as unknown as { _emitter?: { rootNode?: Node } })._emitter?.rootNode;
  if (!root || !Array.isArray(root.children)) return undefined;
  const run: Run = { p, words: PYGMENTS_WORDS.get(language), out: [] };
  walk(root, [], run);
  refine(run.out, p);
  return run.out;
}

/** A prompt as Pygments' shell sessions know it: `$ `, `# `, `user@host:~$ `, `(venv) $ `. */
const PROMPT = /^((?:\[[^\]\n]*\]|\(\S+\))?(?:|sh\S*?|\w+\S+[@:]\S+(?:\s+\S+)?)\s*[$#%]\s*)(.*)$/;

/** A shell session: a prompt is `gp` and its command is in `language`; other lines are output (`go`). */
function sessionTokens(code: string, language: string): [string, string][] | undefined {
  const out: [string, string][] = [];
  for (const [i, line] of code.split('\n').entries()) {
    if (i > 0) out.push(['', '\n']);
    const m = PROMPT.exec(line);
    if (!m) {
      if (line) out.push(['go', line]);
      continue;
    }
    out.push(['gp', m[1]!]);
    if (!m[2]) continue;
    const command = tokensOf(m[2], language);
    if (!command) return undefined;
    out.push(...command);
  }
  return out;
}
