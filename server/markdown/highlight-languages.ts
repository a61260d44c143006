/**
 * The languages highlight.ts highlights: for each Pygments lexer (by its name), the highlight.js
 * grammar that finds its tokens and how that grammar's scopes and bare text map to Pygments' token
 * classes (its profile). Only the grammars imported here are loaded.
 */
import type hljs from 'highlight.js/lib/core';
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

export type LanguageFn = Parameters<typeof hljs.registerLanguage>[1];

/** A class for a token's text, or pieces of it with their classes. */
export type Classify = string | null | ((text: string, p: Profile) => string | [string, string][]);

/** How Pygments' lexer for one language classifies what highlight.js leaves bare, and its scopes. */
export interface Profile {
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
  /** A bare identifier with a capital first letter is a constant (`no`), as in Ruby. */
  constants?: boolean;
  /** A shell session: prompt lines are highlighted in this lexer, the others are output. */
  session?: string;
  /** Instructions whose arguments (to the end of the line) are one string `s` (Dockerfile). */
  stringArgs?: string[];
  /** The bare-text lexer, made on first use. */
  bareRe?: RegExp;
}

export const numberClass = (t: string, p: Profile): string => {
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
export const SUBST_EDGE = /^([$#]?\{)|(\})$/g;

export const BASE: Record<string, Classify> = {
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
  // Built-in classes highlight.js marks as class names where Pygments has them as built-ins.
  words: {
    this: 'k', super: 'k', constructor: 'kr', Error: 'ne', TypeError: 'ne', RangeError: 'ne', SyntaxError: 'ne',
    ...Object.fromEntries('Array Boolean Date Function Math Number Object RegExp String Promise Symbol JSON Map Set WeakMap WeakSet Reflect Proxy Intl BigInt ArrayBuffer Uint8Array'.split(' ').map((w) => [w, 'nb'])),
  },
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

/** A Makefile rule's line: the target `nf`, `:` `o`, the prerequisites `n` (dots and later spaces bare). */
const makeTarget = (t: string): string | [string, string][] => {
  const m = /^([^:\n]*)(::?)([^\n]*)$/.exec(t);
  if (!m) return 'nf';
  const pieces: [string, string][] = [['nf', m[1]!], ['o', m[2]!]];
  for (const part of m[3]!.split(/(\s+|\.)/)) if (part) pieces.push([/^\s/.test(part) ? (pieces.length === 2 ? 'w' : '') : part === '.' ? '' : 'n', part]);
  return pieces;
};
/** `$(NAME)`: the brackets `k`, the name bare; `$@`, `$^` bare. */
const makeVariable = (t: string): string | [string, string][] => {
  const m = /^(\$[({])([^)}]*)([)}])$/.exec(t);
  return m ? [['k', m[1]!], ['', m[2]!], ['k', m[3]!]] : '';
};

export const PROFILES: Record<string, Profile> = {
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
  Ruby: {
    grammar: 'ruby', ws: 'w', name: 'n', punct: '()[]{},;', op: '+-*/%=<>!&|^~?:.', constants: true,
    scopes: {
      symbol: 'ss', 'variable.language': null, 'title.class.inherited': 'no',
      variable: (t) => (t.startsWith('@@') ? 'vc' : t.startsWith('@') ? 'vi' : t.startsWith('$') ? 'vg' : 'nv'),
    },
    words: Object.fromEntries([
      ...'puts print p require lambda proc format sprintf gets rand sleep exit Integer Array String Float'.split(' ').map((w) => [w, 'nb']),
      ...'loop attr_accessor attr_reader attr_writer include extend private protected public new'.split(' ').map((w) => [w, 'kp']),
      ['raise', 'k'],
    ]),
  },
  PHP: cLike('php', {
    ws: '', name: 'nx', punct: '(){}[],;', op: '+-*/%=<>!&|^~?:.',
    scopes: { variable: 'nv', 'variable.language': 'nv', meta: (t) => (t === '<?php' ? [['o', '<?'], ['nx', 'php']] : 'cp'), 'title.class': 'nx' },
  }),
  Kotlin: cLike('kotlin', {
    punct: '()[]{}.,;:', int: 'm', scopes: { string: 's' }, words: { package: 'k', data: 'kd', Array: 'n' }, after: { package: 'nn', import: 'nn', val: 'nv', var: 'nv' },
  }),
  Swift: cLike('swift', {
    punct: '()[]{}.,:;=@#`?\\', op: '+-*/%<>!&|^~', scopes: { string: 's', type: 'nb' },
    words: { print: 'bp', Int: 'nb', Double: 'nb', String: 'nb', Bool: 'nb', Float: 'nb' }, after: { var: 'nv', let: 'nv', import: 'nc' },
  }),
  Bash: { grammar: 'bash', ws: 'w', name: '', punct: ';|&(){}', op: '=[]', int: 'm', assignVar: true, scopes: { variable: 'nv', meta: 'ch', 'title.function': 'nf', literal: 'kc' }, ident: /[-./*]/ },
  // Prompt lines are `gp` and Bash, the others output (`go`): highlight.ts reads the session line by line.
  'Bash Session': { grammar: 'bash', ws: '', name: '', punct: '', op: '', session: 'Bash' },
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
  Docker: {
    grammar: 'dockerfile', ws: 'w', name: '', punct: ';|&(){}[],', op: '=', int: 'm', assignVar: true,
    scopes: { keyword: 'k', string: 's2', comment: 'c' },
    // The arguments of these instructions are one string (FROM's `AS` a keyword), as in Pygments.
    stringArgs: ['FROM', 'ADD', 'COPY', 'EXPOSE', 'USER', 'WORKDIR', 'VOLUME', 'STOPSIGNAL', 'MAINTAINER'],
  },
  Makefile: {
    grammar: 'makefile', ws: 'w', name: '', punct: '', op: '=:+?', assignVar: true,
    scopes: { section: makeTarget, meta: makeTarget, 'meta>keyword': null, variable: makeVariable, comment: 'c' },
  },
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

export const GRAMMARS: Record<string, LanguageFn> = {
  bash, c, clojure, cpp, csharp: csharpBounded, css, dart, diff, dockerfile, elixir, erlang, go, graphql, haskell, ini, java, javascript,
  json, julia, kotlin, latex, less, lua, makefile, markdown, nginx, objectivec, ocaml, perl, php, powershell, protobuf, python,
  r, ruby, rust, scala, scss, shell, sql, swift, typescript, xml, yaml,
};
