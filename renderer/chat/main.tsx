/** The chat web client's entry point (bundled by server/lib/runtime/web-bundle.ts). */
import { render } from 'preact';
import { App } from './App.js';
import './style.css';

render(<App />, document.getElementById('app')!);
