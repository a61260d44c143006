/** The current view, kept in step with the address bar's hash (Back/Forward work). */
import { effect, signal } from '@preact/signals';
import { hashOf, viewOf, type View } from './narrow.js';
import { channelName, store } from './state.js';

/** A hash's view; links to direct messages name oneself and (older ones) people by address, read with the store's people. */
export function viewOfHash(hash: string): View {
  const users = store.users.peek();
  const byEmail = (email: string) => {
    const e = email.toLowerCase();
    for (const u of users.values()) if (u.email.toLowerCase() === e || u.delivery_email?.toLowerCase() === e) return u.user_id;
    return undefined;
  };
  return viewOf(hash, store.selfId.peek(), byEmail);
}

const parse = () => viewOfHash(location.hash);

export const view = signal<View>(parse());

export function listenToHash(): () => void {
  const on = () => (view.value = parse());
  window.addEventListener('hashchange', on);
  // A link opened before the people were known (a page loaded at `#narrow/dm/5,6-group`): read it again once they are.
  const stop = effect(() => {
    if (!store.ready.value) return;
    const v = parse();
    if (JSON.stringify(v) !== JSON.stringify(view.peek())) view.value = v;
  });
  return () => {
    window.removeEventListener('hashchange', on);
    stop();
  };
}

export function go(v: View): void {
  const hash = hashOf(v, channelName);
  if (location.hash !== hash) location.hash = hash;
  view.value = v;
}

export const href = (v: View) => hashOf(v, channelName);
