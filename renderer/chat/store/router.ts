/** The current view, kept in step with the address bar's hash (Back/Forward work). */
import { effect, signal } from '@preact/signals';
import { call } from './api.js';
import { dmPeers, hashOf, organizationOf, viewOf, type MessageLike, type View } from './narrow.js';
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

/** `/admin/` (the desktop window's address, bookmarks): the organization settings, by the admin pages' old hashes too. */
const atAdmin = () => location.pathname.startsWith('/admin');

const parse = (): View => (atAdmin() ? { kind: 'organization', section: organizationOf(location.hash, true) ?? 'users' } : viewOfHash(location.hash));

export const view = signal<View>(parse());

/** The last view that was not a search: where Escape and "Close search" return. */
export const beforeSearch = signal<View>({ kind: 'inbox' });

/** Keeps `beforeSearch` (main.tsx starts it; returns the disposer). */
export const watchBeforeSearch = (): (() => void) =>
  effect(() => {
    if (view.value.kind !== 'search') beforeSearch.value = view.value;
  });

/**
 * `…/with/ID` (Zulip's message links): the conversation the message is in now. When it was moved
 * since the link was made, the view goes there, in place of the link's (the address bar follows).
 */
async function followMessage(v: View): Promise<void> {
  const id = /\/with\/(\d+)$/.exec(location.hash)?.[1];
  if (!id || !('near' in v) || v.near !== Number(id)) return;
  let m: MessageLike;
  try {
    m = (await call<{ message: MessageLike }>('GET', `/messages/${id}`, { apply_markdown: false })).message;
  } catch {
    return; // Gone, or not for this person: the link's own view says what there is.
  }
  const now: View =
    m.type === 'stream' && m.stream_id !== undefined
      ? { kind: 'topic', streamId: m.stream_id, topic: m.subject, near: m.id }
      : { kind: 'dm', userIds: dmPeers(m, store.selfId.peek()), near: m.id };
  if (view.peek() !== v || hashOf(now) === hashOf({ ...v, near: m.id })) return;
  history.replaceState(history.state, '', hashOf(now, channelName));
  view.value = now;
}

export function listenToHash(): () => void {
  // `/admin/#users` becomes `/#organization/users`: one page, one address form.
  if (atAdmin()) history.replaceState(history.state, '', `/${hashOf(view.peek(), channelName)}`);
  const on = () => {
    view.value = parse();
    if (store.ready.peek()) void followMessage(view.value);
  };
  window.addEventListener('hashchange', on);
  // A link opened before the people were known (a page loaded at `#narrow/dm/5,6-group`): read it again once they are.
  const stop = effect(() => {
    if (!store.ready.value) return;
    const v = parse();
    if (JSON.stringify(v) !== JSON.stringify(view.peek())) view.value = v;
    void followMessage(view.peek());
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
