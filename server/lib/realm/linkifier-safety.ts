/**
 * Keeping a linkifier from stalling the server. Zulip matches linkifiers with
 * re2, which runs in linear time and refuses what it cannot: backreferences
 * and lookarounds. JavaScript's engine backtracks, so a pattern such as
 * `(x+x+)+y` takes exponential time on a line of x's, and every request waits
 * while it runs. Hearth refuses what re2 refuses, then tries each pattern
 * on inputs built to make backtracking blow up (runs of each character the
 * pattern can match), in a `vm` context with a time limit, and refuses a
 * pattern that overruns it. Stored patterns are tried again when compiled, so
 * a slow one saved before these checks is skipped instead of run (a stored
 * lookaround, taken before, keeps working).
 */
import { createContext, Script } from 'node:vm';

/** What re2 cannot do, as Zulip's error would name it; null when the pattern has none of it. */
export function unsupportedByRe2(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))) return 'invalid escape sequence (backreferences are not supported)';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === ']') i++; // a leading ] is a literal in Python's syntax
    } else if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2, i + 5);
      if (rest.startsWith('=') || rest.startsWith('!') || rest.startsWith('<=') || rest.startsWith('<!')) return 'invalid perl operator (lookarounds are not supported)';
      if (rest.startsWith('P=')) return 'invalid named capture group (backreferences are not supported)';
    }
  }
  return null;
}

/** How long one try of a pattern over its inputs may take. */
const BUDGET_MS = 250;
/** Run lengths: short runs show exponential blow-up, long ones (a whole message: Zulip allows 10,000 characters) polynomial. */
const SHORT = 28;
const LONG = 10_000;
/**
 * Polynomial matching, told by how the time grows rather than by the time alone (which depends on
 * the machine and its load: a quadratic pattern took 200-300 ms over the long inputs here, around the
 * budget, and was refused or not by chance): from a quarter of the long length to all of it, a
 * quadratic pattern's time grows 16 times, a linear one's 4. Refused: growing GROWTH times or more,
 * once the long inputs take POLY_FLOOR_MS (the faster of two tries; below that it does not matter).
 */
const GROWTH = 8;
const POLY_FLOOR_MS = 20;
/** Characters every pattern is tried with, beside the ones it names. */
const COMMON = 'aA1 _-.#/:x!';

/**
 * Inputs that make a backtracking matcher explore the most: runs of each character, and of what each
 * group matches (`(ab)+` backtracks on `abab…`), after the pattern's literal start, with and without a
 * character that ends the match.
 */
export function adversarialInputs(pattern: string, lengths: readonly number[] = [SHORT, LONG]): string[] {
  const named = pattern.replace(/\\[dDwWsSbB]/g, '').replace(/[\\^$.|?*+()[\]{}]/g, '');
  const units = [...new Set([...COMMON, ...named, ...groupSamples(pattern)])].slice(0, 64);
  const lead = /^[^\\^$.|?*+()[\]{}]*/.exec(pattern)![0];
  const out: string[] = [];
  for (const n of lengths) {
    for (const u of units) {
      const run = u.repeat(Math.max(1, Math.round(n / u.length)));
      out.push(run, `${run}!`, `${lead}${run}`, `${lead}${run}\u0000`, ` ${run}!`);
    }
  }
  return out;
}

/** One character a class or escape matches (`\d` 1, `[a-z]` a, `[^x]` !, `\.` .). */
function sampleOf(atom: string): string {
  if (atom.startsWith('\\')) return ({ d: '1', w: 'a', s: ' ', D: 'a', W: '!', S: 'a', b: '', B: '' } as Record<string, string>)[atom[1]!] ?? atom[1]!;
  if (atom.startsWith('[')) return atom[1] === '^' ? '!' : atom[1] === '\\' ? sampleOf(atom.slice(1, 3)) : (atom[1] ?? '');
  return atom === '.' ? 'a' : atom;
}

/** A string each group's body matches (each alternative; quantifiers and group syntax left out), at most 20 characters. */
function groupSamples(pattern: string): string[] {
  const out: string[] = [];
  const open: { at: number; alternatives: string[]; text: string }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    let atom = c;
    if (c === '\\') atom = pattern.slice(i, ++i + 1);
    else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      for (; j < pattern.length && pattern[j] !== ']'; j++) if (pattern[j] === '\\') j++;
      atom = pattern.slice(i, j + 1);
      i = j;
    } else if (c === '(') {
      const syntax = /^\((?:\?(?:[:=!]|<[=!]|P?<[A-Za-z_][A-Za-z0-9_]*>))?/.exec(pattern.slice(i))![0];
      open.push({ at: i, alternatives: [], text: '' });
      i += syntax.length - 1;
      continue;
    } else if (c === ')' && open.length) {
      const g = open.pop()!;
      const all = [...g.alternatives, g.text];
      out.push(...all.filter((x) => x.length > 1 && x.length <= 20));
      if (open.length) open[open.length - 1]!.text += all[0] ?? '';
      continue;
    } else if (c === '|' && open.length) {
      const g = open[open.length - 1]!;
      g.alternatives.push(g.text);
      g.text = '';
      continue;
    } else if ('*+?^$|)'.includes(c)) continue;
    else if (c === '{') {
      const q = /^\{\d*,?\d*\}/.exec(pattern.slice(i));
      if (q) {
        i += q[0].length - 1;
        continue;
      }
    }
    if (open.length) open[open.length - 1]!.text += sampleOf(atom);
  }
  return out;
}

const TRY = new Script(`
  for (const s of inputs) {
    re.lastIndex = 0;
    for (let m = re.exec(s); m; m = re.exec(s)) if (m[0] === '') re.lastIndex++;
  }
`);

/**
 * Verdicts by compiled source and flags, so that a list of linkifiers is tried once per process, not
 * again on every edit of the list (40 patterns take about 300 ms). Bounded.
 */
const verdicts = new Map<string, boolean>();

/** True when matching the compiled pattern over its adversarial inputs overruns the budget. */
export function tooSlow(regex: RegExp, pattern: string, budgetMs = BUDGET_MS): boolean {
  const key = `${budgetMs}/${regex.flags}/${regex.source}`;
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const slow = tries(regex, pattern, budgetMs);
  if (verdicts.size >= 1_000) verdicts.clear();
  verdicts.set(key, slow);
  return slow;
}

function tries(regex: RegExp, pattern: string, budgetMs: number): boolean {
  const re = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`);
  const context = createContext({ re, inputs: [] as string[] });
  const run = (inputs: string[]): number => {
    context.inputs = inputs;
    const t0 = performance.now();
    TRY.runInContext(context, { timeout: budgetMs });
    return performance.now() - t0;
  };
  try {
    // Exponential blow-up shows on short runs, as a try over the budget.
    run(adversarialInputs(pattern, [SHORT]));
    const long = adversarialInputs(pattern, [LONG]);
    const longMs = Math.min(run(long), run(long));
    if (longMs < POLY_FLOOR_MS) return false;
    const quarter = adversarialInputs(pattern, [LONG / 4]);
    return longMs >= GROWTH * Math.min(run(quarter), run(quarter));
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return true;
    throw err;
  }
}
