/**
 * The web app's rules of test/lint/renderer-rules.ts on small made-up files.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rendererProblems, STORE_MODULES, staleStoreModules, VIEW_SIGNALS } from './renderer-rules.js';

test('module-level let, effect on import and signals outside the store are refused', () => {
  const text = [
    'let count = 0;',
    "effect(() => console.log('x'));",
    'export const open = signal(false);',
    'export function later() { let n = 0; effect(() => n++); return signal(n); }',
  ].join('\n');
  const problems = rendererProblems('renderer/chat/Thing.tsx', text);
  assert.equal(problems.length, 3);
  assert.match(problems[0]!, /Thing\.tsx:1: module-level let/);
  assert.match(problems[1]!, /Thing\.tsx:2: effect\(\) runs on import/);
  assert.match(problems[2]!, /Thing\.tsx:3: module-level signal\(\)/);
});

test('store modules and listed view signals may hold signals; computed is allowed anywhere', () => {
  const [store] = Object.keys(STORE_MODULES);
  const [viewKey] = Object.keys(VIEW_SIGNALS);
  const [file, name] = viewKey!.split(': ');
  const used = new Set<string>();
  assert.deepEqual(rendererProblems(store!, 'export const a = signal(1);\nexport const b = computed(() => a.value);', used), []);
  assert.deepEqual(rendererProblems(file!, `export const ${name} = signal(false);`, used), []);
  assert.deepEqual(rendererProblems('renderer/chat/x.ts', 'export const doubled = computed(() => 2);'), []);
  assert.deepEqual(used, new Set([store, viewKey]));
  assert.equal(staleStoreModules(used).length, Object.keys(STORE_MODULES).length + Object.keys(VIEW_SIGNALS).length - 2);
});

test('a store made when a module loads (createStore()) is module-level state; made in a function it is not', () => {
  const text = 'export const store = createStore();\nexport const fresh = () => createStore();';
  const problems = rendererProblems('renderer/chat/x.ts', text);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /x\.ts:1: module-level signal\(\)/);
  const [store] = Object.keys(STORE_MODULES);
  assert.deepEqual(rendererProblems(store!, text), []);
});

test('a module-level object changed in place is state: refused outside the store modules', () => {
  const text = 'const box = { n: 0, inner: { on: false } };\nexport function bump() { box.n++; box.inner.on = true; }\nconst TABLE = { a: 1 };\nexport const a = () => TABLE.a;';
  assert.equal(rendererProblems('renderer/chat/x.ts', text).length, 2);
  const [store] = Object.keys(STORE_MODULES);
  assert.deepEqual(rendererProblems(store!, text), []);
});

test('only the API modules reach the network', () => {
  const text = "export const f = () => fetch('/json/x');\nexport const x = () => new XMLHttpRequest();";
  assert.equal(rendererProblems('renderer/chat/settings/Account.tsx', text).length, 2);
  assert.deepEqual(rendererProblems('renderer/chat/store/api.ts', text), []);
});

test('a store module imports no component', () => {
  const [store] = Object.keys(STORE_MODULES);
  assert.equal(rendererProblems(store!, "import { App } from './App.tsx';").length, 1);
  assert.deepEqual(rendererProblems(store!, "import { keyOf } from './narrow.js';"), []);
});
