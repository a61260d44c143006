/**
 * Zulip's fenced blocks (``` or ~~~, three or more): code with a language,
 * `quote`/`quoted` (a blockquote whose body is Markdown), `spoiler header`,
 * and `math` (shown as code: no TeX engine on the server). A code block ends
 * only at its own fence; inside a quote or spoiler another fence line opens a
 * nested block, so the closing fence is found by keeping a stack, as Zulip's
 * fenced-block preprocessor does. An unclosed block runs to the end.
 */
import type { Tokens, TokenizerAndRendererExtension } from 'marked';
import { escapeHtml } from './html.js';
import { stateOf } from './state.js';

// fence, then an optional `{.lang}` / `.lang` / `lang`, then an optional header.
const FENCE_RE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?[ ]*$/;

const CONTAINERS: ReadonlySet<string> = new Set(['quote', 'quoted', 'spoiler']);
/** Quotes and spoilers nest this deep; a deeper one is shown as code (bounds the work). */
const MAX_NESTING = 16;

interface Open {
  fence: string;
  isCode: boolean;
}

function fenceOf(line: string): { fence: string; lang: string; header: string } | undefined {
  const m = FENCE_RE.exec(line);
  if (!m) return undefined;
  return { fence: m[1]!, lang: (m[2] ?? '').toLowerCase(), header: (m[3] ?? '').trim() };
}

/** Where the block opened on the first line ends: [body end, raw end] offsets. */
function blockEnd(src: string, first: Open, bodyStart: number): [number, number] {
  const stack: Open[] = [first];
  let pos = bodyStart;
  while (pos < src.length) {
    const nl = src.indexOf('\n', pos);
    const lineEnd = nl < 0 ? src.length : nl;
    const line = src.slice(pos, lineEnd);
    const top = stack[stack.length - 1]!;
    if (line.trimEnd() === top.fence) {
      stack.pop();
      if (stack.length === 0) return [pos, nl < 0 ? src.length : nl + 1];
    } else if (!top.isCode && (line.charCodeAt(0) === 96 || line.charCodeAt(0) === 126)) {
      const f = fenceOf(line);
      if (f) stack.push({ fence: f.fence, isCode: !CONTAINERS.has(f.lang) });
    }
    pos = nl < 0 ? src.length : nl + 1;
  }
  return [src.length, src.length];
}

/** Pygments' display names for the languages people type most (Zulip's `data-code-language`). */
const LANGUAGES: Record<string, string> = {
  py: 'Python', python: 'Python', python3: 'Python', py3: 'Python', py2: 'Python 2.x', python2: 'Python 2.x',
  js: 'JavaScript', javascript: 'JavaScript', ts: 'TypeScript', typescript: 'TypeScript',
  json: 'JSON', html: 'HTML', css: 'CSS', sh: 'Bash', bash: 'Bash', shell: 'Bash', zsh: 'Bash',
  console: 'Bash Session', c: 'C', cpp: 'C++', 'c++': 'C++', java: 'Java', go: 'Go', golang: 'Go',
  rust: 'Rust', rs: 'Rust', rb: 'Ruby', ruby: 'Ruby', sql: 'SQL', yaml: 'YAML', yml: 'YAML',
  md: 'Markdown', markdown: 'Markdown', tex: 'TeX', latex: 'TeX', text: 'Text only', diff: 'Diff',
  kotlin: 'Kotlin', swift: 'Swift', php: 'PHP', xml: 'XML', toml: 'TOML', csharp: 'C#', cs: 'C#',
};

export const languageName = (lang: string): string => (Object.hasOwn(LANGUAGES, lang.toLowerCase()) ? LANGUAGES[lang.toLowerCase()]! : lang);

/** Zulip's code block: trailing spaces of each line dropped, text escaped. */
export function codeBlockHtml(text: string, lang: string | undefined): string {
  const attr = lang ? ` data-code-language="${escapeHtml(languageName(lang))}"` : '';
  const body = text.replace(/[ \t]+$/gm, '').replace(/^\n+/, '').replace(/\n+$/, '');
  return `<div class="codehilite"${attr}><pre><span></span><code>${escapeHtml(body)}${body ? '\n' : ''}</code></pre></div>\n`;
}

export interface SpoilerToken extends Tokens.Generic {
  type: 'zulipSpoiler';
  header: Tokens.Generic[];
  tokens: Tokens.Generic[];
}

export const fences: TokenizerAndRendererExtension = {
  name: 'zulipFence',
  level: 'block',
  start(src: string) {
    const m = /^(?:`{3,}|~{3,})/m.exec(src);
    return m ? m.index : undefined;
  },
  tokenizer(src: string) {
    const c = src.charCodeAt(0);
    if (c !== 96 && c !== 126) return undefined;
    const nl = src.indexOf('\n');
    const open = fenceOf(nl < 0 ? src : src.slice(0, nl));
    if (!open) return undefined;
    const state = stateOf(this.lexer);
    const container = CONTAINERS.has(open.lang) && state.fenceDepth < MAX_NESTING;
    const bodyStart = nl < 0 ? src.length : nl + 1;
    const [bodyEnd, rawEnd] = blockEnd(src, { fence: open.fence, isCode: !container }, bodyStart);
    const raw = src.slice(0, rawEnd);
    const body = src.slice(bodyStart, bodyEnd);
    if (!container) return { type: 'code', raw, text: body, lang: open.lang || undefined, codeBlockStyle: undefined };
    const lexer = this.lexer;
    const top = lexer.state.top;
    lexer.state.top = true;
    state.fenceDepth++;
    try {
      if (open.lang === 'spoiler') {
        const header = open.header ? lexer.blockTokens(open.header, []) : [];
        return { type: 'zulipSpoiler', raw, header, tokens: lexer.blockTokens(body, []) };
      }
      return { type: 'blockquote', raw, text: body, tokens: lexer.blockTokens(body, []) };
    } finally {
      state.fenceDepth--;
      lexer.state.top = top;
    }
  },
};

/** The spoiler block the fence tokenizer makes (Zulip's markup). */
export const spoiler: TokenizerAndRendererExtension = {
  name: 'zulipSpoiler',
  renderer(token) {
    const t = token as SpoilerToken;
    const header = this.parser.parse(t.header);
    const content = this.parser.parse(t.tokens);
    return (
      `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div>` +
      `<div class="spoiler-content" aria-hidden="true">\n${content}</div></div>\n`
    );
  },
  childTokens: ['header', 'tokens'],
};
