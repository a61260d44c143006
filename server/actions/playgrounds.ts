/** Code playground changes (Zulip's check_add_realm_playground, do_remove_realm_playground): `realm_playgrounds` to everyone. */
import type { App } from '../context.js';
import { playgroundsForApi } from '../lib/realm/playgrounds.js';
import type { PlaygroundRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';

const everyone = (app: App) => app.store.users.all().filter((u) => u.is_active).map((u) => u.id);

function replaceList(app: App, tx: Transaction, list: PlaygroundRecord[]): void {
  app.store.realm.data.realm!.playgrounds = list;
  tx.touch(app.store.realm);
  tx.emit({ type: 'realm_playgrounds', realm_playgrounds: playgroundsForApi(app) }, everyone(app));
}

export async function doAddPlayground(app: App, p: Omit<PlaygroundRecord, 'id'>): Promise<number> {
  return commit(app, (tx) => {
    const realm = app.store.realm.data.realm!;
    const id = (realm.playground_last_id ?? 0) + 1;
    realm.playground_last_id = id;
    replaceList(app, tx, [...(realm.playgrounds ?? []), { id, ...p }]);
    return id;
  });
}

export async function doRemovePlayground(app: App, id: number): Promise<void> {
  await commit(app, (tx) => replaceList(app, tx, (app.store.realm.data.realm!.playgrounds ?? []).filter((p) => p.id !== id)));
}
