/** The chat web client's entry point (bundled by server/lib/runtime/web-bundle.ts). */
import { render } from 'preact';
import { App } from './App.js';
// KaTeX's stylesheet for the math in messages (its fonts are bundled beside it: web-bundle.ts), then ours.
import 'katex/dist/katex.min.css';
import './style.css';

render(<App />, document.getElementById('app')!);
