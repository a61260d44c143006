/**
 * No module-level mutable collections in server/ and renderer/ (run by test/lint/lint.ts): a `new Map`, `Set`,
 * `WeakMap` or `WeakSet` made when the module loads (outside any function, method or instance
 * field) would be shared by every server in the process, tests' included. State belongs on the
 * App (fields set in createApp, server/app.ts). Allowed:
 * - a constant lookup table, declared as such: `const X: ReadonlySet<T> = new Set(...)` or
 *   `const X: ReadonlyMap<K, V> = new Map(...)`;
 * - the pure memo tables listed in MEMO_TABLES, each with why it is safe to share;
 * - in renderer/, the store modules (./renderer-rules.ts STORE_MODULES, not checked here) and a
 *   collection that is a signal's value (`signal(new Set())`).
 */
import ts from 'typescript';

const COLLECTIONS: ReadonlySet<string> = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);

/**
 * Module-level caches allowed by name (`file: variable`): pure memos, whose value is a function of
 * the key alone, so sharing them between servers changes nothing but the time taken.
 */
export const MEMO_TABLES: Readonly<Record<string, string>> = {
  'server/events/serialize.ts: text':
    'WeakMap from a message event dictionary (never changed once made) to its JSON; entries go with the object',
  'server/lib/realm/linkifiers.ts: compiledCache':
    'WeakMap from an organization linkifier list (replaced, never changed, on each edit) to its compiled form',
  'server/lib/people/people.ts: joinedText':
    'date_joined text by stored date string; bounded (cleared past 50,000 entries)',
  'server/lib/realm/linkifier-safety.ts: verdicts':
    'whether a compiled linkifier pattern is too slow, by its source: measured once per process (a verdict near the time limit could differ between machines, not between servers); bounded (cleared past 1,000 entries)',
  'server/lib/people/alert-words.ts: cache':
    'alert-word RegExp by word (no g flag, so no lastIndex state); bounded (cleared past 10,000 entries)',
  'renderer/chat/messages/html.ts: clean':
    'sanitised HTML by input HTML (DOMPurify with fixed settings and hooks); bounded (cleared past 5,000 entries)',
  'renderer/chat/settings/alert-words.ts: done':
    "a message's HTML with its alert words marked, by words and HTML; bounded (cleared past 2,000 entries)",
};

const readonlyTable = (type: ts.TypeNode | undefined) =>
  type !== undefined && ts.isTypeReferenceNode(type) && /^Readonly(Set|Map)$/.test(type.typeName.getText());

/** Whether `node` runs when its module loads: not inside a function, or an instance field's initializer. */
function atModuleLoad(node: ts.Node): boolean {
  for (let n = node.parent; n !== undefined; n = n.parent) {
    if (ts.isFunctionLike(n) || ts.isClassStaticBlockDeclaration(n)) return ts.isClassStaticBlockDeclaration(n);
    if (ts.isPropertyDeclaration(n) && !n.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) return false;
  }
  return true;
}

/** A collection passed straight to `signal(...)` (renderer/): the signal's value, replaced and never changed in place; the signal rule (./renderer-rules.ts) covers it. */
const signalValue = (node: ts.Node): boolean =>
  ts.isCallExpression(node.parent) && ts.isIdentifier(node.parent.expression) && node.parent.expression.text === 'signal';

/**
 * The module-level collections of one server/ file that are neither declared read-only nor a
 * listed memo table. `used` collects the MEMO_TABLES keys met (to report stale entries).
 */
export function moduleStateProblems(rel: string, text: string, used: Set<string> = new Set()): string[] {
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, rel.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const problems: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      COLLECTIONS.has(node.expression.text) &&
      atModuleLoad(node) &&
      !signalValue(node)
    ) {
      const decl = ts.isVariableDeclaration(node.parent) && node.parent.initializer === node ? node.parent : undefined;
      const name = decl && ts.isIdentifier(decl.name) ? decl.name.text : undefined;
      const key = `${rel}: ${name}`;
      if (name !== undefined && key in MEMO_TABLES) used.add(key);
      else if (!(decl && readonlyTable(decl.type) && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        problems.push(
          `${rel}:${line}: module-level new ${node.expression.text} (state goes on the App, or in renderer/ in the store or a component; a constant table is ` +
            '`const X: ReadonlySet<T>` or `ReadonlyMap<K, V>`; pure memos: test/lint/module-state.ts)',
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

/** MEMO_TABLES entries no file used any more. */
export const staleMemoTables = (used: ReadonlySet<string>): string[] =>
  Object.keys(MEMO_TABLES)
    .filter((k) => !used.has(k))
    .map((k) => `test/lint/module-state.ts: MEMO_TABLES lists ${k}, which is gone; remove it`);
