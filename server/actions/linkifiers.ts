/**
 * Linkifier changes (Zulip's do_add_linkifier, do_update_linkifier,
 * do_remove_linkifier, check_reorder_linkifiers): the list in realm.json is
 * replaced (the compiled cache follows the new list), then everyone hears
 * `realm_linkifiers` with the whole list. Messages already sent keep their
 * rendering, as in Zulip.
 */
import type { App } from '../context.js';
import { linkifiersForApi } from '../lib/realm/linkifiers.js';
import type { LinkifierRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';

const everyone = (app: App) => app.store.users.all().filter((u) => u.is_active).map((u) => u.id);


function replaceList(app: App, tx: Transaction, list: LinkifierRecord[]): void {
  const realm = app.store.realm.data.realm!;
  realm.linkifiers = list;
  tx.touch(app.store.realm);
  tx.emit({ type: 'realm_linkifiers', linkifiers: linkifiersForApi(app) }, everyone(app));
}

export async function doAddLinkifier(app: App, pattern: string, urlTemplate: string): Promise<number> {
  return commit(app, (tx) => {
    const realm = app.store.realm.data.realm!;
    const id = (realm.linkifier_last_id ?? 0) + 1;
    realm.linkifier_last_id = id;
    replaceList(app, tx, [...(realm.linkifiers ?? []), { id, pattern, url_template: urlTemplate }]);
    return id;
  });
}

export async function doUpdateLinkifier(app: App, id: number, pattern: string, urlTemplate: string): Promise<void> {
  await commit(app, (tx) => {
    const list = app.store.realm.data.realm!.linkifiers ?? [];
    replaceList(app, tx, list.map((l) => (l.id === id ? { id, pattern, url_template: urlTemplate } : l)));
  });
}

export async function doRemoveLinkifier(app: App, id: number): Promise<void> {
  await commit(app, (tx) => {
    const list = app.store.realm.data.realm!.linkifiers ?? [];
    replaceList(app, tx, list.filter((l) => l.id !== id));
  });
}

export async function doReorderLinkifiers(app: App, orderedIds: number[]): Promise<void> {
  await commit(app, (tx) => {
    const byId = new Map((app.store.realm.data.realm!.linkifiers ?? []).map((l) => [l.id, l]));
    replaceList(app, tx, orderedIds.map((id) => byId.get(id)!));
  });
}
