/**
 * The layer check of test/lint/layers.ts on small made-up trees: a clean one passes; a forbidden
 * import, a cycle (type imports count), a value import of context.ts and a file in no layer are
 * each reported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkLayers, checkWebCycles, checkWebImports, lintLayers } from './layers.js';

const TABLE = {
  views: ['actions', 'lib', 'context'],
  actions: ['lib', 'context'],
  lib: ['context'],
  context: ['lib'],
};

const clean = (): Map<string, string> =>
  new Map([
    ['context.ts', "import type { Book } from './lib/book.js';\nexport interface App { book: Book }\n"],
    ['lib/book.ts', 'export interface Book { pages: number }\n'],
    ['lib/pages.ts', "import type { App } from '../context.js';\nexport const pages = (app: App) => app.book.pages;\n"],
    ['actions/read.ts', "import type { App } from '../context.js';\nimport { pages } from '../lib/pages.js';\nexport const read = (app: App) => pages(app);\n"],
    ['views/read.ts', "import { read } from '../actions/read.js';\nexport const view = read;\n"],
  ]);

test('a tree that keeps to its layers passes', () => {
  assert.deepEqual(checkLayers(clean(), TABLE), []);
});

test('an import the table does not allow is reported, with the line', () => {
  const files = clean();
  files.set('lib/twice.ts', "import type { App } from '../context.js';\nimport { read } from '../actions/read.js';\nexport const twice = (app: App) => 2 * read(app);\n");
  assert.deepEqual(checkLayers(files, TABLE), ['server/lib/twice.ts:2: lib may not import actions (server/actions/read.ts)']);
});

test('a cycle is reported even when it runs through type imports and allowed layers', () => {
  const files = clean();
  files.set('lib/book.ts', "import type { App } from '../context.js';\nexport interface Book { app: App }\n");
  assert.deepEqual(checkLayers(files, TABLE), [
    'import cycle (2 files): server/context.ts -> server/lib/book.ts -> server/context.ts',
  ]);
});

test('context.ts holds types only, and is imported with import type', () => {
  const files = clean();
  files.set('context.ts', `${files.get('context.ts')}export const version = 1;\n`);
  files.set('actions/read.ts', files.get('actions/read.ts')!.replace('import type { App }', 'import { type App }'));
  assert.deepEqual(checkLayers(files, TABLE), [
    'server/actions/read.ts:1: context.ts holds types only; import it with `import type`',
    'server/context.ts:3: context.ts holds types only (import type, interface, type)',
  ]);
});

test('a file in no layer, and an import leaving server/, are reported', () => {
  const files = clean();
  files.set('tools/x.ts', "import '../../renderer/x.js';\n");
  assert.deepEqual(checkLayers(files, TABLE), ["server/tools/x.ts: in no layer (add 'tools' to the table in test/lint/layers.ts)"]);
  files.set('lib/x.ts', "import '../../renderer/x.js';\n");
  assert.ok(checkLayers(files, TABLE).includes('server/lib/x.ts:1: imports ../../renderer/x.js, outside server/'));
});

test('protocol/ imports only its own files, and every layer may import it', () => {
  const files = clean();
  files.set('protocol/keys.ts', 'export const key = (id: number) => String(id);\n');
  files.set('protocol/events.ts', "import type { Book } from '../lib/book.js';\nimport { join } from 'node:path';\nimport { key } from './keys.js';\nexport type E = Book;\n");
  files.set('lib/keyed.ts', "import { key } from '../protocol/keys.js';\nexport const k = key(1);\n");
  assert.deepEqual(checkLayers(files, { ...TABLE, protocol: [] }), [
    'server/protocol/events.ts:1: protocol may not import lib (server/lib/book.ts)',
    'server/protocol/events.ts:2: protocol/ imports only its own files (not node:path)',
  ]);
});

test('the web app imports from server/ only server/protocol/', () => {
  const files = new Map([
    ['renderer/chat/store/state.ts', "import type { User } from '../../server/protocol/user.js';\nimport { x } from './x.js';\n"],
    ['renderer/chat/View.tsx', "import { errors } from '../../server/errors.js';\nexport const V = () => <p>{errors.length}</p>;\n"],
  ]);
  assert.deepEqual(checkWebImports(files), ['renderer/chat/View.tsx:1: the web app imports from server/ only server/protocol/ (not server/errors.ts)']);
});

test('the real server/ and web app keep their layers and have no import cycle', () => {
  assert.deepEqual(
    lintLayers().filter((p) => p.startsWith('import cycle')),
    [],
  );
});

test('the web app may have no import cycle, through .tsx files and type imports too', () => {
  const web = new Map([
    ['renderer/chat/a.tsx', "import { b } from './store/b.js';"],
    ['renderer/chat/store/b.ts', "import type { C } from '../c.js';"],
    ['renderer/chat/c.tsx', "import { a } from './a.js';"],
    ['renderer/chat/d.ts', "import { b } from './store/b.js';"],
  ]);
  assert.deepEqual(checkWebCycles(web), ['import cycle (3 files): renderer/chat/a.tsx -> renderer/chat/store/b.ts -> renderer/chat/c.tsx -> renderer/chat/a.tsx']);
  web.set('renderer/chat/c.tsx', 'export const c = 1;');
  assert.deepEqual(checkWebCycles(web), []);
});
