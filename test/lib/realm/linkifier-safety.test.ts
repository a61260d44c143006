import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { App } from '../../../server/context.js';
import { tooSlow, unsupportedByRe2 } from '../../../server/lib/realm/linkifier-safety.js';
import { compiledLinkifiers, compilePattern } from '../../../server/lib/realm/linkifiers.js';

describe('linkifier safety', () => {
  it('refuses what re2 refuses, and only that, outside character classes and escapes', () => {
    for (const p of ['(a)\\1', '(?P<x>a)\\k<x>', '(?P<x>a)(?P=x)', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) assert.ok(unsupportedByRe2(p), p);
    for (const p of ['[\\1]', '\\(?=a', '[(?=]', '(?P<x>a)', '(?:a)', '[]a(?!]', '\\\\k<x>', 'a\\\\']) assert.equal(unsupportedByRe2(p), null, p);
  });

  it('finds patterns whose backtracking explodes, and passes ordinary ones quickly', () => {
    // Runs of one character, and runs of what a group matches (`abab…` for `((ab)+)+c`).
    for (const p of ['(x+x+)+y', '(a|aa)+$', '\\d+\\d+y', '((ab)+)+c', '((?:a1)+)+z', '((a|b|ab)+)y']) assert.ok(tooSlow(compileUnchecked(p), p, 100), p);
    for (const p of ['#([0-9]+)', '([A-Z]+)-([0-9]+)', 'https?://(\\S+)', '((?:[a-z]+\\.)+[a-z]{2,})', '([\\w-]+)/([\\w.-]+)#(\\d+)']) {
      const t = performance.now();
      assert.equal(tooSlow(compileUnchecked(p), p), false, p);
      assert.ok(performance.now() - t < 200, `${p} took ${performance.now() - t} ms`);
    }
    // Quadratic patterns are refused by how their time grows with the input, not by the time alone (which
    // depends on the machine: here about 240 ms, at the old budget, so refused or not by chance): so with
    // all the time in the world, still refused.
    for (const p of ['#([0-9]+)[0-9]*x', '\\d+\\d+y']) assert.ok(tooSlow(compileUnchecked(p), p, 60_000), p);
    // A verdict is kept: the same pattern is not tried again.
    const t = performance.now();
    assert.ok(tooSlow(compileUnchecked('(x+x+)+y'), '(x+x+)+y', 100));
    assert.ok(performance.now() - t < 20);
  });

  it('skips a stored pattern that is too slow (saved before the check existed) and says so in the log; a stored lookaround still works', () => {
    const warnings: unknown[] = [];
    const linkifiers = [
      { id: 1, pattern: '(?P<id>(x+x+)+y)', url_template: 'https://t.example/{id}' },
      { id: 2, pattern: '#(?P<id>[0-9]+)', url_template: 'https://t.example/{id}' },
      // Saved when lookarounds were still taken: not slow, so it keeps working.
      { id: 3, pattern: 'T(?P<id>[0-9]+)(?!x)', url_template: 'https://t.example/{id}' },
    ];
    const app = { store: { realm: { data: { realm: { linkifiers } } } }, log: { warn: (...a: unknown[]) => warnings.push(a) } } as unknown as App;
    assert.deepEqual(compiledLinkifiers(app).map((l) => l.id), [2, 3]);
    assert.equal(warnings.length, 1);
    assert.throws(() => compilePattern('(?P<id>(x+x+)+y)'), /matching it can take too long/);
  });
});

/** The pattern with Zulip's boundaries as Hearth wraps it, without the checks. */
function compileUnchecked(p: string): RegExp {
  return new RegExp(`(?<=^|[\\s'"(,:<])(?:${p})(?=$|[^\\p{L}\\p{N}])`, 'gu');
}
