/**
 * The web app's rules (renderer/, run by test/lint/lint.ts beside the 400-line cap; written down in
 * renderer/README.md, "Rules"):
 * - no module-level mutable state: no module-level `let`/`var` anywhere, no `effect()` run when a
 *   module loads, no module-level object literal changed in place outside the store modules; module-level `signal()`s,
 *   stores (`createStore()`) and collections (`new Map`/`Set`, ./module-state.ts)
 *   only in the store modules listed in STORE_MODULES, each with its reason, or by name in
 *   VIEW_SIGNALS (a view's open/closed state that other modules set); `computed()` is allowed
 *   anywhere (derived, it holds nothing of its own);
 * - only the API and session modules listed in NETWORK_MODULES reach the network (`fetch`,
 *   `XMLHttpRequest`, `EventSource`, `WebSocket`): components and stores call them;
 * - the store never imports the UI: a store module imports no `.tsx` file.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

const root = new URL('../..', import.meta.url).pathname;

/**
 * The modules whose module-level signals are the client's store, by design: one store per browser
 * tab, fed by register and events; components read them and re-render.
 */
export const STORE_MODULES: Readonly<Record<string, string>> = {
  'renderer/chat/store/state.ts': "the page's one store (`createStore()`, which tests call for their own): register state kept current by events",
  'renderer/chat/store/apply-event.ts': "the typing indicators' expiry timers (the page's effects of applying events, appliers.ts)",
  'renderer/chat/sidebar/sidebar-state.ts': "each channel's topic list, fetched from the server and kept current by the page's effects of applying events",
  'renderer/chat/messages/feeds.ts': 'the open feeds, where each resumes after a re-register, and the batch of messages to mark read',
  'renderer/chat/store/events.ts': 'the event queue and who wants to hear of a re-register',
  'renderer/chat/compose/unsent.ts': 'sends with no answer yet, to retry',
  'renderer/session.ts': 'who is signed in (every page: one session)',
  'renderer/chat/store/session.ts': 'who is signed in, as a signal for the views',
  'renderer/chat/store/router.ts': 'the view in the hash, and the last one that was not a search',
  'renderer/chat/messages/selection.ts': 'the J/K selected message',
  'renderer/chat/messages/message-actions.ts': 'which message menu, picker, dialog or notice is open',
  'renderer/chat/compose/compose-bus.ts': 'what other views ask the compose box to do, and what it took',
  'renderer/chat/compose/draft-sync.ts': 'a draft the Drafts view asked the compose box to open',
  'renderer/chat/compose/autocomplete.ts': "suggestions' data fetched on first use: topics per channel, emoji names",
  'renderer/chat/notifications.ts': 'the desktop notifications shown, closed once their message is read',
  'renderer/chat/compose/file-drop.ts': 'files dragged over the page, and the compose box that takes them',
  'renderer/chat/widgets/widget-sends.ts': 'the poll option and task numbers this page handed out',
  'renderer/chat/people/presence.ts': "this page's presence reports: the timer, the last input, what was sent",
  'renderer/chat/compose/typing.ts': 'the typing notification this page sent last, and its stop timer',
  'renderer/chat/calls/call-store.ts': "the call this page is in (kept while the person moves around the chat), its lobby, an incoming ring, and who is in call links' rooms: fed by 'hearth_call' events",
};

/**
 * Module-level signals allowed by name outside the store (`file: name`): a view's own state that
 * outlives its component or that other modules set (a key opens it, another view reads it).
 */
export const VIEW_SIGNALS: Readonly<Record<string, string>> = {
  'renderer/chat/conversations/Inbox.tsx: folded': 'the folded sections, remembered in localStorage',
  'renderer/chat/people/People.tsx: wide': 'whether the window is wide (a media query)',
  'renderer/chat/people/ProfileCard.tsx: card': 'the open profile card (opened from names anywhere and by a key)',
  'renderer/chat/search/Search.tsx: searchOpen': 'the search box open over the top bar on phones (the / key opens it)',
  'renderer/chat/sidebar/SidebarTopics.tsx: zoomedChannel': '"More topics" open for a channel (the Y key opens it)',
  'renderer/chat/sidebar/SidebarTopics.tsx: topicFilter': 'the filter typed in "More topics"',
  'renderer/chat/sidebar/SidebarTopics.tsx: focusMoreNext': 'where focus goes when the redrawn list leaves "More topics"',
  'renderer/chat/shortcuts.ts: helpOpen': 'the keyboard shortcuts dialog open (the ? key)',
  'renderer/chat/messages/condense.tsx: expanded': 'the long messages the reader expanded, kept through re-renders and scrolling',
  'renderer/chat/messages/condense.tsx: resized': 'bumped after a window resize, so every message measures again',
  'renderer/chat/ui/Toast.tsx: toast': 'the one toast shown (any module says one)',
  'renderer/chat/settings/save.ts: error': 'the last failed save, shown over whichever settings tab is open',
};

/** The only modules that reach the network; everything else calls them. */
export const NETWORK_MODULES: ReadonlySet<string> = new Set([
  'renderer/api.ts',
  'renderer/chat/store/api.ts',
]);

const COLLECTIONS: ReadonlySet<string> = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
const NETWORK_NAMES: ReadonlySet<string> = new Set(['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket']);

/** Whether `node` runs when its module loads (outside any function, or in a static block). */
function atModuleLoad(node: ts.Node): boolean {
  for (let n = node.parent; n !== undefined; n = n.parent) {
    if (ts.isFunctionLike(n) || ts.isClassStaticBlockDeclaration(n)) return ts.isClassStaticBlockDeclaration(n);
    if (ts.isPropertyDeclaration(n) && !n.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) return false;
  }
  return true;
}

/** The problems of one renderer/ file. `storesUsed` collects the STORE_MODULES met (to report stale ones). */
export function rendererProblems(rel: string, text: string, storesUsed: Set<string> = new Set()): string[] {
  const kind = rel.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kind);
  const problems: string[] = [];
  const at = (node: ts.Node) => `${rel}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  /** Module-level `const x = { ... }` objects (outside the store modules they may not be changed in place). */
  const literals = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) {
      problems.push(`${at(statement)}: module-level let/var (state goes in the store, a component or hook, or an object made by a function)`);
      continue;
    }
    for (const d of statement.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.initializer && ts.isObjectLiteralExpression(d.initializer)) literals.add(d.name.text);
    }
  }
  const changesLiteral = (target: ts.Expression): boolean => {
    let e = target;
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = e.expression;
    return e !== target && ts.isIdentifier(e) && literals.has(e.text);
  };
  const visit = (node: ts.Node): void => {
    const changed =
      (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment && node.left) ||
      ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) &&
        node.operand);
    if (changed && rel in STORE_MODULES && changesLiteral(changed)) storesUsed.add(rel);
    else if (changed && changesLiteral(changed)) {
      problems.push(`${at(node)}: a module-level object changed in place (module-level state: in the store, a component or hook, or an object made by a function)`);
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      if (name === 'effect' && atModuleLoad(node)) {
        problems.push(`${at(node)}: effect() runs on import (start it from a function the app calls, and keep its disposer)`);
      } else if ((name === 'signal' || name === 'createStore') && atModuleLoad(node)) {
        const decl = declaredName(node);
        const key = `${rel}: ${decl}`;
        if (rel in STORE_MODULES) storesUsed.add(rel);
        else if (key in VIEW_SIGNALS) storesUsed.add(key);
        else problems.push(`${at(node)}: module-level signal() outside the store modules (test/lint/renderer-rules.ts STORE_MODULES, VIEW_SIGNALS)`);
      } else if (name === 'fetch' && !NETWORK_MODULES.has(rel)) {
        problems.push(`${at(node)}: fetch outside the API modules (call renderer/chat/store/api.ts)`);
      }
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && COLLECTIONS.has(node.expression.text) && rel in STORE_MODULES && atModuleLoad(node)) {
      storesUsed.add(rel);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && NETWORK_NAMES.has(node.expression.text) && !NETWORK_MODULES.has(rel)) {
      problems.push(`${at(node)}: new ${node.expression.text} outside the API modules (call renderer/chat/store/api.ts)`);
    }
    if (
      rel in STORE_MODULES &&
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const spec = node.moduleSpecifier.text;
      if (spec.startsWith('.') && (spec.endsWith('.tsx') || existsSync(join(root, dirname(rel), spec.replace(/\.js$/, '.tsx'))))) {
        problems.push(`${at(node)}: a store module imports the UI (${spec}); the store stays below the components`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

/** The name a `signal()` call's value is declared as (`const open = signal(...)`), if any. */
function declaredName(node: ts.Node): string | undefined {
  const parent = node.parent;
  return parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name) ? parent.name.text : undefined;
}

/** STORE_MODULES entries that hold no module-level signal, collection or object changed in place, and VIEW_SIGNALS entries gone. */
export const staleStoreModules = (used: ReadonlySet<string>): string[] =>
  [...Object.keys(STORE_MODULES), ...Object.keys(VIEW_SIGNALS)]
    .filter((k) => !used.has(k))
    .map((k) => `test/lint/renderer-rules.ts: ${k} is listed but holds no module-level state; remove it`);
