/** The current view, kept in step with the address bar's hash (Back/Forward work). */
import { signal } from '@preact/signals';
import { hashOf, viewOf, type View } from './narrow.js';
import { channelName } from './state.js';

export const view = signal<View>(viewOf(location.hash));

export function listenToHash(): () => void {
  const on = () => (view.value = viewOf(location.hash));
  window.addEventListener('hashchange', on);
  return () => window.removeEventListener('hashchange', on);
}

export function go(v: View): void {
  const hash = hashOf(v, channelName);
  if (location.hash !== hash) location.hash = hash;
  view.value = v;
}

export const href = (v: View) => hashOf(v, channelName);
