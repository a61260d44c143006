/**
 * `npm run bench -- render` (P9): Markdown render + sanitise per message.
 * Baseline in the same run: marked alone (default options, no extensions,
 * no sanitiser) on the same messages, interleaved round by round. Also: the
 * two sanitisers measured on the same HTML (js-xss, used, vs sanitize-html),
 * heap before/after RENDER_N renders (default 1,000,000), the cost of a
 * message with math (KaTeX) against the same text without it, of a 100-line
 * highlighted code block against the same block plain, and the times of
 * adversarial inputs (10,000 characters, deep nesting, hostile TeX, hostile code).
 * Goal: typical message <= 50 µs, no heap growth, no crash.
 */
import { Marked } from 'marked';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { renderFullHtml, renderMessage, type RenderContext } from '../../server/markdown/index.js';
import { sanitizeXss } from '../../server/markdown/sanitize-xss.js';
import { environment, fmtInt, goal, heading, median, percentileSorted, table, warnIfBusy } from './lib.js';
import { ADVERSARIAL, ADVERSARIAL_CODE, CODE_MESSAGES, MATH_MESSAGES, PLAIN_MESSAGES, RICH_MESSAGES } from './render-corpus.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const USERS = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, full_name: `User ${i + 1}` }));
USERS.push({ id: 500, full_name: 'Mel' }, { id: 501, full_name: 'King Hamlet' });
const byName = new Map(USERS.map((u) => [u.full_name.toLowerCase(), u]));
const ctx: RenderContext = {
  usersByName: (n) => {
    const u = byName.get(n.toLowerCase());
    return u ? [u] : [];
  },
  userById: (id) => USERS.find((u) => u.id === id),
  groupByName: (n) => (n.toLowerCase() === 'support' ? { id: 17, name: 'support' } : undefined),
  channelByName: (n) => (n.toLowerCase() === 'general' ? { id: 3, name: 'general' } : undefined),
};

const ROUNDS = 15;
const PER_ROUND = 400;
const us = (ns: bigint | number) => Number(ns) / 1000;

/**
 * Per-message µs over the corpus, variants interleaved round by round: the
 * median and p99 of single calls (robust to other load on the machine), and
 * the mean of the rounds.
 */
function measure(variants: Record<string, (m: string) => unknown>, corpus: readonly string[]) {
  const names = Object.keys(variants);
  const rounds: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const singles: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) for (let i = 0; i < 2000; i++) variants[n]!(corpus[i % corpus.length]!);
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of names) {
      const f = variants[n]!;
      const start = process.hrtime.bigint();
      for (let i = 0; i < PER_ROUND; i++) {
        const t0 = process.hrtime.bigint();
        f(corpus[i % corpus.length]!);
        singles[n]!.push(us(process.hrtime.bigint() - t0));
      }
      rounds[n]!.push(us(process.hrtime.bigint() - start) / PER_ROUND);
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const sorted = Float64Array.from(singles[n]!).sort();
      return [n, { mean: median(rounds[n]!), p50: percentileSorted(sorted, 50), p99: percentileSorted(sorted, 99) }];
    }),
  );
}

function heapAfter(n: number): { beforeMB: number; afterMB: number; ms: number } {
  const corpus = [...RICH_MESSAGES, ...PLAIN_MESSAGES];
  for (let i = 0; i < 20_000; i++) renderMessage(corpus[i % corpus.length]!, ctx);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) renderMessage(corpus[i % corpus.length]!, ctx);
  const ms = performance.now() - t0;
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  return { beforeMB: before / 2 ** 20, afterMB: after / 2 ** 20, ms };
}

export async function main(): Promise<void> {
  heading('P9 render + sanitise per message (baseline: marked alone, same messages)');
  console.log(environment());
  const marked = new Marked();
  const base = (m: string) => marked.parse(m);
  const ours = (m: string) => renderMessage(m, ctx).html;

  const rows: (string | number)[][] = [['corpus', 'variant', 'median µs', 'p99 µs', 'mean µs', 'ratio (medians)']];
  let typical = NaN;
  for (const [label, corpus] of [
    ['rich (mentions, links, emoji, code)', RICH_MESSAGES],
    ['plain chat lines', PLAIN_MESSAGES],
    ['mixed (2 plain : 1 rich)', [...PLAIN_MESSAGES, ...PLAIN_MESSAGES, ...RICH_MESSAGES]],
  ] as const) {
    const r = measure({ 'marked alone': base, 'render+sanitise': ours }, corpus);
    const ratio = r['render+sanitise']!.p50 / r['marked alone']!.p50;
    for (const [name, s] of Object.entries(r)) {
      rows.push([label, name, s.p50.toFixed(1), s.p99.toFixed(1), s.mean.toFixed(1), name === 'marked alone' ? '1.00' : ratio.toFixed(2)]);
    }
    if (label.startsWith('rich')) typical = r['render+sanitise']!.p50;
  }
  table(rows);

  heading('Sanitisers on the same rendered HTML (rich corpus)');
  const htmls = RICH_MESSAGES.map((m) => renderFullHtml(m, ctx));
  const sanitizeHtml = (await import('sanitize-html')).default;
  const { ALLOWED_ATTRIBUTES, ALLOWED_CLASSES, ALLOWED_TAGS, SCHEMES } = await import('../../server/markdown/sanitize-lists.js');
  const shOptions = {
    allowedTags: ALLOWED_TAGS, allowedAttributes: ALLOWED_ATTRIBUTES, allowedClasses: ALLOWED_CLASSES,
    allowedSchemes: SCHEMES, allowProtocolRelative: false, disallowedTagsMode: 'escape' as const,
  };
  const s = measure({ 'js-xss (used)': sanitizeXss, 'sanitize-html': (h) => sanitizeHtml(h, shOptions) }, htmls);
  table([['sanitiser', 'median µs', 'p99 µs'], ...Object.entries(s).map(([n, v]) => [n, v.p50.toFixed(1), v.p99.toFixed(1)])]);

  heading('Math (KaTeX, math.ts): a message with formulas (baseline: the same text without its $$, same run)');
  const asText = new Map(MATH_MESSAGES.map((m) => [m, m.replaceAll('$$', '').replace('```math', '```')]));
  const mr = measure({ 'same text, no math': (m) => ours(asText.get(m)!), 'with math': ours }, MATH_MESSAGES);
  table([['variant', 'median µs', 'p99 µs', 'mean µs'], ...Object.entries(mr).map(([n, v]) => [n, v.p50.toFixed(1), v.p99.toFixed(1), v.mean.toFixed(1)])]);
  const mathCost = mr['with math']!.p50;

  heading('Code highlighting (highlight.ts): a 100-line ```python block (baseline: the same block without a language, plain, same run)');
  const plainCode = new Map(CODE_MESSAGES.map((m) => [m, m.replace('```python', '```')]));
  const cr = measure({ 'same block, plain': (m) => ours(plainCode.get(m)!), highlighted: ours }, CODE_MESSAGES);
  table([['variant', 'median µs', 'p99 µs', 'mean µs'], ...Object.entries(cr).map(([n, v]) => [n, v.p50.toFixed(1), v.p99.toFixed(1), v.mean.toFixed(1)])]);
  const codeCost = cr.highlighted!.p50;

  heading('Adversarial inputs (best of 5 renders after a warm-up, so other load on the machine counts less; baseline: marked alone)');
  const adv: (string | number)[][] = [['input', 'chars', 'ms', 'marked alone ms', 'output chars']];
  let worst = 0;
  const bestOf5 = (f: () => unknown) => {
    f();
    const times = [0, 1, 2, 3, 4].map(() => {
      const t0 = performance.now();
      f();
      return performance.now() - t0;
    });
    return Math.min(...times);
  };
  for (const [name, text] of Object.entries({ ...ADVERSARIAL, ...ADVERSARIAL_CODE })) {
    const ms = bestOf5(() => renderMessage(text, ctx));
    let base: string;
    try {
      base = bestOf5(() => marked.parse(text)).toFixed(1);
    } catch (err) {
      base = `throws ${(err as Error).name}`;
    }
    worst = Math.max(worst, ms);
    adv.push([name, text.length, ms.toFixed(1), base, renderMessage(text, ctx).html.length]);
  }
  table(adv);

  const n = Number(process.env.RENDER_N ?? 1_000_000);
  heading(`Heap over ${fmtInt(n)} renders (after GC)`);
  const h = heapAfter(n);
  const growth = h.afterMB - h.beforeMB;
  console.log(`  heap before ${h.beforeMB.toFixed(1)} MB, after ${h.afterMB.toFixed(1)} MB (growth ${growth.toFixed(2)} MB) in ${(h.ms / 1000).toFixed(1)} s`);

  heading('P9 summary');
  console.log(`  typical (rich) message render+sanitise median ${typical.toFixed(1)} µs: ${goal(typical <= 50)} (goal <= 50 µs)`);
  console.log(`  a message with math: median ${mathCost.toFixed(1)} µs (the same text without math ${mr['same text, no math']!.p50.toFixed(1)} µs); no goal, shown`);
  console.log(`  a 100-line highlighted code block: median ${codeCost.toFixed(1)} µs (the same block plain ${cr['same block, plain']!.p50.toFixed(1)} µs); no goal, shown`);
  console.log(`  heap growth over ${fmtInt(n)} renders ${growth.toFixed(2)} MB: ${goal(growth < 2)} (goal: none)`);
  console.log(`  worst adversarial input ${worst.toFixed(1)} ms, no crash: ${goal(true)}`);
  warnIfBusy(1);
}
