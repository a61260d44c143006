/**
 * The module-level collection check of test/lint/module-state.ts on small made-up files.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MEMO_TABLES, moduleStateProblems, staleMemoTables } from './module-state.js';

const lines = (problems: string[]) => problems.map((p) => p.replace(/ \(.*$/, ''));

test('collections made at module load are refused, wherever they sit', () => {
  const text = [
    'const seen = new Set<string>();',
    'export const byId = new Map<number, string>();',
    'const box = { refs: new WeakMap<object, number>() };',
    'class Registry { static all = new WeakSet<object>(); }',
    'let mutable: ReadonlySet<string> = new Set();',
  ].join('\n');
  assert.deepEqual(lines(moduleStateProblems('server/x.ts', text)), [
    'server/x.ts:1: module-level new Set',
    'server/x.ts:2: module-level new Map',
    'server/x.ts:3: module-level new WeakMap',
    'server/x.ts:4: module-level new WeakSet',
    'server/x.ts:5: module-level new Set',
  ]);
});

test('read-only constant tables, and collections made per call or per instance, pass', () => {
  const text = [
    "const KINDS: ReadonlySet<string> = new Set(['a', 'b']);",
    "export const NAMES: ReadonlyMap<number, string> = new Map([[1, 'one']]);",
    'export function fresh() { return new Set<number>(); }',
    'export const arrow = (ids: number[]) => [...new Set(ids)];',
    'class Book { rows = new Map<number, string>(); private readonly marks = new Set<number>(); }',
  ].join('\n');
  assert.deepEqual(moduleStateProblems('server/y.ts', text), []);
});

test('a listed memo table passes in its own file only, and an unused listing is reported', () => {
  const [key] = Object.keys(MEMO_TABLES);
  const [file, name] = key!.split(': ');
  const used = new Set<string>();
  assert.deepEqual(moduleStateProblems(file!, `const ${name} = new WeakMap<object, string>();`, used), []);
  assert.equal(moduleStateProblems('server/other.ts', `const ${name} = new WeakMap<object, string>();`).length, 1);
  assert.deepEqual(used, new Set([key]));
  assert.equal(staleMemoTables(used).length, Object.keys(MEMO_TABLES).length - 1);
});
