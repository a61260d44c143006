/** Messages for the render benchmark (`render.ts`): typical chat and hostile input. */

/** Typical messages with Markdown: a mention, a link, emoji, code, a quote. */
export const RICH_MESSAGES: readonly string[] = [
  "Hey @**Mel**, the build on #**general>ci** is green again :tada: see https://example.com/builds/1234 and the **release notes**.\nI'll merge `fix-login` after lunch.",
  '@**King Hamlet** can you review [the PR](https://github.com/example/repo/pull/42)? It only touches `server/app.ts` :+1:',
  '> the deploy failed at 3am\n\nYes, I restarted it. @*support* FYI, nothing was lost.',
  'Quick fix:\n```ts\nconst x = await load(id);\nif (!x) throw new Error("missing");\n```\nworks for me :smile:',
  'Agenda for tomorrow:\n- standup at 9\n- **design review** with @**User 12**\n- lunch :pizza:',
  'See #**general** for the thread, and *please* read https://docs.example.org/guide#setup before asking.',
];

/** Plain chat lines: no Markdown at all (the commonest messages). */
export const PLAIN_MESSAGES: readonly string[] = [
  'sounds good, see you there',
  "I'll be 10 minutes late, the train is stuck outside the station again",
  'Did anyone else get the email from HR about the new holiday policy?',
  'ok',
  'Thanks! That fixed it.\nNot sure why the cache was stale in the first place though',
  'lunch?',
];

const nestedLists = Array.from({ length: 400 }, (_, i) => `${' '.repeat(i * 2)}- item`).join('\n');

/** Hostile inputs, each at most 10,000 characters (the message limit). */
export const ADVERSARIAL: Record<string, string> = {
  '3,000 nested >': '>'.repeat(3000) + ' deep',
  '3,000 quote lines deepening': Array.from({ length: 3000 }, (_, i) => '>'.repeat(i + 1)).join('\n').slice(0, 10_000),
  '400 nested list items': nestedLists.slice(0, 10_000),
  '1,100 nested ```quote': '```quote\n'.repeat(1100).slice(0, 10_000),
  '1,100 nested ```spoiler': '```spoiler x\n'.repeat(800).slice(0, 10_000),
  '10,000 *': '*'.repeat(10_000),
  '*a x 5,000': '*a'.repeat(5000),
  'a* x 5,000': 'a*'.repeat(5000),
  '_a x 3,333': '_a '.repeat(3333),
  '10,000 [': '['.repeat(10_000),
  '[]( x 3,333': '[]('.repeat(3333),
  '10,000 `': '`'.repeat(10_000),
  '10,000 :': ':'.repeat(10_000),
  ':a x 5,000': ':a'.repeat(5000),
  ':smile: x 1,400': ':smile:'.repeat(1400),
  '@** x 3,333': '@**'.repeat(3333),
  '@**Mel** x 1,100': '@**Mel** '.repeat(1100),
  '#** x 3,333': '#**'.repeat(3333),
  '10,000 <': '<'.repeat(10_000),
  '<script> x 1,000': '<script>'.repeat(1250),
  'URLs x 900': 'http://a.b/'.repeat(900),
  'emails x 1,400': 'a@b.co '.repeat(1400),
  'table 2,400 rows': '|a|\n|-|\n' + '|x|\n'.repeat(2400),
  'newlines x 5,000': 'a\n'.repeat(5000),
  'mixed syntax': '**a _b `c` [d](e) ~~f~~ :smile: @**x** #**y** <z> '.repeat(180).slice(0, 10_000),
  '$$ x 5,000': '$$'.repeat(5000),
  'TeX: \\def doubling itself': '$$\\def\\a{\\a\\a}\\a$$',
  'TeX: 900 expansions of a 1,000-token \\def': `$$\\def\\a{${'x'.repeat(1000)}}\\def\\b{${'\\a'.repeat(100)}}\\def\\c{${'\\b'.repeat(9)}}\\c$$`,
  'TeX: \\LaTeX x 330, 4 formulas': Array(4).fill(`$$${'\\LaTeX'.repeat(330)}$$`).join(' '),
  'TeX: \\frac{a}{b} x 600': Array(600).fill('$$\\frac{a}{b}$$').join(' '),
};

/** 100 lines of ordinary Python (fenced as ```python, or without a language for the baseline: code.ts). */
const PY_LINES = [
  'import json',
  'from pathlib import Path',
  '',
  '',
  'class Store:',
  '    """Keeps records in one JSON file."""',
  '',
  '    def __init__(self, path: str, limit: int = 1000) -> None:',
  '        self.path = Path(path)  # where the data lives',
  '        self.limit = limit',
  '        self.items = {}',
  '',
  '    def load(self):',
  '        if not self.path.exists():',
  '            return {}',
  '        with open(self.path, "r", encoding="utf-8") as f:',
  '            self.items = json.load(f)',
  '        return self.items',
  '',
  '    def put(self, key, value):',
  "        if len(self.items) >= self.limit and key not in self.items:",
  "            raise ValueError(f'full: {len(self.items)} items')",
  '        self.items[key] = value * 2 + 0.5',
  '        return True',
  '',
];
export const CODE_LINES_100 = Array.from({ length: 100 }, (_, i) => PY_LINES[i % PY_LINES.length]!).join('\n');
export const CODE_MESSAGES: readonly string[] = ['Here is the store:\n```python\n' + CODE_LINES_100 + '\n```'];

/** `text` cut into lines of `width` characters (under highlight.ts's line cap, so the grammar runs). */
const lines = (text: string, width: number) => text.replace(new RegExp(`([^\\n]{${width}})`, 'g'), '$1\n');

/** Hostile code blocks (highlight.ts's bounds), each at most 10,000 characters. */
export const ADVERSARIAL_CODE: Record<string, string> = {
  'code: 10,000 chars, unknown language': '```nosuch\n' + 'x'.repeat(9_980) + '\n```',
  'code: TypeScript, 3,000 nested ${ in lines': '```typescript\n' + lines('`${'.repeat(3_000), 60) + '\n```',
  'code: Rust, 4,500 nested /* in lines': '```rust\n' + lines('/*'.repeat(4_500), 60) + '\n```',
  'code: C#, 410 lines of words': '```csharp\n' + 'List<int> a b c d e f g\n'.repeat(410) + '```',
  'code: JavaScript, 9,000 ( in lines': '```javascript\n' + lines('('.repeat(9_000), 90) + '\n```',
  'code: Python, 9,000 "\\ in lines': '```python\n' + lines('"\\'.repeat(4_500), 90) + '\n```',
  'code: C, 99 words of 99 chars a line': '```c\n' + lines(('a'.repeat(99) + ' ').repeat(95), 400) + '\n```',
};

/** Messages with math (math.ts): inline formulas in a sentence, and a ```math block. */
export const MATH_MESSAGES: readonly string[] = [
  'Euler showed that $$e^{i\\pi} + 1 = 0$$, which is neat.',
  'The area is $$\\pi r^2$$ and the circumference $$2\\pi r$$.',
  'So $$\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}$$ as Basel said',
  'Gaussian:\n```math\n\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}\n```',
];
