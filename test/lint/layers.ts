/**
 * The layers of server/ and what each may import (run by test/lint/lint.ts), written as data in the
 * manner of VS Code's layer check. Every import counts, type-only ones included.
 *
 * The intended architecture: a request goes routes -> views -> (http) -> actions, which change
 * the store in a commit and emit events; register/ answers `POST /register`; lib/ holds the domain
 * rules every one of them reads, and never reaches up to actions, http, views, state, routes or
 * the app. Below lib: markdown, params, auth, events, store, and the one-file leaves (clock,
 * errors, log, version, config). context.ts holds types only (the App and what a view gets), so
 * every layer may name it, with `import type`; its own imports are type-only too.
 *
 * server/protocol/ is what server and web app share (wire shapes, the event union, error codes,
 * keys): every layer may import it, and it imports nothing but its own files (no other server/
 * file, no package, no node: module), so the web app's bundle can take it. The web app
 * (renderer/) may import from server/ only server/protocol/ (`checkWebImports`).
 *
 * Also refused: any import cycle among server/ files, whatever the layers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';

/**
 * Per layer (a top-level folder or file of server/, or a more specific path inside one, the
 * longest match winning): the other layers, or paths inside them, its files may import. A layer
 * may always import its own files.
 */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  // Entry points.
  bin: ['cli'],
  cli: ['app', 'start', 'demo', 'export', 'actions', 'lib', 'auth', 'store', 'config', 'log', 'clock', 'errors', 'version', 'context'],
  start: ['app', 'tls', 'lib', 'store', 'config', 'log', 'clock', 'errors', 'context'],
  demo: ['app', 'start', 'actions', 'lib', 'store', 'config', 'log', 'clock', 'errors', 'context'],
  app: ['routes', 'http', 'views', 'register', 'export', 'actions', 'events', 'lib', 'auth', 'store', 'config', 'log', 'clock', 'errors', 'context'],
  // Requests.
  routes: ['views', 'http', 'context'],
  views: ['http', 'actions', 'webhooks', 'export', 'events', 'lib', 'markdown', 'auth', 'params', 'store', 'tls', 'log', 'clock', 'errors', 'version', 'context'],
  http: ['actions', 'lib', 'auth', 'params', 'store', 'log', 'clock', 'errors', 'version', 'context'],
  export: ['actions', 'lib', 'store', 'log', 'clock', 'errors', 'version', 'context'],
  /** `hearth export`: builds an App of its own to export from. */
  'export/command': ['app', 'actions', 'lib', 'store', 'log', 'clock', 'errors', 'version', 'context'],
  // Changes, and the register snapshot.
  actions: ['events', 'lib', 'markdown', 'auth', 'store', 'log', 'clock', 'errors', 'context'],
  register: ['webhooks', 'events', 'lib', 'auth', 'store', 'clock', 'errors', 'version', 'context'],
  // The domain.
  lib: ['events', 'markdown', 'auth', 'params', 'store', 'log', 'clock', 'errors', 'version', 'context'],
  // Below lib.
  /** Incoming-webhook integrations: pure functions from a request to the message to post (the view sends it). */
  webhooks: ['errors'],
  markdown: ['lib/emoji/unicode', 'errors'],
  params: ['errors'],
  auth: ['store', 'clock', 'errors'],
  events: ['store', 'clock', 'context'],
  store: ['clock', 'errors'],
  tls: ['log', 'clock'],
  /** Types only (checked below): what the App holds. */
  context: ['events', 'export', 'lib', 'auth', 'params', 'store', 'log', 'clock'],
  clock: [],
  config: [],
  errors: [],
  log: [],
  version: [],
  /** Shared with the web app: imports nothing else (SHARED). */
  protocol: [],
};

/** The layer every other may import, and that imports only its own files: server/protocol/. */
const SHARED = 'protocol';

interface Import {
  /** The imported path relative to server/ (`lib/people/people.ts`), or null outside server/. */
  target: string | null;
  spec: string;
  typeOnly: boolean;
  line: number;
  /** A package or `node:` module, not a relative path. */
  bare?: true;
}

/** `lib/people/people.ts` -> `lib/people/people`. */
const stem = (path: string) => path.replace(/\.(ts|js)$/, '');
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const top = (path: string) => stem(path).split('/')[0]!;

/** The table key a file belongs to: the longest matching one. */
function layerOf(path: string, table: Readonly<Record<string, readonly string[]>>): string | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) if (under(stem(path), key) && (!best || key.length > best.length)) best = key;
  return best;
}

/** Relative imports and re-exports of one file (static and `import('...')`), resolved inside `files`. */
function importsOf(path: string, text: string, files: ReadonlyMap<string, string>): Import[] {
  const kind = path.endsWith('.js') ? ts.ScriptKind.JS : path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean, node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    if (!spec.startsWith('.')) {
      out.push({ target: null, spec, typeOnly, line, bare: true });
      return;
    }
    const joined = posix.normalize(posix.join(posix.dirname(path), spec));
    const candidates = [joined, joined.replace(/\.js$/, '.ts'), joined.replace(/\.js$/, '.tsx'), `${joined}.ts`];
    const found = joined.startsWith('..') ? null : (candidates.find((c) => files.has(c)) ?? candidates[1]!);
    out.push({ target: found, spec, typeOnly, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.importClause?.isTypeOnly ?? false, node);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly, node);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) add(arg.text, false, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** What context.ts may contain: type imports and exports, interfaces and type aliases. */
function contextProblems(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const problems: string[] = [];
  for (const s of source.statements) {
    const ok =
      ts.isInterfaceDeclaration(s) ||
      ts.isTypeAliasDeclaration(s) ||
      (ts.isImportDeclaration(s) && s.importClause?.isTypeOnly === true) ||
      (ts.isExportDeclaration(s) && s.isTypeOnly);
    if (!ok) {
      const line = source.getLineAndCharacterOfPosition(s.getStart(source)).line + 1;
      problems.push(`server/${path}:${line}: context.ts holds types only (import type, interface, type)`);
    }
  }
  return problems;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return found;
}

/** One path around a component: from its first file, following imports inside it back to the start. */
function cyclePath(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  const path = [start];
  const seen = new Set([start]);
  const walk = (v: string): boolean => {
    for (const w of graph.get(v) ?? []) {
      if (w === start) return true;
      if (!inside.has(w) || seen.has(w)) continue;
      seen.add(w);
      path.push(w);
      if (walk(w)) return true;
      path.pop();
    }
    return false;
  };
  walk(start);
  return [...path, start];
}

/**
 * The layer and cycle violations of a set of server/ files (paths relative to server/, e.g.
 * `lib/people/people.ts`, to their text). Messages name files as `server/...`.
 */
export function checkLayers(
  files: ReadonlyMap<string, string>,
  table: Readonly<Record<string, readonly string[]>> = LAYERS,
): string[] {
  const problems: string[] = [];
  const graph = new Map<string, string[]>();
  for (const [path, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const imports = importsOf(path, text, files);
    graph.set(path, imports.flatMap((i) => (i.target ? [i.target] : [])));
    const layer = layerOf(path, table);
    if (layer === undefined) {
      problems.push(`server/${path}: in no layer (add '${top(path)}' to the table in test/lint/layers.ts)`);
      continue;
    }
    if (path === 'context.ts') problems.push(...contextProblems(path, text));
    for (const i of imports) {
      const where = `server/${path}:${i.line}`;
      if (i.bare) {
        if (layer === SHARED) problems.push(`${where}: ${SHARED}/ imports only its own files (not ${i.spec})`);
        continue;
      }
      if (i.target === null) {
        problems.push(`${where}: imports ${i.spec}, outside server/`);
        continue;
      }
      if (stem(i.target) === 'context' && !i.typeOnly) {
        problems.push(`${where}: context.ts holds types only; import it with \`import type\``);
      }
      const target = stem(i.target);
      if (top(i.target) === top(path) || (top(i.target) === SHARED && layer !== SHARED) || table[layer]!.some((allowed) => under(target, allowed))) continue;
      problems.push(`${where}: ${layer} may not import ${top(i.target)} (server/${i.target})`);
    }
  }
  for (const component of cycles(graph)) {
    const path = cyclePath(component, graph);
    problems.push(`import cycle (${component.length} files): ${path.map((p) => `server/${p}`).join(' -> ')}`);
  }
  return problems;
}

/**
 * The web app's imports from server/: only server/protocol/. `files` are renderer/ files by path
 * relative to the checkout (`renderer/chat/store/state.ts`).
 */
export function checkWebImports(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const [path, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    for (const i of importsOf(path, text, files)) {
      if (i.target && under(i.target, 'server') && !under(i.target, `server/${SHARED}`)) {
        problems.push(`${path}:${i.line}: the web app imports from server/ only server/${SHARED}/ (not ${i.target})`);
      }
    }
  }
  return problems;
}

/** Import cycles in the web app (type imports count, as on the server): none allowed. */
export function checkWebCycles(files: ReadonlyMap<string, string>): string[] {
  const graph = new Map<string, string[]>();
  for (const [path, text] of files) graph.set(path, importsOf(path, text, files).flatMap((i) => (i.target && files.has(i.target) ? [i.target] : [])));
  return cycles(graph).map((component) => `import cycle (${component.length} files): ${cyclePath(component, graph).join(' -> ')}`);
}

/** The .ts and .js files under `dir` (or those `pattern` takes), by path relative to it. */
export function readSources(dir: string, pattern = /\.(ts|js)$/): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (pattern.test(name)) out.set(relative(dir, p).split('\\').join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/** The violations in this checkout's server/, and the web app's imports from it and cycles. */
export function lintLayers(): string[] {
  const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
  const web = new Map([...readSources(join(root, 'renderer'), /\.(ts|tsx)$/)].map(([path, text]) => [`renderer/${path}`, text]));
  return [...checkLayers(readSources(join(root, 'server'))), ...checkWebImports(web), ...checkWebCycles(web)];
}
