/** The chat web client's entry point (bundled by server/lib/runtime/web-bundle.ts). */
import { render } from 'preact';
import { App } from './App.js';
import { installFileDrop } from './compose/file-drop.js';
import { watchViewChanges } from './messages/message-actions.js';
import { watchBeforeSearch } from './store/router.js';
import { watchTheme } from './settings/theme.js';
// KaTeX's stylesheet for the math in messages (its fonts are bundled beside it: web-bundle.ts), then ours.
import 'katex/dist/katex.min.css';
import './style.css';
// The organization settings' forms and tables (their code loads when opened; their rules are here).
import './admin/admin.css';
// Calls (chat/calls/): the lobby, the call and the incoming-call dialog.
import './calls/calls.css';

// What watches the whole page, from the start (each returns its disposer; the page never stops them).
watchTheme();
installFileDrop();
watchBeforeSearch();
watchViewChanges();
render(<App />, document.getElementById('app')!);
