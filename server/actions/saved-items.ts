/**
 * Saved snippets and navigation views (Zulip's saved_snippets.py and
 * navigation_views.py): personal lists stored on the user, each change
 * announced to the user's clients.
 */
import type { App } from '../context.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';

type Snippet = NonNullable<UserRecord['saved_snippets']>[number];
type NavView = NonNullable<UserRecord['navigation_views']>[number];

export async function doAddSnippet(app: App, user: UserRecord, title: string, content: string): Promise<number> {
  return commit(app, (tx) => {
    const list = (user.saved_snippets ??= []);
    const id = Math.max(0, ...app.store.users.all().flatMap((u) => (u.saved_snippets ?? []).map((s) => s.id))) + 1;
    const snippet: Snippet = { id, title, content, date_created: Math.floor(app.clock.now() / 1000) };
    list.push(snippet);
    tx.touch(app.store.users.collection);
    tx.emit({ type: 'saved_snippets', op: 'add', saved_snippet: { ...snippet } }, [user.id]);
    return id;
  });
}

export async function doUpdateSnippet(app: App, user: UserRecord, snippet: Snippet, ch: { title?: string; content?: string }): Promise<void> {
  await commit(app, (tx) => {
    if (ch.title !== undefined) snippet.title = ch.title;
    if (ch.content !== undefined) snippet.content = ch.content;
    tx.touch(app.store.users.collection);
    tx.emit({ type: 'saved_snippets', op: 'update', saved_snippet: { ...snippet } }, [user.id]);
  });
}

export async function doRemoveSnippet(app: App, user: UserRecord, id: number): Promise<void> {
  await commit(app, (tx) => {
    user.saved_snippets = (user.saved_snippets ?? []).filter((s) => s.id !== id);
    if (!user.saved_snippets.length) delete user.saved_snippets;
    tx.touch(app.store.users.collection);
    tx.emit({ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }, [user.id]);
  });
}

export async function doAddNavView(app: App, user: UserRecord, view: NavView): Promise<void> {
  await commit(app, (tx) => {
    (user.navigation_views ??= []).push(view);
    tx.touch(app.store.users.collection);
    tx.emit({ type: 'navigation_view', op: 'add', navigation_view: { ...view } }, [user.id]);
  });
}

export async function doUpdateNavView(app: App, user: UserRecord, view: NavView, data: Partial<Pick<NavView, 'is_pinned' | 'name'>>): Promise<void> {
  await commit(app, (tx) => {
    Object.assign(view, data);
    tx.touch(app.store.users.collection);
    tx.emit({ type: 'navigation_view', op: 'update', fragment: view.fragment, data }, [user.id]);
  });
}

export async function doRemoveNavView(app: App, user: UserRecord, fragment: string): Promise<void> {
  await commit(app, (tx) => {
    user.navigation_views = (user.navigation_views ?? []).filter((v) => v.fragment !== fragment);
    if (!user.navigation_views.length) delete user.navigation_views;
    tx.touch(app.store.users.collection);
    tx.emit({ type: 'navigation_view', op: 'remove', fragment }, [user.id]);
  });
}
