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
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import clojure from 'highlight.js/lib/languages/clojure';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import dart from 'highlight.js/lib/languages/dart';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import elixir from 'highlight.js/lib/languages/elixir';
import erlang from 'highlight.js/lib/languages/erlang';
import go from 'highlight.js/lib/languages/go';
import graphql from 'highlight.js/lib/languages/graphql';
import haskell from 'highlight.js/lib/languages/haskell';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import julia from 'highlight.js/lib/languages/julia';
import kotlin from 'highlight.js/lib/languages/kotlin';
import latex from 'highlight.js/lib/languages/latex';
import less from 'highlight.js/lib/languages/less';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import nginx from 'highlight.js/lib/languages/nginx';
import objectivec from 'highlight.js/lib/languages/objectivec';
import ocaml from 'highlight.js/lib/languages/ocaml';
import perl from 'highlight.js/lib/languages/perl';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import protobuf from 'highlight.js/lib/languages/protobuf';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scala from 'highlight.js/lib/languages/scala';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { PYGMENTS_WORDS } from './pygments-words.js';

/**
 * Past these, a block is shown plain (a message holds at most 10,000 characters). Long lines, long
 * words and deep nesting are what make some grammars' regular expressions slow (C#'s declaration
 * pattern is cubic in a word's length; 3,000 nested `${` or `/*` make every step walk the stack): a
 * line past MAX_HIGHLIGHT_LINE_CHARS, a word past MAX_HIGHLIGHT_WORD_CHARS or modes nested past
 * MAX_HIGHLIGHT_DEPTH give plain text, and so does a block that takes longer than
 * HIGHLIGHT_BUDGET_MS (a safety net, checked at every token).
 */
export const MAX_HIGHLIGHT_CHARS = 20_000;
export const MAX_HIGHLIGHT_LINES = 1_000;
export const MAX_HIGHLIGHT_LINE_CHARS = 500;
export const MAX_HIGHLIGHT_WORD_CHARS = 100;
export const MAX_HIGHLIGHT_DEPTH = 24;
export const HIGHLIGHT_BUDGET_MS = 100;

type LanguageFn = Parameters<typeof hljs.registerLanguage>[1];

/** A class for a token's text, or pieces of it with their classes. */
type Classify = string | null | ((text: string, p: Profile) => string | [string, string][]);

/** How Pygments' lexer for one language classifies what highlight.js leaves bare, and its scopes. */
interface Profile {
  grammar: string;
  /** Whitespace between tokens: `w` in most of Pygments' lexers, bare ('') in some. */
  ws: string;
  /** A plain identifier (`n`; `nx` in JavaScript; bare in shells). */
  name: string;
  punct: string;
  op: string;
  /** Decimal integers: `mi`, or `mf` (JavaScript, where every number is a float). */
  int?: string;
  /** Scope → class overrides (`parent>scope` for a scope inside another). */
  scopes?: Record<string, Classify>;
  /** Bare words Pygments classifies (keywords highlight.js misses, builtin pseudo-variables). */
  words?: Record<string, string>;
  /** Identifier characters beyond \w. */
  ident?: RegExp;
  /** Strings take prefixes (`f`, `b`, `r`): `sa`. */
  prefixes?: boolean;
  /** Escapes inside strings are `se` (C, Python), not part of the string's span. */
  escapes?: boolean;
  /** Word → class of the dotted name after it (`^`: only when the word starts the line). */
  after?: Record<string, string>;
  /** The class of a name right after `.`. */
  afterDot?: string;
  /** Words Pygments follows with bare space (not `w`). */
  bareAfter?: string[];
  /** Classes of single characters, past `punct` and `op`. */
  chars?: Record<string, string>;
  /** Bare text split by the language itself (diff's context lines). */
  bare?: (text: string) => [string, string][];
  /** A bare word right before `=` is a variable (`nv`), as in shell assignments. */
  assignVar?: boolean;
  /** A triple-quoted string starting a line is `sd`. */
  docstrings?: boolean;
}

const numberClass = (t: string, p: Profile): string => {
  if (/^0[xX]/.test(t)) return 'mh';
  if (/^0[bB]/.test(t)) return 'mb';
  if (/^0[oO]/.test(t)) return 'mo';
  if (/^[-+]?(\d[\d_]*)?\.?\d[\d_]*[eE][-+]?\d+|^[-+]?\d[\d_]*\.\d*|^[-+]?\.\d/.test(t)) return 'mf';
  if (/^[-+]?\d[\d_]*$/.test(t)) return p.int ?? 'mi';
  return 'm';
};

const stringClass = (t: string): string => {
  const q = t.replace(/^[a-zA-Z]{1,2}(?=["'`])/, '').charAt(0);
  return q === '"' ? 's2' : q === "'" ? 's1' : q === '`' ? 'sb' : 's';
};

const commentClass = (t: string): string => {
  if (t.startsWith('#!')) return 'ch';
  if (t.startsWith('/*') || t.startsWith('(*') || t.startsWith('{-') || t.startsWith('<#')) return 'cm';
  if (t.startsWith('<!--')) return 'c';
  return 'c1';
};

/** `${` / `#{` / `{` and `}` of an interpolation are `si`; what is inside is code. */
const SUBST_EDGE = /^([$#]?\{)|(\})$/g;

const BASE: Record<string, Classify> = {
  keyword: 'k',
  built_in: 'nb',
  type: 'kt',
  literal: 'kc',
  number: numberClass,
  string: stringClass,
  comment: commentClass,
  doctag: null,
  meta: 'cp',
  'meta>keyword': 'cp',
  'meta>string': 'cpf',
  title: 'nf',
  'title.function': 'nf',
  'title.function.invoke': null,
  'title.class': 'nc',
  'title.class.inherited': null,
  params: null,
  function: null,
  class: null,
  property: null,
  attr: 'na',
  attribute: 'na',
  variable: 'nv',
  'variable.language': 'bp',
  'variable.constant': 'no',
  'template-variable': 'nv',
  symbol: 'ss',
  regexp: 'sr',
  'char.escape': 'se',
  tag: null,
  name: 'nt',
  'selector-tag': 'nt',
  'selector-class': 'nc',
  'selector-id': 'nn',
  'selector-attr': 'na',
  'selector-pseudo': 'nd',
  addition: 'gi',
  deletion: 'gd',
  section: 'gh',
  bullet: 'k',
  emphasis: 'ge',
  strong: 'gs',
  operator: 'o',
  punctuation: 'p',
  subst: null,
};

const C_PUNCT = '()[]{},.;';
const C_OP = '~!%^&*+=|?:<>/-';

const cLike = (grammar: string, extra: Partial<Profile> = {}): Profile => ({ grammar, ws: 'w', name: 'n', punct: C_PUNCT, op: C_OP, ...extra });

const JS: Profile = {
  grammar: 'javascript',
  ws: 'w',
  name: 'nx',
  punct: '{}()[];,.',
  op: '+-*/%=<>!&|^~?:',
  int: 'mf',
  scopes: { 'variable.language': null, 'title.class': 'nx', 'title.function': 'nx', attr: 'nx', 'variable.constant': 'nx' },
  words: { this: 'k', super: 'k' },
  ident: /[$]/,
};

/** Pygments' SQL lexer knows integers only: `10.5` is `10`, `.`, `5`. */
const sqlNumber = (t: string): [string, string][] => t.split(/(\.)/).map((part): [string, string] => [part === '.' ? 'p' : /^\d+$/.test(part) ? 'mi' : 'm', part]);
const SQL: Profile = { grammar: 'sql', ws: 'w', name: 'n', punct: '(),.;:', op: '+-*/%=<>!|&^~', scopes: { type: 'k', built_in: 'k', literal: 'k', string: 's1', number: sqlNumber } };
const HTML: Profile = {
  grammar: 'xml', ws: '', name: '', punct: '<>/', op: '=',
  scopes: { name: 'nt', attr: 'na', string: 's', meta: 'cp', 'meta>keyword': 'cp', 'meta>string': 'cp', comment: 'cm', symbol: 'ni' },
};
const XML: Profile = {
  ...HTML, ws: 'w', punct: '', op: '', chars: { '<': 'nt', '>': 'nt', '/': 'nt', '=': 'na' },
};
/** YAML: Pygments calls every plain scalar (words, numbers, `true`) `l l-Scalar l-Scalar-Plain`. */
const YAML_PLAIN = 'l l-Scalar l-Scalar-Plain';
const yamlKey = (t: string): string | [string, string][] => (t.endsWith(':') ? [['nt', t.slice(0, -1)], ['p', ':']] : 'nt');
const cssPrefixed = (cls: string) => (t: string): [string, string][] => {
  const m = /^([.#@]|::?)([\s\S]*)$/.exec(t);
  return m ? [['p', m[1]!], [cls, m[2]!]] : [[cls, t]];
};
const cssNumber = (t: string): [string, string][] => {
  if (t.startsWith('#')) return [['mh', t]];
  const m = /^([-+]?[\d.]+)([a-zA-Z%]*)$/.exec(t);
  return m ? [[m[1]!.includes('.') ? 'mf' : 'mi', m[1]!], ['kt', m[2]!]] : [['m', t]];
};
const CSS: Profile = {
  grammar: 'css', ws: 'w', name: 'kc', punct: '{}();,:', op: '>+~*',
  scopes: {
    attribute: 'k', keyword: 'k', meta: 'cp', built_in: 'nb', comment: 'c', number: cssNumber,
    'selector-class': cssPrefixed('nc'), 'selector-id': cssPrefixed('nn'), 'selector-pseudo': cssPrefixed('nd'), 'selector-attr': 'na',
  },
  ident: /[-]/,
};
const PY: Profile = {
  grammar: 'python',
  ws: '',
  name: 'n',
  punct: '()[]{}:,;',
  op: '-~+/*%=<>&^|.!@',
  prefixes: true,
  escapes: true,
  docstrings: true,
  scopes: { meta: 'nd', type: null, 'variable.language': null },
  words: { self: 'bp', cls: 'bp' },
  after: { import: '^nn', from: 'nn' },
};

const PROFILES: Record<string, Profile> = {
  Python: PY,
  'Python 2.x': PY,
  JavaScript: JS,
  JSX: JS,
  TypeScript: { ...JS, grammar: 'typescript' },
  Java: cLike('java', {
    scopes: { meta: 'nd', variable: null, 'title.class.inherited': null, string: 's' },
    words: { class: 'kd', interface: 'kd', enum: 'kd', record: 'kd' },
    after: { package: 'nn', import: 'nn' },
    afterDot: 'na',
    bareAfter: ['class', 'interface'],
  }),
  C: cLike('c', { scopes: { string: 's' }, escapes: true }),
  'C++': cLike('cpp', { scopes: { string: 's' }, escapes: true }),
  'Objective-C': cLike('objectivec', { scopes: { string: 's' }, escapes: true }),
  'C#': cLike('csharp', { scopes: { string: 's' } }),
  Go: cLike('go', { punct: '()[]{}.,;', op: '+-*/%&|^<>=!:~', scopes: { 'title.function': 'nx', title: 'nx', string: 's' }, name: 'nx' }),
  Rust: cLike('rust', {
    punct: '()[]{}.,;:', op: '!$%&*+-/<=>@^|~?',
    scopes: { string: 's', variable: null, built_in: (t) => (t.endsWith('!') ? 'fm' : 'nb') },
  }),
  Ruby: { grammar: 'ruby', ws: '', name: 'n', punct: '()[]{},.;', op: '+-*/%=<>!&|^~?:', scopes: { symbol: 'ss', 'variable.language': null } },
  PHP: cLike('php', { name: 'nx', scopes: { variable: 'nv', 'variable.language': 'nv', meta: 'cp' } }),
  Kotlin: cLike('kotlin', { punct: '()[]{}.,;:' }),
  Swift: cLike('swift', { punct: '()[]{},.;:' }),
  Bash: { grammar: 'bash', ws: 'w', name: '', punct: ';|&(){}', op: '=[]', int: 'm', assignVar: true, scopes: { variable: 'nv', meta: 'ch', 'title.function': 'nf', literal: 'kc' }, ident: /[-./*]/ },
  'Bash Session': { grammar: 'shell', ws: '', name: '', punct: '', op: '', scopes: { meta: 'gp' }, ident: /[-./*]/ },
  PowerShell: { grammar: 'powershell', ws: 'w', name: 'n', punct: '(){}[],;.', op: '+-*/%=<>!&|', scopes: { variable: 'nv' } },
  SQL,
  MySQL: SQL,
  'PostgreSQL SQL dialect': SQL,
  JSON: { grammar: 'json', ws: 'w', name: 'n', punct: '{}[],:', op: '', scopes: { attr: 'nt', literal: 'kc', keyword: 'kc', string: 's2' } },
  YAML: {
    grammar: 'yaml', ws: 'w', name: YAML_PLAIN, punct: '[]{},:', op: '',
    scopes: { attr: yamlKey, literal: YAML_PLAIN, number: YAML_PLAIN, string: (t) => (/^["']/.test(t) ? 's' : YAML_PLAIN), bullet: 'p p-Indicator', meta: 'cp' },
  },
  TOML: { grammar: 'ini', ws: 'w', name: 'n', punct: '[].,{}', op: '=', scopes: { section: 'k', attr: 'n', literal: 'kc' } },
  INI: { grammar: 'ini', ws: 'w', name: 'n', punct: '[]', op: '=', scopes: { section: 'k', attr: 'na', string: 's' } },
  HTML,
  XML,
  CSS,
  SCSS: { grammar: 'scss', ws: 'w', name: 'n', punct: '{}();,:', op: '>+~*', scopes: { attribute: 'k', number: 'mi', variable: 'nv' } },
  LessCss: { grammar: 'less', ws: 'w', name: 'n', punct: '{}();,:', op: '>+~*', scopes: { attribute: 'k', number: 'mi', variable: 'nv' } },
  Markdown: { grammar: 'markdown', ws: '', name: '', punct: '', op: '', scopes: { section: 'gh', bullet: 'k', code: 'sb', link: 'nv', string: 'nt', quote: 'ge' } },
  Diff: {
    grammar: 'diff', ws: '', name: '', punct: '', op: '',
    scopes: { meta: 'gu', comment: (t) => (t.startsWith('---') ? 'gd' : t.startsWith('+++') ? 'gi' : 'gh'), addition: 'gi', deletion: 'gd' },
    // A context line's leading space is `w`, the rest bare.
    bare: (t) => t.split(/^( )/m).map((part, i): [string, string] => [i % 2 ? 'w' : '', part]),
  },
  Docker: { grammar: 'dockerfile', ws: 'w', name: '', punct: '', op: '', scopes: { keyword: 'k', string: 's2' } },
  Makefile: { grammar: 'makefile', ws: 'w', name: '', punct: '():', op: '=', scopes: { section: 'nf', variable: 'nv', 'meta>keyword': 'k', meta: 'k' } },
  Lua: cLike('lua'),
  Perl: cLike('perl', { ws: '' }),
  S: cLike('r', { ws: '' }),
  Scala: cLike('scala'),
  Haskell: cLike('haskell', { ws: '' }),
  Elixir: cLike('elixir', { ws: '' }),
  Erlang: cLike('erlang', { ws: '' }),
  Clojure: cLike('clojure', { ws: '', punct: '()[]{}', op: '' }),
  Dart: cLike('dart'),
  Julia: cLike('julia'),
  'Nginx configuration file': { grammar: 'nginx', ws: '', name: '', punct: '{};', op: '', scopes: { attribute: 'k', section: 'k' } },
  GraphQL: cLike('graphql'),
  'Protocol Buffer': cLike('protobuf'),
  OCaml: cLike('ocaml', { ws: '' }),
  TeX: { grammar: 'latex', ws: '', name: '', punct: '', op: '', chars: { '{': 'nb', '}': 'nb' }, scopes: { keyword: 'k', built_in: 'k', 'title.function': 'k', function: 'k', symbol: 'nb', params: null, punctuation: 'nb' } },
};

/**
 * C#'s declaration pattern (`(Type\s+)+name\s*(<…>)?\(`) reaches across lines and any number of
 * words, so on lines of words with no `(` every step rescans the rest of the block (seconds on 10,000
 * characters): here it stays on one line, at most four words and a short generic list.
 */
const csharpBounded: LanguageFn = (api) => {
  const lang = csharp(api);
  for (const mode of lang.contains ?? []) {
    if (typeof mode !== 'object' || typeof mode.begin !== 'string' || !mode.begin.includes('\\s+)+')) continue;
    mode.begin = mode.begin.replace(/\\s/g, '[ \\t]').replace('[ \\t]+)+', '[ \\t]+){1,4}').replace('<[^=]+>', '<[^=\\n]{1,100}>');
  }
  return lang;
};

const GRAMMARS: Record<string, LanguageFn> = {
  bash, c, clojure, cpp, csharp: csharpBounded, css, dart, diff, dockerfile, elixir, erlang, go, graphql, haskell, ini, java, javascript,
  json, julia, kotlin, latex, less, lua, makefile, markdown, nginx, objectivec, ocaml, perl, php, powershell, protobuf, python,
  r, ruby, rust, scala, scss, shell, sql, swift, typescript, xml, yaml,
};

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

/** The tree builder with bounds: nesting depth, and a time budget checked at every step; no HTML. */
class BoundedEmitter extends TreeEmitterBase {
  private readonly deadline = performance.now() + HIGHLIGHT_BUDGET_MS;
  private tick(): void {
    if (this.stack.length > MAX_HIGHLIGHT_DEPTH) throw new OverBudget('too deep');
    if (performance.now() > this.deadline) throw new OverBudget('too slow');
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

/** What one piece of bare text (no scope that maps to a class) is, by the language's lexer. */
function lexBare(text: string, run: Run): void {
  const { p, out } = run;
  if (p.bare) return void out.push(...p.bare(text));
  const identExtra = p.ident ? p.ident.source.slice(1, -1) : '';
  const re = new RegExp(`(\\s+)|([A-Za-z_\\u00c0-\\uffff${identExtra}][\\w\\u00c0-\\uffff${identExtra}]*)|(\\d[\\w.]*)|([\\s\\S])`, 'gy');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1] !== undefined) out.push([p.ws, m[1]]);
    else if (m[2] !== undefined) out.push([wordClass(run, m[2]) ?? p.name, m[2]]);
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
    if (p.assignVar && cls === p.name && /^\w+$/.test(text) && tokens[i + 1]?.[1] === '=') tokens[i]![0] = 'nv';
    if (p.docstrings && /^s[12]$/.test(cls) && /^("""|\'\'\')/.test(text) && lineStart) tokens[i]![0] = 'sd';
    if (cls === 'cp' && /\s$/.test(text) && tokens[i + 1]?.[0] === 'cpf') {
      const trimmed = text.trimEnd();
      tokens.splice(i + 1, 0, [p.ws, text.slice(trimmed.length)]);
      tokens[i]![1] = trimmed;
    }
    if (text.includes('\n')) lineStart = /\n[ \t]*$/.test(text);
    else if (!/^[ \t]+$/.test(text)) lineStart = false;
  }
}

const escapeText = (s: string): string => (/[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);

/** Pygments' HTML formatter: runs of one class share a span; a span never crosses a line end. */
function format(tokens: [string, string][]): string {
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
    const result = hl.highlight(code, { language: p.grammar, ignoreIllegals: true });
    if ((result as { errorRaised?: unknown }).errorRaised) return undefined;
    const root = (result as unknown as { _emitter?: { rootNode?: Node } })._emitter?.rootNode;
    if (!root || !Array.isArray(root.children)) return undefined;
    const run: Run = { p, words: PYGMENTS_WORDS.get(language), out: [] };
    walk(root, [], run);
    refine(run.out, p);
    return format(run.out) + '\n';
  } catch {
    return undefined;
  }
}
